package io.dpspectra.metrics;

import io.dpspectra.linalg.Matrix;

/**
 * Error measures for a released covariance.
 *
 * <p>TODO(skeleton): implemented in the data/metrics work package; the API below is fixed.
 */
public final class CovarianceMetrics {
    private CovarianceMetrics() {
    }

    /** ‖Ĉ − C‖_F / n (AMIN's normalised Frobenius error). */
    public static double normalisedFrobeniusError(Matrix estimate, Matrix truth, long n) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }
}
