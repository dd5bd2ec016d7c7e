package io.dpspectra.synthetic;

/**
 * Gaussian rows x ~ N(0, V diag(λ) Vᵀ + s₀² I) ([DS] App. G.2, spec §5.3).
 *
 * <p>TODO(skeleton): implemented in the data/metrics work package; the API below is fixed.
 */
public final class GaussianData {
    private GaussianData() {
    }

    public static GaussianData of(int d, double[] lambdas, double s0) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }

    /** n rows; the basis and every row are a deterministic function of {@code seed}. */
    public SyntheticDataset sample(long n, long seed) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }
}
