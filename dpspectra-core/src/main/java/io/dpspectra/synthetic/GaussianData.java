package io.dpspectra.synthetic;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;

/**
 * Gaussian rows x ~ N(0, V diag(λ) Vᵀ + s₀² I) ([DS] App. G.2, spec §5.3).
 *
 * <p>[DS] App. G.2 samples A_i = x_ix_iᵀ with x_i ~ N(0, Σ) and leaves Σ open; the spec's choice is
 * Σ = V_k diag(λ) V_kᵀ + s₀²I with V_k a random orthonormal basis (Gram–Schmidt of an i.i.d. N(0, 1)
 * d × k matrix), sampled as x = V_k(√λ ⊙ g) + s₀·n with g ~ N(0, I_k), n ~ N(0, I_d): O(dk) per row, no
 * Cholesky. The top-k eigenvalues of Σ are λ_j + s₀² and the truth basis is V_k. The spec's default
 * s₀ is 1.
 *
 * <p>The basis and every row are a deterministic function of the seed (through
 * {@link RandomSource#seededForReproducibility(long)}); rows are generated on every pass, not stored.
 *
 * <p>Reference: [DS] = papers/kdp-pca-adaptive-noise.txt App. G.2; spec stochastic-and-power-methods.md
 * §5.3.
 */
public final class GaussianData {
    private final int d;
    private final double[] lambdas;
    private final double[] amplitudes;
    private final double s0;

    private GaussianData(int d, double[] lambdas, double s0) {
        this.d = d;
        this.lambdas = lambdas;
        this.s0 = s0;
        this.amplitudes = new double[lambdas.length];
        for (int j = 0; j < lambdas.length; j++) {
            amplitudes[j] = Math.sqrt(lambdas[j]);
        }
    }

    /**
     * The Gaussian model with k spikes {@code lambdas} over isotropic noise of standard deviation s₀.
     *
     * @param d       dimension, ≥ 1
     * @param lambdas k ≥ 1 spike eigenvalues, &gt; 0, descending
     * @param s0      isotropic standard deviation, ≥ 0 (spec default 1)
     * @return the generator (its basis is drawn by {@link #sample})
     */
    public static GaussianData of(int d, double[] lambdas, double s0) {
        LowRankPlusNoiseRows.checkDimension(d);
        double[] l = LowRankPlusNoiseRows.checkLambdas(lambdas, d);
        LowRankPlusNoiseRows.checkNoise("s0", s0);
        return new GaussianData(d, l, s0);
    }

    /**
     * The top k eigenvalues of Σ: λ_j + s₀².
     *
     * @return a new array of k values, descending
     */
    public double[] populationEigenvalues() {
        double[] e = new double[lambdas.length];
        for (int j = 0; j < e.length; j++) {
            e[j] = lambdas[j] + s0 * s0;
        }
        return e;
    }

    /**
     * n rows; the basis and every row are a deterministic function of {@code seed}.
     *
     * @param n    the number of rows, ≥ 1
     * @param seed the seed of the basis and of every row
     * @return the rows (generated on every pass, not stored), the true basis and the population second moment
     */
    public SyntheticDataset sample(long n, long seed) {
        LowRankPlusNoiseRows.checkRows(n);
        RandomSource random = RandomSource.seededForReproducibility(seed);
        Matrix basis = io.dpspectra.noise.RandomSubspace.basis(d, lambdas.length, random);
        long rowSeed = random.nextLong();
        LowRankPlusNoiseRows rows = new LowRankPlusNoiseRows(basis, amplitudes, s0,
                LowRankPlusNoiseRows.Factor.GAUSSIAN, n, rowSeed, "Gaussian data (d = " + d + ", lambdas = "
                        + java.util.Arrays.toString(lambdas) + ", s0 = " + s0 + ", n = " + n + ", seed = " + seed + ")");
        return new SyntheticDataset(rows, basis.copy(), LowRankPlusNoiseRows.secondMoment(basis, amplitudes, s0));
    }
}
