package io.dpspectra.covariance;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;

/**
 * Projects a symmetric matrix's eigenvalues onto [lower, upper]: W diag(min(max(γ_i, lower), upper)) Wᵀ.
 * Post-processing of a release; the bounds must be public (e.g. 0 and nβ² with n public).
 *
 * <p>Reference: spec robust-local-covariance.md §5.6 (A-C12: clip each eigenvalue, as the paper's
 * text says). Cost: one full symmetric eigendecomposition, O(d³).
 */
public final class EigenvalueClamp {
    /**
     * @param matrix  the clamped symmetric matrix
     * @param clamped how many eigenvalues were moved onto a bound
     */
    public record Result(Matrix matrix, int clamped) {
    }

    private EigenvalueClamp() {
    }

    /**
     * Not modified: m. {@code upper} may be {@link Double#POSITIVE_INFINITY}.
     *
     * @param m     a symmetric matrix
     * @param lower the lowest allowed eigenvalue
     * @param upper the highest allowed eigenvalue, ≥ lower
     * @return the clamped matrix (a new one) and how many eigenvalues moved
     */
    public static Result clamp(Matrix m, double lower, double upper) {
        if (!(lower <= upper)) {
            throw new IllegalArgumentException("clamp bounds must satisfy lower <= upper, got [" + lower + ", "
                    + upper + "]");
        }
        SymmetricEigen e = SymmetricEigen.of(m);
        double[] values = e.values();
        int clamped = 0;
        for (double v : values) {
            if (v < lower || v > upper) {
                clamped++;
            }
        }
        if (clamped == 0) {
            Matrix copy = m.copy();
            copy.symmetrizeInPlace();
            return new Result(copy, 0);
        }
        Matrix w = e.vectors();
        Matrix wd = w.copy();
        int d = m.rows();
        for (int j = 0; j < values.length; j++) {
            double c = Math.min(Math.max(values[j], lower), upper);
            for (int i = 0; i < d; i++) {
                wd.set(i, j, wd.get(i, j) * c);
            }
        }
        Matrix out = wd.times(w.transpose());
        out.symmetrizeInPlace();
        return new Result(out, clamped);
    }
}
