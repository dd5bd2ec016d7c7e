package io.dpspectra.release;

import io.dpspectra.data.AdaptiveQuantile;
import io.dpspectra.data.DataBounds;
import io.dpspectra.privacy.DpPreconditions;
import java.util.OptionalDouble;

/**
 * The per-row L2 norm bound B every private release is calibrated to, and where it comes from:
 * <ul>
 *   <li>{@link #clip(double)}: a public B (domain knowledge, never the data); rows above it are scaled onto it;</li>
 *   <li>{@link #require(double)}: a public B every row must already satisfy (a row above it is an error);</li>
 *   <li>{@link #privateQuantile(double, double)}: B is a differentially private quantile of the row norms
 *       ({@link AdaptiveQuantile}: a noisy max over the octaves of a public geometric ladder, then over the
 *       chosen octave's cells, so that its error does not grow with the ladder's width), bought with a share of
 *       the budget, fixed or planned from a public n ({@link PrivateQuantile#forPublicRows});</li>
 *   <li>{@link #fromSchema()}: the bound a schema with numeric bounds implies by construction.</li>
 * </ul>
 */
public sealed interface RowBound permits RowBound.Given, RowBound.PrivateQuantile, RowBound.FromSchema {
    /**
     * The share of the budget of a private bound whose share is {@linkplain PrivateQuantile#isAuto automatic}
     * when n is not public (add/remove neighbouring, or rows read once): with a public n,
     * {@link PrivateQuantile#forPublicRows} plans the share the quantile needs.
     */
    double DEFAULT_PRIVATE_SHARE = 0.1;
    /** The quantile of a private bound when none is named: the median row norm. */
    double DEFAULT_PRIVATE_QUANTILE = 0.5;

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
     * A private quantile of the row norms ({@link AdaptiveQuantile}): pure ε-DP for the share it spends, one
     * row as the unit (add/remove or replace-one; sensitivity 1 of the rank utilities), over the public ladder
     * {@link #ladder} (the 40 octaves below a bounded schema's bound, else 2^-30 to 2^50).
     *
     * @param quantile     Q in (0, 1): about a share 1 − Q of the rows is clipped
     * @param share        the share F of the budget's ε it spends, in (0, 1); NaN for automatic (planned by
     *                     {@link #forPublicRows} from a public n, else {@link #DEFAULT_PRIVATE_SHARE})
     * @param bracketShare the share of F spent on choosing the octave, in (0, 1] (1: no cell step)
     */
    record PrivateQuantile(double quantile, double share, double bracketShare) implements RowBound {
        /**
         * Checks Q, F and the octave's share.
         *
         * @param quantile     Q
         * @param share        F, or NaN for automatic
         * @param bracketShare the octave's share of F
         */
        public PrivateQuantile {
            if (!(quantile > 0 && quantile < 1)) {
                throw new IllegalArgumentException("the quantile Q must be in (0, 1), got " + quantile
                        + "; e.g. 0.5");
            }
            if (!Double.isNaN(share) && !(share > 0 && share < 1)) {
                throw new IllegalArgumentException("the budget share F must be in (0, 1), got " + share + "; e.g. 0.1");
            }
            if (!(bracketShare > 0 && bracketShare <= 1)) {
                throw new IllegalArgumentException("the octave's share must be in (0, 1], got " + bracketShare);
            }
        }

        /**
         * Whether the share is automatic and not planned yet.
         *
         * @return true for an automatic share
         */
        public boolean isAuto() {
            return Double.isNaN(share);
        }

        @Override
        public double budgetShare() {
            return isAuto() ? DEFAULT_PRIVATE_SHARE : share;
        }

        /**
         * The public ladder the quantile searches: the 40 octaves below the schema's bound by construction (no
         * row lies above it), else {@link AdaptiveQuantile#DEFAULT_LO} to {@link AdaptiveQuantile#DEFAULT_HI}.
         *
         * @param schemaBound the bound a schema implies, or empty
         * @return the ladder
         */
        public static AdaptiveQuantile.Ladder ladder(OptionalDouble schemaBound) {
            return AdaptiveQuantile.Ladder.rowNorms(schemaBound.orElse(Double.NaN));
        }

        /**
         * The {@linkplain AdaptiveQuantile#plan automatic plan} for n public rows at a release budget ε: the share
         * that locates this quantile with probability about 1 − {@value AdaptiveQuantile#AUTO_BETA} (more for
         * fewer rows, from {@value AdaptiveQuantile#MIN_AUTO_SHARE} up to {@value AdaptiveQuantile#MAX_AUTO_SHARE}).
         * A function of public numbers only.
         *
         * @param rows        n, public (replace-one neighbouring) or a public lower bound on it
         * @param epsilon     the release's total ε
         * @param schemaBound the bound a schema implies, or empty
         * @return the plan
         */
        public AdaptiveQuantile.Plan plan(long rows, double epsilon, OptionalDouble schemaBound) {
            return AdaptiveQuantile.plan(rows, quantile, epsilon, ladder(schemaBound));
        }

        /**
         * This bound with an automatic share planned for n public rows ({@link #plan}); a fixed share is kept.
         *
         * @param rows        n, public (replace-one neighbouring) or a public lower bound on it
         * @param epsilon     the release's total ε
         * @param schemaBound the bound a schema implies, or empty
         * @return the bound with a fixed share
         */
        public PrivateQuantile forPublicRows(long rows, double epsilon, OptionalDouble schemaBound) {
            if (!isAuto()) {
                return this;
            }
            AdaptiveQuantile.Plan p = plan(rows, epsilon, schemaBound);
            return new PrivateQuantile(quantile, p.share(), p.bracketShare());
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
     * A private {@code quantile} of the row norms with an automatic share: planned from a public n by
     * {@link PrivateQuantile#forPublicRows}, else {@link #DEFAULT_PRIVATE_SHARE} of ε.
     *
     * @param quantile Q in (0, 1)
     * @return the bound
     */
    static RowBound privateQuantile(double quantile) {
        return new PrivateQuantile(quantile, Double.NaN, AdaptiveQuantile.DEFAULT_BRACKET_SHARE);
    }

    /**
     * A private {@code quantile} of the row norms, spending {@code share} of ε.
     *
     * @param quantile Q in (0, 1)
     * @param share    F in (0, 1), or NaN for automatic
     * @return the bound
     */
    static RowBound privateQuantile(double quantile, double share) {
        return new PrivateQuantile(quantile, share, AdaptiveQuantile.DEFAULT_BRACKET_SHARE);
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
