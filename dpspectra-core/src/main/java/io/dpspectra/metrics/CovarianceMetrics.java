package io.dpspectra.metrics;

import io.dpspectra.linalg.Matrix;

/**
 * Error measures for a released covariance: the normalised Frobenius error ‖Ĉ − C‖_F / n.
 *
 * <p>Reference: [AMIN] = papers/dp-covariance-estimation.txt §5 ("the normalized Frobenius distance
 * ‖Ĉ − C‖_F / n", with C = XXᵀ the unnormalised second moment of n records); spec
 * robust-local-covariance.md metric 8.
 *
 * <p>Cost: O(d²), no allocation beyond a scalar loop.
 */
public final class CovarianceMetrics {
    private CovarianceMetrics() {
    }

    /**
     * ‖Ĉ − C‖_F / n (AMIN's normalised Frobenius error). Both matrices are the unnormalised sums
     * Σ xxᵀ over the same n records (if they are already averages, pass n = 1).
     *
     * @param estimate the released Ĉ (d × d). Not modified.
     * @param truth    the exact C (d × d). Not modified.
     * @param n        the number of records, ≥ 1
     * @return the normalised Frobenius error, ≥ 0
     */
    public static double normalisedFrobeniusError(Matrix estimate, Matrix truth, long n) {
        if (estimate == null || truth == null) {
            throw new IllegalArgumentException("estimate and truth must both be d × d matrices, got null");
        }
        if (!estimate.isSquare() || estimate.rows() != truth.rows() || estimate.cols() != truth.cols()) {
            throw new IllegalArgumentException("estimate is " + estimate.rows() + " × " + estimate.cols()
                    + " but truth is " + truth.rows() + " × " + truth.cols() + "; both must be the same d × d");
        }
        if (n < 1) {
            throw new IllegalArgumentException("n (the number of records) must be >= 1, got " + n);
        }
        double[] a = estimate.data();
        double[] b = truth.data();
        double scale = 0;
        for (int i = 0; i < a.length; i++) {
            scale = Math.max(scale, Math.abs(a[i] - b[i]));
        }
        if (scale == 0 || !Double.isFinite(scale)) {
            return scale / n;
        }
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            double t = (a[i] - b[i]) / scale;
            s += t * t;
        }
        return scale * Math.sqrt(s) / n;
    }
}
