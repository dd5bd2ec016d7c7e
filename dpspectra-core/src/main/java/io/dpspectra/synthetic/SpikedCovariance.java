package io.dpspectra.synthetic;

/**
 * The spiked covariance model of [DS] Appendix G.1 (spec stochastic-and-power-methods.md §5.1–5.2).
 *
 * <p>TODO(skeleton): implemented in the data/metrics work package; the API below is fixed.
 */
public final class SpikedCovariance {
    private SpikedCovariance() {
    }

    /** k = 1: x = r·√λ₁·v + N(0, σ²I), r uniform in {−1, +1} (spec §5.1, EIGENVALUE_CONSISTENT). */
    public static SpikedCovariance rankOne(int d, double lambda1, double sigma) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }

    /** k &gt; 1 with eigenvalues {@code lambdas} (descending) and noise σ (spec §5.2). */
    public static SpikedCovariance rankK(int d, double[] lambdas, double sigma) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }

    /** n rows; the basis and every row are a deterministic function of {@code seed}. */
    public SyntheticDataset sample(long n, long seed) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }
}
