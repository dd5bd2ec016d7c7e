package io.dpspectra.release;

import java.util.Locale;
import java.util.Objects;

/**
 * How rows are centred before the estimator: not at all (the uncentred second moment XᵀX), by the schema's
 * public centres (free), or by a differentially private mean bought with a share of the budget and
 * released with the result.
 *
 * @param kind  none, public or private
 * @param share for a private mean, the share of the budget it spends, in (0, 1); 0 otherwise
 */
public record Centring(Kind kind, double share) {
    /** The default share of the budget for a private mean. */
    public static final double DEFAULT_PRIVATE_SHARE = 0.1;
    /** No centring. */
    public static final Centring NONE = new Centring(Kind.NONE, 0);
    /** The schema's public centres. */
    public static final Centring PUBLIC = new Centring(Kind.PUBLIC, 0);
    /** A private mean with {@link #DEFAULT_PRIVATE_SHARE} of the budget. */
    public static final Centring PRIVATE = new Centring(Kind.PRIVATE, DEFAULT_PRIVATE_SHARE);

    /** The kinds of centring. */
    public enum Kind {
        /** No centring: the estimator sees the uncentred second moment XᵀX. */
        NONE,
        /** The schema's public centres (no privacy cost). */
        PUBLIC,
        /** A differentially private mean, spent from the budget and released with the model. */
        PRIVATE
    }

    /**
     * Checks the share.
     *
     * @param kind  the kind
     * @param share the share (0 unless private)
     */
    public Centring {
        Objects.requireNonNull(kind, "kind");
        if (kind == Kind.PRIVATE ? !(share > 0 && share < 1) : share != 0) {
            throw new IllegalArgumentException("the budget share F of a private mean must be in (0, 1), got " + share
                    + "; e.g. 0.1");
        }
    }

    /**
     * Centring by a private mean spending {@code share} of the budget.
     *
     * @param share F in (0, 1)
     * @return the centring
     */
    public static Centring privateMean(double share) {
        return new Centring(Kind.PRIVATE, share);
    }

    /**
     * Whether the centring spends budget.
     *
     * @return true for a private mean
     */
    public boolean isPrivate() {
        return kind == Kind.PRIVATE;
    }

    /**
     * Whether rows are centred at all (then a schema maps them with its public centres first).
     *
     * @return false for {@link #NONE}
     */
    public boolean centres() {
        return kind != Kind.NONE;
    }

    /**
     * The kind in lower case, as a release records it: none, public or private.
     *
     * @return the label
     */
    public String label() {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
