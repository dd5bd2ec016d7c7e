package io.dpspectra.noise;

import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.PrivacyParams;

/**
 * Adds floating-point-safe Gaussian noise of standard deviation σ: the value is rounded to the
 * power-of-two granularity g = {@link #granularity(double) g(σ)} and an exact discrete Gaussian sample
 * on gℤ with parameter ⌈σ/g⌉·g ≥ σ is added.
 *
 * <p>Privacy: for a function with L2 sensitivity Δ over m released coordinates, noise with
 * σ = {@link #sigmaFor(double, PrivacyParams, long) sigmaFor(Δ, (ε, δ), m)} gives (ε, δ)-DP for the
 * neighbouring relation under which Δ was derived. σ is the analytic-Gaussian calibration (Balle &amp;
 * Wang 2018, Theorem 8 / Algorithm 1) for the inflated sensitivity Δ + √m·g: rounding each coordinate
 * to gℤ moves it by at most g/2, so neighbours' rounded vectors differ by at most Δ + √m·g in L2.
 * The relative increase of σ is about √m·g/Δ ≤ √m·2^−43·σ/Δ. {@link #sigmaFor(double, PrivacyParams)}
 * accounts for up to {@value #DEFAULT_COORDINATES} coordinates (σ grows by ≤ 1.2e−7·σ/Δ relative).
 *
 * <p>Exactness: rounding and the output addition are exact or correctly rounded (see
 * {@code Granularity}); the discrete Gaussian sample is exact (Canonne–Kamath–Steinke Algorithm 3; every
 * acceptance decision equals [U &lt; exp(−γ)] exactly, floating point only picks the fast path).
 * Approximations, all on the safe side or negligible:
 * (1) the lattice parameter σ/g is rounded UP to an integer (relative change ≤ 2^−43);
 * (2) the (ε, δ) of the discrete Gaussian is taken to be that of the continuous Gaussian with the
 * same parameter (Balle–Wang's formula). Canonne et al. (2020, Theorem 7) give the exact scalar δ with
 * discrete-Gaussian tails in place of Φ, and bound products of m coordinates (their §4); with
 * σ/g ≥ 2^43 lattice steps the discrete and continuous tails differ only by lattice effects of relative
 * order g/σ ≈ 1e−13, which this class does NOT add to δ; (3) the calibration solves the
 * analytic condition numerically with erfc accurate to about 1e−15 relative and returns the upper
 * bisection end, whose δ(σ) as computed is ≤ δ. Lattice samples of magnitude ≥ 2^53 (beyond 2^9·σ)
 * are redrawn.
 *
 * <p>Reference: B. Balle, Y.-X. Wang, "Improving the Gaussian Mechanism for Differential Privacy:
 * Analytical Calibration and Optimal Denoising", ICML 2018, Theorem 8 and Algorithm 1; C. Canonne,
 * G. Kamath, T. Steinke, "The Discrete Gaussian for Differential Privacy", NeurIPS 2020, Algorithm 3;
 * I. Mironov, CCS 2012 (why the rounding).
 *
 * <p>Cost: O(1) expected per coordinate, BigInteger only on exact fallback paths (probability below
 * 1e−9 per sample). One value ({@link #addNoise}): Canonne–Kamath–Steinke with a Laplace proposal,
 * about 4 random longs and 1.3 logarithms, ≈ 100 ns seeded. Arrays of more than 16,384 values
 * ({@link #addNoiseInPlace}, {@link #prepare}): the same law from a table built for the scale
 * ({@code BinnedDiscreteGaussian}, about 1.5 ms, reused while the scale stays the same), about 3 random
 * longs and no logarithm per value, ≈ 30 ns seeded on one core, drawn on all cores (see
 * {@code LatticeNoise}).
 * {@code sigmaFor} is a bisection of about 100 erfc evaluations.
 */
public final class GaussianNoise extends LatticeNoise {
    /** Number of coordinates whose rounding {@link #sigmaFor(double, PrivacyParams)} accounts for: 2^40. */
    public static final long DEFAULT_COORDINATES = 1L << 40;

    private static final double SQRT2 = Math.sqrt(2);

    /** The table of the last bulk draw: calls with the same scale (the same σ/g) reuse it. */
    private BinnedDiscreteGaussian lastTable;

    /**
     * Gaussian noise drawn from {@code random} (the secure source for a private release; a seeded one only for
     * experiments and tests).
     *
     * @param random the randomness of every draw
     */
    public GaussianNoise(RandomSource random) {
        super(random);
    }

    /**
     * The σ to pass to {@link #addNoise}: (ε, δ)-DP for L2 sensitivity Δ, by the analytic calibration
     * of Balle &amp; Wang (2018), valid for every ε &gt; 0, with the rounding of up to
     * {@value #DEFAULT_COORDINATES} coordinates accounted for.
     *
     * @param l2Sensitivity Δ, the L2 sensitivity of the released vector, &gt; 0
     * @param params        the (ε, δ) to spend, δ &gt; 0
     * @return σ, &gt; 0
     */
    public static double sigmaFor(double l2Sensitivity, PrivacyParams params) {
        return sigmaFor(l2Sensitivity, params, DEFAULT_COORDINATES);
    }

    /**
     * The σ to pass to {@link #addNoise} when m = {@code coordinates} noisy numbers are released
     * together: the analytic σ for sensitivity Δ + √m·g(σ) (a fixed point, since g depends on σ).
     *
     * @param l2Sensitivity Δ, the L2 sensitivity of the released vector, &gt; 0
     * @param params        the (ε, δ) to spend, δ &gt; 0
     * @param coordinates   m, the number of noisy numbers released together, ≥ 1
     * @return σ, &gt; 0
     */
    public static double sigmaFor(double l2Sensitivity, PrivacyParams params, long coordinates) {
        DpPreconditions.checkSensitivity("the L2 sensitivity", l2Sensitivity);
        DpPreconditions.checkPositiveDelta(params.delta(), "the Gaussian mechanism");
        LaplaceNoise.checkCoordinates(coordinates);
        return withRounding(l2Sensitivity, coordinates,
                delta -> analyticSigma(delta, params.epsilon(), params.delta()));
    }

    /**
     * The zCDP cost ρ of a release made only of Gaussian mechanisms that is (ε, δ)-DP in total: ρ = Δ²/(2σ*²)
     * with σ* the analytic σ for (ε, δ) ({@link #analyticSigma}, Δ = 1), an upper bound on the true ρ. Why it
     * holds: a Gaussian mechanism is (ε, δ)-DP exactly when σ/Δ ≥ σ* (Balle &amp; Wang 2018, Theorem 8: δ(σ)
     * decreases in σ), and a Gaussian mechanism is Δ²/(2σ²)-zCDP (Bun &amp; Steinke 2016, Prop. 1.6); an
     * adaptive composition of Gaussian mechanisms is itself exactly one Gaussian mechanism with
     * (Δ/σ)² = Σ(Δ_i/σ_i)² (Dong, Roth &amp; Su, "Gaussian Differential Privacy", JRSS-B 2022, Corollary 3.3),
     * so the same bound covers it. Rounded up by a relative 1e-12 against the bisection's tolerance. Not for
     * subsampled Gaussian mechanisms or releases that also use other noise.
     *
     * @param params the (ε, δ) of the whole release, δ &gt; 0
     * @return ρ, &gt; 0
     */
    public static double zcdpRho(PrivacyParams params) {
        DpPreconditions.checkPositiveDelta(params.delta(), "the Gaussian mechanism");
        double sigma = analyticSigma(1.0, params.epsilon(), params.delta());
        return 1 / (2 * sigma * sigma) * (1 + 1e-12);
    }

    /**
     * The classic calibration σ = √(2 ln(1.25/δ))·Δ/ε (Dwork &amp; Roth 2014, Theorem A.1), valid only
     * for ε &lt; 1 and never smaller than {@link #sigmaFor}; kept for comparison with papers that use
     * it. The rounding of up to {@value #DEFAULT_COORDINATES} coordinates is accounted for as in
     * {@link #sigmaFor}.
     *
     * @param l2Sensitivity Δ, the L2 sensitivity of the released vector, &gt; 0
     * @param params        the (ε, δ) to spend, ε &lt; 1, δ &gt; 0
     * @return σ, &gt; 0
     */
    public static double classicSigmaFor(double l2Sensitivity, PrivacyParams params) {
        DpPreconditions.checkSensitivity("the L2 sensitivity", l2Sensitivity);
        DpPreconditions.checkPositiveDelta(params.delta(), "the Gaussian mechanism");
        if (params.epsilon() >= 1) {
            throw new IllegalArgumentException("the classic Gaussian calibration needs epsilon < 1, got "
                    + params.epsilon() + "; use GaussianNoise.sigmaFor (analytic, any epsilon)");
        }
        double c = Math.sqrt(2 * Math.log(1.25 / params.delta())) / params.epsilon();
        return withRounding(l2Sensitivity, DEFAULT_COORDINATES, delta -> c * delta);
    }

    private static double withRounding(double l2Sensitivity, long coordinates,
                                       java.util.function.DoubleUnaryOperator sigmaOfSensitivity) {
        double rootM = Math.sqrt((double) coordinates);
        double sigma = sigmaOfSensitivity.applyAsDouble(l2Sensitivity);
        for (int i = 0; i < 64; i++) {
            double g = Granularity.of(sigma);
            // √m·g rounded up by two ulps, so the inflated sensitivity is never understated
            double inflated = l2Sensitivity + Math.nextUp(Math.nextUp(rootM * g));
            double next = sigmaOfSensitivity.applyAsDouble(Math.nextUp(inflated));
            if (next <= sigma) {
                return sigma;
            }
            sigma = next;
            if (Granularity.of(sigma) == g) {
                return sigma;
            }
        }
        throw new IllegalStateException("Gaussian sigma calibration did not converge for l2Sensitivity="
                + l2Sensitivity + ", coordinates=" + coordinates);
    }

    /**
     * The smallest σ (to about 1e−15 relative, rounded up) with {@link #deltaFor}(σ, Δ, ε) ≤ δ: the
     * analytic Gaussian calibration of Balle &amp; Wang (2018, Algorithm 1), here solved by bisection on
     * log σ of the exact condition. Rounding to the granularity is NOT included; use
     * {@link #sigmaFor} for the σ to pass to {@link #addNoise}.
     *
     * @param l2Sensitivity Δ, &gt; 0
     * @param epsilon       ε, &gt; 0
     * @param delta         δ, in (0, 1)
     * @return σ, &gt; 0
     */
    public static double analyticSigma(double l2Sensitivity, double epsilon, double delta) {
        DpPreconditions.checkSensitivity("the L2 sensitivity", l2Sensitivity);
        DpPreconditions.checkEpsilon(epsilon);
        DpPreconditions.checkPositiveDelta(delta, "the Gaussian mechanism");
        // δ(σ) decreases from 1 (σ → 0) to 0 (σ → ∞): bracket, then bisect.
        double hi = l2Sensitivity;
        while (deltaFor(hi, l2Sensitivity, epsilon) > delta) {
            hi *= 2;
        }
        double lo = hi / 2;
        while (deltaFor(lo, l2Sensitivity, epsilon) <= delta) {
            hi = lo;
            lo /= 2;
        }
        for (int i = 0; i < 200 && Math.nextUp(lo) < hi; i++) {
            double mid = lo + (hi - lo) / 2;
            if (mid <= lo || mid >= hi) {
                break;
            }
            if (deltaFor(mid, l2Sensitivity, epsilon) <= delta) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * The smallest δ for which the Gaussian mechanism with standard deviation σ and L2 sensitivity Δ
     * is (ε, δ)-DP (Balle &amp; Wang 2018, Theorem 8):
     * δ = Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ).
     *
     * <p>Evaluated without overflow or cancellation of the e^ε factor, via
     * e^ε·Φ(−a) = erfcx(a/√2)·exp(−b²/2)/2 where a = Δ/(2σ) + εσ/Δ, b = Δ/(2σ) − εσ/Δ and
     * a² − b² = 2ε.
     *
     * @param sigma         σ, &gt; 0
     * @param l2Sensitivity Δ, &gt; 0
     * @param epsilon       ε, ≥ 0
     * @return δ, in [0, 1]
     */
    public static double deltaFor(double sigma, double l2Sensitivity, double epsilon) {
        DpPreconditions.checkPositive("sigma", sigma);
        DpPreconditions.checkSensitivity("the L2 sensitivity", l2Sensitivity);
        if (!(epsilon >= 0) || !Double.isFinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be >= 0 and finite, got " + epsilon);
        }
        double a = l2Sensitivity / (2 * sigma) + epsilon * sigma / l2Sensitivity;
        double b = l2Sensitivity / (2 * sigma) - epsilon * sigma / l2Sensitivity;
        double tail = 0.5 * ErrorFunction.erfcx(a / SQRT2); // e^ε Φ(−a) = tail · exp(−b²/2)
        double delta;
        if (b >= 0) {
            delta = (1 - 0.5 * ErrorFunction.erfc(b / SQRT2)) - tail * Math.exp(-b * b / 2);
        } else {
            delta = Math.exp(-b * b / 2) * (0.5 * ErrorFunction.erfcx(-b / SQRT2) - tail);
        }
        return Math.max(0, delta);
    }

    /**
     * The granularity g(σ): the smallest power of two ≥ σ·2^−44. Outputs are multiples of it.
     *
     * @param sigma σ, &gt; 0
     * @return g(σ), a power of two
     */
    public static double granularity(double sigma) {
        return Granularity.of(sigma);
    }

    @Override
    Lattice lattice(double scale) {
        double g = Granularity.of(scale);
        long latticeSigma = latticeSigma(scale, g);
        return new Lattice(g, random -> DiscreteSamplers.discreteGaussian(random, latticeSigma));
    }

    /** σ/g rounded up: an integer in (2^43, 2^44], exact. */
    private static long latticeSigma(double scale, double g) {
        return (long) Math.ceil(scale / g);
    }

    /**
     * The same law as {@link #lattice} (the discrete Gaussian with parameter ⌈σ/g⌉ on |k| &lt; 2^53) from a
     * table built for this σ ({@link BinnedDiscreteGaussian}, about 1.5 ms; kept for the next call with
     * the same σ): about 3 random words and no logarithm per value instead of 4 words and 1.3 logarithms.
     */
    @Override
    Lattice bulkLattice(double scale) {
        double g = Granularity.of(scale);
        long sigma = latticeSigma(scale, g);
        BinnedDiscreteGaussian table = lastTable;
        if (table == null || table.sigma() != sigma) {
            table = new BinnedDiscreteGaussian(sigma);
            lastTable = table; // immutable, so a racing reader sees a whole table or rebuilds one
        }
        return new Lattice(g, table::sample);
    }
}
