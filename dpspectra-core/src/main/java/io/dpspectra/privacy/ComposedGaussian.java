package io.dpspectra.privacy;

/**
 * Noise calibration for T adaptive Gaussian releases that together must be (ε, δ)-DP: full-batch steps
 * through zero-concentrated DP, and Poisson-subsampled steps (DP-SGD style) through Rényi DP.
 *
 * <p>zCDP (Bun &amp; Steinke 2016, Props. 1.3, 1.6 and Lemma 2.3): a Gaussian release of L2 sensitivity Δ
 * with noise σ is Δ²/(2σ²)-zCDP; T of them compose to ρ = TΔ²/(2σ²), which is (ρ + 2√(ρ ln(1/δ)), δ)-DP.
 * {@link #zcdpRho} is the largest ρ whose conversion meets (ε, δ): ρ = (√(ε + L) − √L)², L = ln(1/δ).
 *
 * <p>RDP of the sampled Gaussian mechanism (Mironov, Talwar &amp; Zhang 2019, §3.3, integer orders): with
 * Poisson sampling at rate q and noise multiplier z (noise std ÷ the L2 sensitivity of the batch SUM under
 * add/remove-one), A_α = Σ_{k=0..α} C(α,k)(1 − q)^{α−k} q^k exp((k² − k)/(2z²)), ε_RDP(α) = ln A_α/(α − 1);
 * T steps compose additively and convert to ε(δ) = min_α T·ε_RDP(α) + ln(1/δ)/(α − 1) (Mironov 2017,
 * Prop. 3), orders α = 2..256. Under replace-one neighbouring a replacement is a removal and an addition, so
 * the add/remove target is (ε/2, δ/(1 + e^{ε/2})) (group privacy of size 2, conservative).
 *
 * <p>Cost: {@link #poissonNoiseMultiplier} is a bisection of about 60 evaluations of 255 orders, each a sum of
 * at most 257 terms: a few milliseconds.
 */
public final class ComposedGaussian {
    private static final int MAX_ORDER = 256;
    private static final double MAX_MULTIPLIER = 200;

    private ComposedGaussian() {
    }

    /**
     * ρ = (√(ε + ln(1/δ)) − √ln(1/δ))², the largest total zCDP meeting (ε, δ) (δ must be &gt; 0).
     *
     * @param target the (ε, δ) the composition must meet, δ &gt; 0
     * @return ρ, &gt; 0
     */
    public static double zcdpRho(PrivacyParams target) {
        DpPreconditions.checkPositiveDelta(target.delta(), "zCDP composition of Gaussian releases");
        double l = Math.log(1 / target.delta());
        double root = Math.sqrt(target.epsilon() + l) - Math.sqrt(l);
        return root * root;
    }

    /**
     * ε = ρ + 2√(ρ ln(1/δ)): ρ-zCDP implies (ε, δ)-DP for every δ &gt; 0 (Bun &amp; Steinke 2016, Prop. 1.3).
     * Zero for ρ = 0.
     *
     * @param rho   ρ, finite and ≥ 0
     * @param delta δ, in (0, 1)
     * @return ε, ≥ 0
     */
    public static double zcdpEpsilon(double rho, double delta) {
        if (!(rho >= 0 && Double.isFinite(rho))) {
            throw new IllegalArgumentException("rho must be finite and >= 0, got " + rho);
        }
        DpPreconditions.checkPositiveDelta(delta, "the conversion of zCDP to (epsilon, delta)");
        return rho + 2 * Math.sqrt(rho * Math.log(1 / delta));
    }

    /**
     * σ = Δ·√(T/(2ρ)) for T Gaussian releases of L2 sensitivity Δ that together meet (ε, δ) through zCDP.
     *
     * @param l2Sensitivity Δ, &gt; 0
     * @param releases      T, ≥ 1
     * @param target        the (ε, δ) of all T releases together, δ &gt; 0
     * @return σ, &gt; 0
     */
    public static double zcdpSigma(double l2Sensitivity, int releases, PrivacyParams target) {
        DpPreconditions.checkSensitivity("the L2 sensitivity", l2Sensitivity);
        DpPreconditions.checkAtLeast("iterations", releases, 1);
        return l2Sensitivity * Math.sqrt(releases / (2 * zcdpRho(target)));
    }

    /**
     * ε(δ) of T Poisson-subsampled Gaussian steps at rate q with noise multiplier z (add/remove-one).
     *
     * @param q     the sampling rate, in (0, 1]
     * @param z     the noise multiplier σ/Δ, &gt; 0
     * @param steps T, ≥ 1
     * @param delta δ, in (0, 1)
     * @return ε, ≥ 0
     */
    public static double poissonEpsilon(double q, double z, int steps, double delta) {
        checkRate(q);
        DpPreconditions.checkPositive("noise multiplier", z);
        DpPreconditions.checkAtLeast("iterations", steps, 1);
        DpPreconditions.checkPositiveDelta(delta, "the subsampled Gaussian mechanism");
        double best = Double.POSITIVE_INFINITY;
        double lnInvDelta = Math.log(1 / delta);
        for (int alpha = 2; alpha <= MAX_ORDER; alpha++) {
            double e = steps * rdp(q, z, alpha) + lnInvDelta / (alpha - 1);
            best = Math.min(best, e);
        }
        return best;
    }

    /**
     * The smallest noise multiplier z (to 1e-6 relative, rounded up) with {@link #poissonEpsilon} ≤ ε for the
     * add/remove target; throws when even z = 200 is not enough.
     *
     * @param q      the sampling rate, in (0, 1]
     * @param steps  T, ≥ 1
     * @param target the add/remove (ε, δ) to meet, δ &gt; 0
     * @return z, &gt; 0
     * @throws IllegalArgumentException when no z up to 200 meets the target
     */
    public static double poissonNoiseMultiplier(double q, int steps, PrivacyParams target) {
        checkRate(q);
        DpPreconditions.checkPositiveDelta(target.delta(), "the subsampled Gaussian mechanism");
        if (poissonEpsilon(q, MAX_MULTIPLIER, steps, target.delta()) > target.epsilon()) {
            throw new IllegalArgumentException("no noise multiplier up to " + MAX_MULTIPLIER + " reaches epsilon "
                    + target.epsilon() + " with sampling rate " + q + " over " + steps
                    + " iterations; raise epsilon, or use fewer iterations or a smaller batch");
        }
        double lo = 1e-3;
        double hi = MAX_MULTIPLIER;
        while (hi - lo > 1e-6 * hi) {
            double mid = 0.5 * (lo + hi);
            if (poissonEpsilon(q, mid, steps, target.delta()) <= target.epsilon()) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * The add/remove target that gives (ε, δ) under replace-one by group privacy of size 2.
     *
     * @param replaceTarget the (ε, δ) wanted under replace-one
     * @return the (ε, δ) to meet under add/remove
     */
    public static PrivacyParams addRemoveTargetForReplace(PrivacyParams replaceTarget) {
        double e = replaceTarget.epsilon() / 2;
        return new PrivacyParams(e, replaceTarget.delta() / (1 + Math.exp(e)));
    }

    /** ε_RDP(α) of one sampled Gaussian step. */
    static double rdp(double q, double z, int alpha) {
        if (q == 1.0) {
            return alpha / (2 * z * z);
        }
        double lnQ = Math.log(q);
        double ln1mQ = Math.log1p(-q);
        double[] terms = new double[alpha + 1];
        double max = Double.NEGATIVE_INFINITY;
        double lnBinom = 0;
        for (int k = 0; k <= alpha; k++) {
            if (k > 0) {
                lnBinom += Math.log((double) (alpha - k + 1) / k);
            }
            terms[k] = lnBinom + (alpha - k) * ln1mQ + k * lnQ + ((double) k * k - k) / (2 * z * z);
            max = Math.max(max, terms[k]);
        }
        double s = 0;
        for (double t : terms) {
            s += Math.exp(t - max);
        }
        return (max + Math.log(s)) / (alpha - 1);
    }

    private static void checkRate(double q) {
        if (!(q > 0 && q <= 1)) {
            throw new IllegalArgumentException("the sampling rate (batch size / rows) must be in (0, 1], got " + q
                    + "; use a batch size between 1 and the number of rows");
        }
    }
}
