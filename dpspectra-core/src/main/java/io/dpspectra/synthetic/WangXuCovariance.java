package io.dpspectra.synthetic;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.noise.RandomSubspace;
import java.util.Arrays;

/**
 * The synthetic data of Wang &amp; Xu's local-DP PCA experiments: rows x ~ N(0, Σ) with
 * Σ = λ/(5p(λ+1))·VVᵀ + 1/(5p(λ+1))·I_p (their equation (7)), V ∈ V_{p,k}; λ is the signal strength
 * (1 in all their experiments). Dense ({@link #dense}): V is a random orthonormal p × k basis.
 * Sparse ({@link #sparse}): a random orthonormal s × k block padded with p − s zero rows and row-permuted,
 * so the top-k subspace has row support of size s (their §6.2).
 *
 * <p>Scale: the top k eigenvalues of Σ are 1/(5p) and the others 1/(5p(λ+1)); E‖x‖² = (λk + p)/(5p(λ+1)),
 * about 0.1–0.2 at their settings, so ‖x‖ ≤ 1 holds with high probability as
 * the paper says (clipping on the client enforces it). The eigengap 1/(10p) at λ = 1 is tiny: see the
 * reproduction report for what that means for the private estimates.
 *
 * <p>Rows are generated on every pass from the seed (O(pk) per row, nothing stored).
 *
 * <p>Reference: papers/local-dp-pca.txt §6.1 (low-dimensional synthetic data), §6.2 (sparse), eq. (7).
 */
public final class WangXuCovariance {
    private WangXuCovariance() {
    }

    /**
     * n rows in dimension p with a dense random k-dimensional principal subspace.
     *
     * @param n              the number of rows, ≥ 1
     * @param p              the dimension, ≥ k
     * @param k              the subspace dimension, ≥ 1
     * @param signalStrength λ, &gt; 0 (1 in the paper)
     * @param seed           the seed of V and of every row
     * @return the rows (generated on every pass, not stored), V and Σ
     */
    public static SyntheticDataset dense(long n, int p, int k, double signalStrength, long seed) {
        check(p, k, k, signalStrength);
        RandomSource random = RandomSource.seededForReproducibility(seed);
        return dataset(RandomSubspace.basis(p, k, random), n, signalStrength, random, "dense");
    }

    /**
     * n rows in dimension p whose principal k-subspace has row support of size s (k ≤ s ≤ p).
     *
     * @param n              the number of rows, ≥ 1
     * @param p              the dimension, ≥ s
     * @param k              the subspace dimension, ≥ 1
     * @param s              the support size, k ≤ s ≤ p
     * @param signalStrength λ, &gt; 0 (1 in the paper)
     * @param seed           the seed of V, its support and every row
     * @return the rows (generated on every pass, not stored), V and Σ
     */
    public static SyntheticDataset sparse(long n, int p, int k, int s, double signalStrength, long seed) {
        check(p, k, s, signalStrength);
        RandomSource random = RandomSource.seededForReproducibility(seed);
        Matrix block = RandomSubspace.basis(s, k, random);
        int[] rows = new int[p];
        Arrays.setAll(rows, i -> i);
        for (int i = p - 1; i > 0; i--) { // Fisher-Yates: which rows of V the block lands in
            int j = random.nextInt(i + 1);
            int t = rows[i];
            rows[i] = rows[j];
            rows[j] = t;
        }
        Matrix basis = new Matrix(p, k);
        for (int i = 0; i < s; i++) {
            for (int l = 0; l < k; l++) {
                basis.set(rows[i], l, block.get(i, l));
            }
        }
        return dataset(basis, n, signalStrength, random, "sparse (s = " + s + ")");
    }

    /**
     * The row indices where {@code basis} is non-zero: the support of a {@link #sparse} basis.
     *
     * @param basis a p × k matrix
     * @return the ascending indices of the rows with a non-zero entry
     */
    public static int[] support(Matrix basis) {
        return java.util.stream.IntStream.range(0, basis.rows())
                .filter(i -> java.util.stream.IntStream.range(0, basis.cols()).anyMatch(l -> basis.get(i, l) != 0))
                .toArray();
    }

    private static SyntheticDataset dataset(Matrix basis, long n, double lambda, RandomSource random, String kind) {
        LowRankPlusNoiseRows.checkRows(n);
        int p = basis.rows();
        double scale = 1.0 / (5.0 * p * (lambda + 1));
        double[] amplitudes = new double[basis.cols()];
        Arrays.fill(amplitudes, Math.sqrt(lambda * scale));
        double sigma = Math.sqrt(scale);
        LowRankPlusNoiseRows rows = new LowRankPlusNoiseRows(basis, amplitudes, sigma,
                LowRankPlusNoiseRows.Factor.GAUSSIAN, n, random.nextLong(), "Wang-Xu " + kind + " data (p = " + p
                        + ", k = " + basis.cols() + ", signal strength " + lambda + ", n = " + n + ")");
        return new SyntheticDataset(rows, basis.copy(), LowRankPlusNoiseRows.secondMoment(basis, amplitudes, sigma));
    }

    private static void check(int p, int k, int s, double lambda) {
        LowRankPlusNoiseRows.checkDimension(p);
        if (k < 1 || k > s || s > p) {
            throw new IllegalArgumentException("need 1 <= k <= s <= p, got k = " + k + ", s = " + s + ", p = " + p);
        }
        if (!(lambda > 0) || !Double.isFinite(lambda)) {
            throw new IllegalArgumentException("signal strength must be > 0 and finite, got " + lambda);
        }
    }
}
