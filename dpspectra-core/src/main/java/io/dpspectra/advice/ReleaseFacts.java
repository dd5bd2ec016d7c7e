package io.dpspectra.advice;

import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Objects;

/**
 * The public facts of a planned release, all an advisor may use: nothing here is read from the data.
 *
 * @param rows         n, the number of rows (public under replace-one), or a public lower bound on it (a
 *                     lower bound makes every prediction pessimistic; an upper bound, optimistic)
 * @param dimension    d, the number of features the estimator sees
 * @param components   k, the number of directions wanted (1 ≤ k &lt; d)
 * @param budget       the (ε, δ) the estimator spends (after any preprocessing share)
 * @param neighbouring the relation of the guarantee
 * @param rowBound     B, the L2 bound of a row; NaN when it is not known yet (a private bound still to be
 *                     drawn): the predictions are then in units of B², and the shares do not depend on B
 * @param fill         the rows' mean squared norm as a share of B², in (0, 1]: the variance the rows can put
 *                     into directions is fill·n·B². 1 means every row on the bound (the most optimistic); a
 *                     private Q-quantile bound clips the top 1 − Q of the rows onto it, so fill ≥ 1 − Q
 */
public record ReleaseFacts(long rows, int dimension, int components, PrivacyParams budget, Neighbouring neighbouring,
                           double rowBound, double fill) {
    /**
     * Checks the facts.
     *
     * @param rows n
     * @param dimension d
     * @param components k
     * @param budget the estimator's (ε, δ)
     * @param neighbouring the relation
     * @param rowBound B, or NaN
     * @param fill the share of B² the rows fill
     */
    public ReleaseFacts {
        if (rows < 1) {
            throw new IllegalArgumentException("the number of rows must be >= 1, got " + rows);
        }
        DpPreconditions.checkAtLeast("dimension", dimension, 1);
        DpPreconditions.checkComponents(components, dimension);
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(neighbouring, "neighbouring");
        if (!Double.isNaN(rowBound)) {
            DpPreconditions.checkBound("rowBound", rowBound);
        }
        if (!(fill > 0 && fill <= 1)) {
            throw new IllegalArgumentException("fill must be in (0, 1], got " + fill
                    + "; it is the rows' mean squared norm as a share of the bound squared");
        }
    }

    /**
     * B, or 1 when the bound is not known (predictions then in units of B²).
     *
     * @return B, or 1
     */
    public double boundOrUnit() {
        return Double.isNaN(rowBound) ? 1 : rowBound;
    }

    /**
     * The variance the rows can put into directions: fill·n·B² (XᵀX units; B = 1 when unknown).
     *
     * @return fill·n·B²
     */
    public double trace() {
        double b = boundOrUnit();
        return fill * rows * b * b;
    }

    /**
     * The same facts with another budget.
     *
     * @param other the budget
     * @return the facts
     */
    public ReleaseFacts withBudget(PrivacyParams other) {
        return new ReleaseFacts(rows, dimension, components, other, neighbouring, rowBound, fill);
    }

    /**
     * The same facts with another n.
     *
     * @param other n
     * @return the facts
     */
    public ReleaseFacts withRows(long other) {
        return new ReleaseFacts(other, dimension, components, budget, neighbouring, rowBound, fill);
    }
}
