package io.dpspectra.release;

import io.dpspectra.data.DataBounds;
import io.dpspectra.privacy.DpPreconditions;

/**
 * The per-row L2 norm bound B every private release is calibrated to, and where it comes from:
 * <ul>
 *   <li>{@link #clip(double)}: a public B (domain knowledge, never the data); rows above it are scaled onto it;</li>
 *   <li>{@link #require(double)}: a public B every row must already satisfy (a row above it is an error);</li>
 *   <li>{@link #privateQuantile(double, double)}: B is a differentially private quantile of the row norms
 *       (the exponential mechanism over a public geometric grid), bought with a share of the budget;</li>
 *   <li>{@link #fromSchema()}: the bound a schema with numeric bounds implies by construction.</li>
 * </ul>
 */
public sealed interface RowBound permits RowBound.Given, RowBound.PrivateQuantile, RowBound.FromSchema {
    /** The default share of the budget for a private bound. */
    double DEFAULT_PRIVATE_SHARE = 0.1;
    /** The top T of the public grid of a private bound without a bounded schema. */
    double PRIVATE_GRID_TOP = 1e6;
    /** The private bound's grid spans [T·span, T]. */
    double PRIVATE_GRID_SPAN = 1e-8;
    /** The grid's ratio: the private bound's relative resolution is 10%. */
    double PRIVATE_GRID_RATIO = 1.1;

    /**
     * A public bound.
     *
     * @param bound  B, finite and &gt; 0
     * @param policy clip rows above B onto it, or reject them
     */
    record Given(double bound, DataBounds.Policy policy) implements RowBound {
        /**
         * Checks the bound.
         *
         * @param bound  B
         * @param policy clip or reject
         */
        public Given {
            DpPreconditions.checkBound("the row norm bound", bound);
            java.util.Objects.requireNonNull(policy, "policy");
        }
    }

    /**
     * A private quantile of the row norms.
     *
     * @param quantile Q in (0, 1): about a share 1 − Q of the rows is clipped
     * @param share    the share F of the budget's ε it spends, in (0, 1)
     */
    record PrivateQuantile(double quantile, double share) implements RowBound {
        /**
         * Checks Q and F.
         *
         * @param quantile Q
         * @param share    F
         */
        public PrivateQuantile {
            if (!(quantile > 0 && quantile < 1)) {
                throw new IllegalArgumentException("the quantile Q must be in (0, 1), got " + quantile
                        + "; e.g. 0.95");
            }
            if (!(share > 0 && share < 1)) {
                throw new IllegalArgumentException("the budget share F must be in (0, 1), got " + share + "; e.g. 0.1");
            }
        }

        @Override
        public double budgetShare() {
            return share;
        }
    }

    /** The bound a schema implies by construction (every numeric column with min and max). */
    record FromSchema() implements RowBound {
    }

    /**
     * Rows above {@code bound} are scaled onto it.
     *
     * @param bound B, from domain knowledge
     * @return the bound
     */
    static RowBound clip(double bound) {
        return new Given(bound, DataBounds.Policy.CLIP);
    }

    /**
     * Every row must already satisfy {@code bound}; a row above it is an error naming it.
     *
     * @param bound B, from domain knowledge
     * @return the bound
     */
    static RowBound require(double bound) {
        return new Given(bound, DataBounds.Policy.REJECT);
    }

    /**
     * A private {@code quantile} of the row norms, spending {@link #DEFAULT_PRIVATE_SHARE} of ε.
     *
     * @param quantile Q in (0, 1)
     * @return the bound
     */
    static RowBound privateQuantile(double quantile) {
        return new PrivateQuantile(quantile, DEFAULT_PRIVATE_SHARE);
    }

    /**
     * A private {@code quantile} of the row norms, spending {@code share} of ε.
     *
     * @param quantile Q in (0, 1)
     * @param share    F in (0, 1)
     * @return the bound
     */
    static RowBound privateQuantile(double quantile, double share) {
        return new PrivateQuantile(quantile, share);
    }

    /**
     * The schema's bound by construction.
     *
     * @return the bound
     */
    static RowBound fromSchema() {
        return new FromSchema();
    }

    /**
     * The share of ε this bound spends: 0 unless private.
     *
     * @return the share
     */
    default double budgetShare() {
        return 0;
    }

    /**
     * What happens to a row above the bound: clip, except for {@link #require}.
     *
     * @return the policy
     */
    default DataBounds.Policy policy() {
        return this instanceof Given g ? g.policy() : DataBounds.Policy.CLIP;
    }
}
