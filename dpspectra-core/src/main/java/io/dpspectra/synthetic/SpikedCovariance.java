package io.dpspectra.synthetic;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;

/**
 * The spiked covariance model of [DS] Appendix G.1: rows x = V_k diag(a) r + z with V_k a random d × k
 * orthonormal basis, r uniform in {±1}^k and z ~ N(0, σ²I), so that E[xxᵀ] = V_k diag(a²) V_kᵀ + σ²I.
 *
 * <p><b>k = 1</b> (spec stochastic-and-power-methods.md §5.1): v is a standard Gaussian vector
 * normalised to unit length, and x = r·amp·v + z. The amplitude is an {@link Amplitude} option: the
 * default {@link Amplitude#EIGENVALUE_CONSISTENT} uses amp = √λ₁, so E[xxᵀ] = λ₁vvᵀ + σ²I (consistent
 * with k &gt; 1, the learning-rate formula and the C√λ₁ clipping rule); {@link Amplitude#PAPER_G1_LITERAL}
 * uses amp = λ₁ as App. G.1 prints it (E[xxᵀ] = λ₁²vvᵀ + σ²I) and logs a warning;
 * {@link Amplitude#EXAMPLE_1} uses amp = 1 as in [DS] Example 1 (λ₁ then only labels the model).
 *
 * <p><b>k &gt; 1</b> (spec §5.2): V_k is the Gram–Schmidt orthonormalisation of a d × k matrix with
 * i.i.d. N(0, 1) entries, as App. G.1 prescribes (not the standard basis). The paper's samples are the
 * matrices A_i = V_kΛV_kᵀ + z_iz_iᵀ, which are not outer products of rows; a {@code RowSource} must yield
 * rows, so we emit x_i = V_k diag(√λ) r_i + z_i with r_i Rademacher in {±1}^k. Its second moment
 * E[x xᵀ] = V_kΛV_kᵀ + σ²I equals E[A_i] = Σ, so the estimation target, the truth basis and the
 * eigenvalues (λ_j + σ², then σ²) are the paper's; the per-sample fluctuation differs (x_ix_iᵀ has the
 * random cross terms V_k diag(√λ) r_i z_iᵀ that A_i lacks). Rademacher factors keep the signal norm
 * fixed (‖V_k diag(√λ) r‖² = Σλ), like the ±v signal of k = 1, rather than adding Gaussian tails. With
 * k = 1 this is exactly the EIGENVALUE_CONSISTENT rank-one model.
 *
 * <p>The basis and every row are a deterministic function of the seed, through
 * {@link RandomSource#seededForReproducibility(long)} only. Rows are generated on the fly on every pass
 * (O(dk) per row, nothing stored), so n = 10⁶, d = 10³ needs only O(dk) memory; the population second
 * moment in {@link SyntheticDataset} is the one d × d matrix formed.
 *
 * <p>Reference: [DS] = papers/kdp-pca-adaptive-noise.txt, Example 1 and Appendix G.1; spec
 * stochastic-and-power-methods.md §5.1–5.2.
 */
public final class SpikedCovariance {

    /** The k = 1 signal amplitude (spec §5.1). */
    public enum Amplitude {
        /** amp = √λ₁: E[xxᵀ] = λ₁vvᵀ + σ²I. The spec's choice and the default. */
        EIGENVALUE_CONSISTENT,
        /** amp = λ₁ as printed in [DS] App. G.1: E[xxᵀ] = λ₁²vvᵀ + σ²I. Warns when used. */
        PAPER_G1_LITERAL,
        /** amp = 1 as in [DS] Example 1: E[xxᵀ] = vvᵀ + σ²I. */
        EXAMPLE_1
    }

    private static final System.Logger LOG = System.getLogger(SpikedCovariance.class.getName());

    private final int d;
    private final double[] lambdas;
    private final double[] amplitudes;
    private final double sigma;
    private final String name;

    private SpikedCovariance(int d, double[] lambdas, double[] amplitudes, double sigma, String name) {
        this.d = d;
        this.lambdas = lambdas;
        this.amplitudes = amplitudes;
        this.sigma = sigma;
        this.name = name;
    }

    /**
     * k = 1: x = r·√λ₁·v + N(0, σ²I), r uniform in {−1, +1} (spec §5.1, EIGENVALUE_CONSISTENT).
     *
     * @param d       the dimension, ≥ 1
     * @param lambda1 the spike eigenvalue λ₁, &gt; 0
     * @param sigma   the noise standard deviation σ, ≥ 0
     * @return the model (its direction v is drawn by {@link #sample})
     */
    public static SpikedCovariance rankOne(int d, double lambda1, double sigma) {
        return rankOne(d, lambda1, sigma, Amplitude.EIGENVALUE_CONSISTENT);
    }

    /**
     * k = 1 with the given amplitude convention (spec §5.1).
     *
     * @param d         the dimension, ≥ 1
     * @param lambda1   the spike λ₁, &gt; 0
     * @param sigma     the noise standard deviation σ, ≥ 0
     * @param amplitude how λ₁ becomes the signal amplitude; {@code PAPER_G1_LITERAL} logs a warning
     * @return the model (its direction v is drawn by {@link #sample})
     */
    public static SpikedCovariance rankOne(int d, double lambda1, double sigma, Amplitude amplitude) {
        LowRankPlusNoiseRows.checkDimension(d);
        double[] l = LowRankPlusNoiseRows.checkLambdas(new double[] {lambda1}, d);
        LowRankPlusNoiseRows.checkNoise("sigma", sigma);
        if (amplitude == null) {
            throw new IllegalArgumentException("amplitude must be EIGENVALUE_CONSISTENT, PAPER_G1_LITERAL or "
                    + "EXAMPLE_1, got null");
        }
        double amp = switch (amplitude) {
            case EIGENVALUE_CONSISTENT -> Math.sqrt(lambda1);
            case PAPER_G1_LITERAL -> lambda1;
            case EXAMPLE_1 -> 1.0;
        };
        if (amplitude == Amplitude.PAPER_G1_LITERAL) {
            LOG.log(System.Logger.Level.WARNING, "spiked covariance with PAPER_G1_LITERAL amplitude: the signal is "
                    + "lambda1 * v, so the top eigenvalue of E[xx^T] is lambda1^2 + sigma^2 = " + (amp * amp
                    + sigma * sigma) + ", not lambda1 + sigma^2 (spec section 5.1)");
        }
        return new SpikedCovariance(d, l, new double[] {amp}, sigma,
                "spiked covariance (k = 1, d = " + d + ", lambda1 = " + lambda1 + ", sigma = " + sigma + ", "
                        + amplitude + ")");
    }

    /**
     * k &gt; 1 with eigenvalues {@code lambdas} (descending) and noise σ (spec §5.2).
     *
     * @param d       the dimension, ≥ k
     * @param lambdas the k spike eigenvalues, &gt; 0, descending
     * @param sigma   the noise standard deviation σ, ≥ 0
     * @return the model (its basis is drawn by {@link #sample})
     */
    public static SpikedCovariance rankK(int d, double[] lambdas, double sigma) {
        LowRankPlusNoiseRows.checkDimension(d);
        double[] l = LowRankPlusNoiseRows.checkLambdas(lambdas, d);
        LowRankPlusNoiseRows.checkNoise("sigma", sigma);
        double[] amps = new double[l.length];
        for (int j = 0; j < l.length; j++) {
            amps[j] = Math.sqrt(l[j]);
        }
        return new SpikedCovariance(d, l, amps, sigma, "spiked covariance (k = " + l.length + ", d = " + d
                + ", lambdas = " + java.util.Arrays.toString(l) + ", sigma = " + sigma + ")");
    }

    /**
     * The dimension d.
     *
     * @return d
     */
    public int dimension() {
        return d;
    }

    /**
     * The number of spikes k.
     *
     * @return k
     */
    public int components() {
        return lambdas.length;
    }

    /**
     * The top k eigenvalues of E[xxᵀ]: a_j² + σ² (λ_j + σ² unless a k = 1 amplitude mode changes a).
     *
     * @return a new array of k values
     */
    public double[] populationEigenvalues() {
        double[] e = new double[amplitudes.length];
        for (int j = 0; j < e.length; j++) {
            e[j] = amplitudes[j] * amplitudes[j] + sigma * sigma;
        }
        return e;
    }

    /**
     * The noise standard deviation σ.
     *
     * @return σ
     */
    public double sigma() {
        return sigma;
    }

    /**
     * n rows; the basis and every row are a deterministic function of {@code seed}.
     *
     * @param n    the number of rows, ≥ 1
     * @param seed the seed of the basis, the signs and the noise
     * @return the rows (generated on every pass, not stored), the true basis and the population second moment
     */
    public SyntheticDataset sample(long n, long seed) {
        LowRankPlusNoiseRows.checkRows(n);
        RandomSource random = RandomSource.seededForReproducibility(seed);
        Matrix basis = io.dpspectra.noise.RandomSubspace.basis(d, lambdas.length, random);
        long rowSeed = random.nextLong();
        LowRankPlusNoiseRows rows = new LowRankPlusNoiseRows(basis, amplitudes, sigma,
                LowRankPlusNoiseRows.Factor.RADEMACHER, n, rowSeed, name + " n = " + n + ", seed = " + seed);
        return new SyntheticDataset(rows, basis.copy(), LowRankPlusNoiseRows.secondMoment(basis, amplitudes, sigma));
    }
}
