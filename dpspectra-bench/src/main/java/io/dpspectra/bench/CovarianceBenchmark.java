package io.dpspectra.bench;

import io.dpspectra.covariance.IterativeEigenvectorSampling;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;
import io.dpspectra.synthetic.CorrelatedSphereData;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The cost of a full iterative-eigenvector-sampling release (all d vectors) against one symmetric
 * eigendecomposition of the same size. Benchmark data: Amin et al.'s Algorithm 3 (seeded; not a privacy
 * mechanism). The Gram matrix is formed once and excluded from both timings, so the comparison is
 * release-from-XᵀX against eigendecomposition-of-XᵀX.
 */
public final class CovarianceBenchmark {
    private CovarianceBenchmark() {
    }

    /**
     * Times both at one dimension: best of the repeats after one warm-up.
     *
     * @param rows    n, at least 2
     * @param d       the dimension, at least 2
     * @param epsilon the release's epsilon (pure DP)
     * @param repeat  timed runs, at least 1
     * @param seed    the seed of the data ({@code seed + d}) and of the releases' noise ({@code seed * 31 + run})
     * @return the results in report order: d, n, epsilon, eigendecompositionMs, fullReleaseMs, perEigenvectorMs,
     *         perEigenvectorOverEigendecomposition, meanProposalsPerVector
     */
    public static Map<String, Object> run(int rows, int d, double epsilon, int repeat, long seed) {
        RandomSource gen = RandomSource.seededForReproducibility(seed + d);
        Matrix x = CorrelatedSphereData.create(d, gen).sample(rows, gen);
        Matrix gram = x.transposeTimes(x);
        gram.symmetrizeInPlace();
        x = null;
        double eig = Double.POSITIVE_INFINITY;
        double release = Double.POSITIVE_INFINITY;
        double proposalsMean = 0;
        for (int r = 0; r <= repeat; r++) {
            long t0 = System.nanoTime();
            SymmetricEigen.of(gram);
            long t1 = System.nanoTime();
            PrivateCovariance c = IterativeEigenvectorSampling.builder()
                    .randomSource(RandomSource.seededForReproducibility(seed * 31 + r)).build()
                    .releaseFromTrustedGram(gram, rows, 1.0, PrivacyParams.pure(epsilon));
            long t2 = System.nanoTime();
            if (r > 0) { // r = 0 is the warm-up
                eig = Math.min(eig, (t1 - t0) / 1e6);
                release = Math.min(release, (t2 - t1) / 1e6);
            }
            proposalsMean = ((Number) c.diagnostics().get("proposalsMean")).doubleValue();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("d", d);
        m.put("n", rows);
        m.put("epsilon", epsilon);
        m.put("eigendecompositionMs", eig);
        m.put("fullReleaseMs", release);
        m.put("perEigenvectorMs", release / d);
        m.put("perEigenvectorOverEigendecomposition", release / d / eig);
        m.put("meanProposalsPerVector", proposalsMean);
        return m;
    }
}
