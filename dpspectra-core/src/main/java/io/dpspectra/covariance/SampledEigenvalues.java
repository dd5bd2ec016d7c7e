package io.dpspectra.covariance;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.noise.LaplaceNoise;
import io.dpspectra.noise.RandomSource;
import java.util.Arrays;

/**
 * Step 2–3 of Amin et al.'s Algorithm 1, shared by {@link IterativeEigenvectorSampling} and
 * {@link KapralovTalwar}: the d eigenvalues of C = XᵀX plus independent Laplace noise, sorted descending
 * (A-C9) and clamped to [0, nβ²] (A-C12, §5.6). The sorted eigenvalue vector has L1 sensitivity 2β²
 * under REPLACE_ROW (Amin et al. Thm. 1 proof; spec §1.4), so scale {@code 2β²/ε₀} (rounding of the
 * floating-point-safe sampler included via {@link LaplaceNoise#scaleFor(double, double, long)}) gives
 * ε₀-DP. Sorting and clamping are post-processing.
 */
final class SampledEigenvalues {
    final double[] values; // released, sorted descending, clamped
    final double scale;
    final int clamped;

    private SampledEigenvalues(double[] values, double scale, int clamped) {
        this.values = values;
        this.scale = scale;
        this.clamped = clamped;
    }

    /** L1 sensitivity of the sorted eigenvalue vector of XᵀX under REPLACE_ROW: 2β². */
    static double l1Sensitivity(double rowL2Bound) {
        return 2.0 * rowL2Bound * rowL2Bound;
    }

    static SampledEigenvalues release(Matrix c, long n, double rowL2Bound, double epsilon0, double noiseMultiplier,
                                      RandomSource random) {
        int d = c.rows();
        double[] mu = SymmetricEigen.of(c).values(); // descending
        double scale = noiseMultiplier * LaplaceNoise.scaleFor(l1Sensitivity(rowL2Bound), epsilon0, d);
        LaplaceNoise noise = new LaplaceNoise(random);
        double[] v = new double[d];
        for (int i = 0; i < d; i++) {
            v[i] = noise.addNoise(mu[i], scale);
        }
        double upper = n * rowL2Bound * rowL2Bound;
        int clamped = 0;
        for (int i = 0; i < d; i++) {
            double x = Math.min(Math.max(v[i], 0.0), upper);
            if (x != v[i]) {
                clamped++;
            }
            v[i] = x;
        }
        Arrays.sort(v);
        for (int i = 0; i < d / 2; i++) { // descending
            double t = v[i];
            v[i] = v[d - 1 - i];
            v[d - 1 - i] = t;
        }
        return new SampledEigenvalues(v, scale, clamped);
    }

    /** Σ_i λ_i θ_i θ_iᵀ for the columns θ_i of {@code vectors} (d × k). Not modified: arguments. */
    static Matrix assemble(double[] lambda, Matrix vectors) {
        int d = vectors.rows();
        int k = vectors.cols();
        Matrix scaled = vectors.copy();
        for (int j = 0; j < k; j++) {
            for (int i = 0; i < d; i++) {
                scaled.set(i, j, scaled.get(i, j) * lambda[j]);
            }
        }
        Matrix out = scaled.times(vectors.transpose());
        out.symmetrizeInPlace();
        return out;
    }

    /** Median of a long array (as a double). */
    static double median(long[] counts) {
        long[] s = counts.clone();
        Arrays.sort(s);
        int m = s.length;
        return m == 0 ? 0 : (m % 2 == 1 ? s[m / 2] : 0.5 * (s[m / 2 - 1] + s[m / 2]));
    }

    static double mean(long[] counts) {
        double sum = 0;
        for (long c : counts) {
            sum += c;
        }
        return counts.length == 0 ? 0 : sum / counts.length;
    }
}
