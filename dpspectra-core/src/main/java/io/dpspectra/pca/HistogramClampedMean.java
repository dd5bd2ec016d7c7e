package io.dpspectra.pca;

import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.noise.StableHistogram;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Private mean estimation for light-tailed vectors, the k-DP-PCA paper's "PrivMean" ([DS] Alg. 7): per
 * coordinate, a stable histogram locates a centre, every value is clamped to centre ± r, and Gaussian noise
 * is added to the mean of the clamped vectors. It needs no bound on the vectors, only their tail constants;
 * {@link io.dpspectra.data.PrivateBoundedMean}, the private centre of bounded rows, is a different mechanism.
 *
 * <p>Privacy: (ε, δ)-DP; the unit is one input vector g_j (one sample A_i), neighbouring = replace one with
 * N public (spec §0.1; the clamp interval is not centred at 0, so add/remove would need another
 * calibration). The d coordinate histograms each get (ε_h, δ_h) = (ε/(4√(2d ln(4/δ))), δ/(4d)), jointly
 * (ε/2, δ/2) by advanced composition ([DS] Lemma 16, needs ε/2 ≤ 0.9, enforced). After clamping, one
 * replaced vector moves the mean by at most 2r√d/N in L2; the Gaussian noise is calibrated to that at
 * (ε/2, δ/2): σ_M = (2r√d/N)·√(2 ln(2.5/δ))/(ε/2) = Alg. 7 line 6 (the classic calibration; ε/2 &lt; 1 holds).
 * Total (ε, δ) by basic composition. A coordinate whose histogram releases nothing uses centre 0
 * (data-independent, still private) and is counted as a fallback.
 *
 * <p>Constants (spec §2.4, §8 #11–#13): υ = 2^{1/4}·K·√L̂·(ln 25)^a, r = 3K√L̂·(ln(N d/τ))^a, bins
 * (qυ, (q+1)υ], centre = lower edge of the noisy-argmax bin.
 *
 * <p>Reference: papers/kdp-pca-adaptive-noise.txt Alg. 7 and Lemma 16; spec stochastic-and-power-methods.md
 * §2.4, §0.3, §8 #11–#14, #26.
 *
 * <p>Cost: O(N·d) time (hash-free sorted-bin histograms), O(N) extra memory per coordinate.
 */
public final class HistogramClampedMean {
    private final double tailK;
    private final double tailA;
    private final Neighbouring relation;
    /** Test hook: multiplies σ_M (1 in every public configuration). */
    private final double noiseMultiplier;

    private HistogramClampedMean(double tailK, double tailA, Neighbouring relation, double noiseMultiplier) {
        this.tailK = tailK;
        this.tailA = tailA;
        this.relation = relation;
        this.noiseMultiplier = noiseMultiplier;
    }

    /**
     * K = 1, a = 1 (App. G.1, spec §8 #27), replace-one.
     *
     * @return the estimator
     */
    public static HistogramClampedMean defaults() {
        return of(1, 1, Neighbouring.REPLACE_ROW);
    }

    /**
     * Tail constants K, a of [DS] Assumption A.4 (public) and the histogram relation (ADD_REMOVE_ROW only
     * for the paper-literal mode: it is not a valid calibration here, see the class comment).
     *
     * @param tailK    K
     * @param tailA    a
     * @param relation the histogram relation
     * @return the estimator
     */
    public static HistogramClampedMean of(double tailK, double tailA, Neighbouring relation) {
        return new HistogramClampedMean(DpPreconditions.checkPositive("K", tailK), DpPreconditions.checkPositive("a", tailA),
                java.util.Objects.requireNonNull(relation, "relation"), 1.0);
    }

    /** Scales σ_M: package-private, for the auditor's broken twin in tests only. */
    HistogramClampedMean withNoiseMultiplierForAuditTests(double m) {
        return new HistogramClampedMean(tailK, tailA, relation, DpPreconditions.checkPositive("noiseMultiplier", m));
    }

    /** The estimate and how many coordinates fell back to centre 0. */
    public record Estimate(double[] mean, int fallbacks) {
    }

    /**
     * υ, the histogram bin width.
     *
     * @param lHat L̂, &gt; 0
     * @return υ
     */
    public double binWidth(double lHat) {
        return Math.pow(2, 0.25) * tailK * Math.sqrt(lHat) * Math.pow(Math.log(25), tailA);
    }

    /**
     * r, the clamp half-width, for N vectors in R^d.
     *
     * @param lHat L̂, &gt; 0
     * @param n    N, the number of vectors
     * @param d    the dimension
     * @param tau  τ
     * @return r
     */
    public double clampRadius(double lHat, int n, int d, double tau) {
        return 3 * tailK * Math.sqrt(lHat) * Math.pow(Math.log((double) n * d / tau), tailA);
    }

    /**
     * The per-coordinate histogram budget (ε/(4√(2d ln(4/δ))), δ/(4d)).
     *
     * @param params the (ε, δ) of the mean
     * @param d      the dimension
     * @return the budget of each coordinate histogram
     */
    public static PrivacyParams histogramBudget(PrivacyParams params, int d) {
        double eps = params.epsilon() / (4 * Math.sqrt(2 * d * Math.log(4 / params.delta())));
        return PrivacyParams.of(eps, params.delta() / (4.0 * d));
    }

    /**
     * σ_M for N vectors: the L2 sensitivity 2r√d/N at (ε/2, δ/2), classic calibration (Alg. 7 line 6).
     *
     * @param lHat   L̂, &gt; 0
     * @param n      N, the number of vectors
     * @param d      the dimension
     * @param tau    τ
     * @param params the (ε, δ) of the mean
     * @return σ_M
     */
    public double sigma(double lHat, int n, int d, double tau, PrivacyParams params) {
        double sens = 2 * clampRadius(lHat, n, d, tau) * Math.sqrt(d) / n;
        PrivacyParams half = PrivacyParams.of(params.epsilon() / 2, params.delta() / 2);
        return noiseMultiplier * GaussianNoise.classicSigmaFor(sens, half);
    }

    /**
     * The private mean of the first {@code count} vectors of g. Not modified: g.
     *
     * @param lHat a range estimate L̂ &gt; 0 (from {@link PrivRange} or a public value)
     * @param tau  failure probability τ ∈ (0, 1)
     * @param g    the vectors, each of length d
     * @param count N, the number of vectors used
     * @param params the (ε, δ) of the mean
     * @param random the randomness of the noise
     * @return the estimate and its diagnostics
     */
    public Estimate estimate(double[][] g, int count, double lHat, PrivacyParams params, double tau,
                             RandomSource random) {
        DpPreconditions.checkPositive("lHat", lHat);
        DpPreconditions.checkPositiveDelta(params.delta(), "PrivMean");
        if (params.epsilon() / 2 > 0.9) {
            throw new IllegalArgumentException("PrivMean needs epsilon <= 1.8 (advanced composition of the d "
                    + "histograms at epsilon/2 requires epsilon/2 <= 0.9, [DS] Lemma 16), got " + params.epsilon()
                    + "; split the budget or use a smaller epsilon");
        }
        if (!(tau > 0 && tau < 1)) {
            throw new IllegalArgumentException("tau must be in (0, 1), got " + tau);
        }
        if (count < 1) {
            throw new IllegalArgumentException("PrivMean needs at least one vector, got " + count);
        }
        int d = g[0].length;
        double ups = binWidth(lHat);
        double r = clampRadius(lHat, count, d, tau);
        PrivacyParams hist = histogramBudget(params, d);
        StableHistogram histogram = new StableHistogram(random);
        double[] sum = new double[d];
        long[] bins = new long[count];
        int fallbacks = 0;
        for (int c = 0; c < d; c++) {
            for (int j = 0; j < count; j++) {
                double x = g[j][c];
                if (!Double.isFinite(x)) {
                    throw new IllegalArgumentException("PrivMean input " + j + " has a non-finite coordinate " + c);
                }
                bins[j] = (long) Math.ceil(x / ups) - 1;
            }
            TreeMap<Long, Double> released = histogram.release(bins, hist, relation);
            OptionalLong best = StableHistogram.argmax(released);
            double centre;
            if (best.isPresent()) {
                centre = ups * best.getAsLong();
            } else {
                centre = 0;
                fallbacks++;
            }
            double s = 0;
            for (int j = 0; j < count; j++) {
                s += Math.min(centre + r, Math.max(centre - r, g[j][c]));
            }
            sum[c] = s / count;
        }
        double sigma = sigma(lHat, count, d, tau, params);
        GaussianNoise noise = new GaussianNoise(random);
        for (int c = 0; c < d; c++) {
            sum[c] = noise.addNoise(sum[c], sigma);
        }
        return new Estimate(sum, fallbacks);
    }
}
