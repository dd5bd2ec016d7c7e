package io.dpspectra.pca;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.linalg.ThinSvd;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyGuarantee;
import java.util.ArrayList;
import java.util.List;

/**
 * The loop shared by the noisy, streaming and private power methods (papers/noisy-power-method.txt
 * Figs. 1–3): X_0 a random (or given) orthonormal basis, then Y_ℓ ← step(ℓ, X_{ℓ−1}),
 * X_ℓ ← Q of QR(Y_ℓ), and the top-k ordering of X_L by the SVD of R_L.
 *
 * <p>QR is Householder (LAPACK dgeqrf/dorgqr), whose Q has orthonormal columns for every Y, rank
 * deficient or not; the spec's random replacement of dependent columns (§0) is therefore not needed.
 */
final class PowerIterations {
    private PowerIterations() {
    }

    /** One noisy product of step ℓ. */
    interface Step {
        /** Y_ℓ (d × p) from X_{ℓ−1}. Must not modify {@code previous}. */
        Matrix product(int iteration, Matrix previous);

        /** The per-entry noise scale of the last product, NaN if none. */
        default double lastNoiseScale() {
            return Double.NaN;
        }
    }

    static void checkShape(int d, int k, int p) {
        if (k < 1 || k > d) {
            throw new IllegalArgumentException("components k must satisfy 1 <= k <= d = " + d + ", got k = " + k);
        }
        if (p < k || p > d) {
            throw new IllegalArgumentException("block size p must satisfy k <= p <= d (k = " + k + ", d = " + d
                    + "), got p = " + p + "; p = k is the plain method, p = 2k the paper's recommended "
                    + "oversampling (Cor. 1.1, Thm 1.3)");
        }
    }

    static Matrix checkInitialBasis(Matrix x0, int d, int p) {
        if (x0 == null) {
            return null;
        }
        if (x0.rows() != d || x0.cols() != p) {
            throw new IllegalArgumentException("initial basis must be d x p = " + d + " x " + p + ", got "
                    + x0.rows() + " x " + x0.cols());
        }
        Matrix q = Orthonormal.qr(x0);
        return q;
    }

    /**
     * Runs L steps. {@code truth} (d × k orthonormal, or null) switches on the per-iteration angle
     * diagnostics; {@code trace} switches on the trace even without a truth.
     */
    static PowerMethodResult run(int d, int p, int k, int iterations, Matrix x0, Step step, RandomSource random,
                                 Matrix truth, boolean trace, PrivacyGuarantee guarantee) {
        Matrix x = x0 != null ? x0.copy() : io.dpspectra.noise.RandomSubspace.basis(d, p, random);
        List<PowerMethodResult.Iteration> records = new ArrayList<>();
        Matrix y = null;
        Matrix previous = x;
        for (int l = 1; l <= iterations; l++) {
            previous = x;
            double prevMax = x.maxAbs();
            y = step.product(l, x);
            if (y.rows() != d || y.cols() != p) {
                throw new IllegalStateException("step " + l + " returned a " + y.rows() + " x " + y.cols()
                        + " matrix, expected " + d + " x " + p);
            }
            if (!y.isFinite()) {
                throw new ArithmeticException("step " + l + " produced a NaN or infinite entry; the operator or the "
                        + "perturbation overflowed (scale the matrix down)");
            }
            x = Orthonormal.qr(y);
            if (trace || truth != null) {
                double sin = Double.NaN;
                double tan = Double.NaN;
                double[] angles = new double[0];
                if (truth != null) {
                    angles = SubspaceMetrics.principalAngles(truth, x);
                    sin = SubspaceMetrics.projectionResidual(x, truth);
                    double cos = Math.sqrt(Math.max(0, 1 - sin * sin));
                    tan = cos == 0 ? Double.POSITIVE_INFINITY : sin / cos;
                }
                records.add(new PowerMethodResult.Iteration(l, prevMax, step.lastNoiseScale(), angles, sin, tan));
            }
        }
        Matrix components;
        double[] singular;
        if (y == null) {
            components = x.leadingColumns(k);
            singular = new double[p];
        } else {
            Matrix r = x.transposeTimes(y);           // R_L = X_Lᵀ Y_L (p × p)
            ThinSvd svd = ThinSvd.of(r);
            Matrix rotated = x.times(svd.u());        // X_L W
            components = rotated.leadingColumns(k);
            singular = svd.singular();
        }
        return new PowerMethodResult(x, components, singular, records, guarantee, previous,
                y == null ? new Matrix(d, p) : y);
    }
}
