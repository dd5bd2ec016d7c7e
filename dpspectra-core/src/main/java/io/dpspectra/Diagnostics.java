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
    public static final String PRIVATE_KEYS_NOTE =
            "diagnostics such as clipped-row counts describe the input and are not differentially private";

    private final Map<String, Object> entries;

    private Diagnostics(Map<String, Object> entries) {
        this.entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    public static Diagnostics empty() {
        return new Diagnostics(Map.of());
    }

    public static Builder builder() {
        return new Builder();
    }

    public Map<String, Object> asMap() {
        return entries;
    }

    public Object get(String key) {
        return entries.get(key);
    }

    /** A builder that keeps insertion order. */
    public static final class Builder {
        private final LinkedHashMap<String, Object> map = new LinkedHashMap<>();

        public Builder put(String key, Object value) {
            map.put(key, value);
            return this;
        }

        public Builder putAll(Diagnostics other) {
            map.putAll(other.entries);
            return this;
        }

        public Diagnostics build() {
            return new Diagnostics(map);
        }
    }

    @Override
    public String toString() {
        return entries.toString();
    }
}
