package io.dpspectra;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Ordered, immutable key/value facts about a run: iterations, clipped rows, failures, warnings. Values
 * are numbers, strings, booleans or lists of them, so they serialise to JSON as they are.
 *
 * <p>Diagnostics are never part of the private release: most entries (rows, clipped rows, proposal
 * counts, iterations) are computed from the data without privacy. Treat every entry as not private and
 * keep it with the data's curator; the CLI writes them to a separate file ({@code --diagnostics}),
 * marked as such, and {@link #PRIVATE_KEYS_NOTE} explains this to library users.
 */
public final class Diagnostics {
    /**
     * The note that goes with diagnostics wherever they are shown or written: they describe the input and are not
     * differentially private.
     */
    public static final String PRIVATE_KEYS_NOTE =
            "diagnostics such as clipped-row counts describe the input and are not differentially private";

    private final Map<String, Object> entries;

    private Diagnostics(Map<String, Object> entries) {
        this.entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    /**
     * No diagnostics.
     *
     * @return an empty, immutable instance
     */
    public static Diagnostics empty() {
        return new Diagnostics(Map.of());
    }

    /**
     * A builder that keeps the order in which entries are put.
     *
     * @return a new, empty builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Every entry, in insertion order.
     *
     * @return an unmodifiable view of the entries (not private: see the class comment)
     */
    public Map<String, Object> asMap() {
        return entries;
    }

    /**
     * One entry.
     *
     * @param key the entry's name, e.g. {@code "iterations"}
     * @return its value, or null when there is no such entry
     */
    public Object get(String key) {
        return entries.get(key);
    }

    /** A builder that keeps insertion order. */
    public static final class Builder {
        private final LinkedHashMap<String, Object> map = new LinkedHashMap<>();

        /**
         * Adds or replaces one entry (a replaced key keeps its first position).
         *
         * @param key the entry's name
         * @param value a number, string, boolean or list of them
         * @return this builder
         */
        public Builder put(String key, Object value) {
            map.put(key, value);
            return this;
        }

        /**
         * Adds or replaces every entry of {@code other}, in its order.
         *
         * @param other diagnostics to copy, e.g. those of a preprocessing step
         * @return this builder
         */
        public Builder putAll(Diagnostics other) {
            map.putAll(other.entries);
            return this;
        }

        /**
         * The diagnostics put so far; the builder can be reused.
         *
         * @return an immutable copy of the entries
         */
        public Diagnostics build() {
            return new Diagnostics(map);
        }
    }

    @Override
    public String toString() {
        return entries.toString();
    }
}
