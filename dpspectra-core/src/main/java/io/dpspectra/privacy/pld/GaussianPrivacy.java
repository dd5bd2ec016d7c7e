package io.dpspectra.privacy.pld;

import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.PrivacyParams;

/**
 * Exact accounting for Gaussian mechanisms, no discretisation: a Gaussian mechanism with sensitivity/σ = μ is
 * μ-GDP, an adaptive composition of μ_i-GDP mechanisms is √(Σμ_i²)-GDP, and μ-GDP is (ε, δ(ε))-DP for exactly
 * δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) (Dong, Roth &amp; Su, "Gaussian Differential Privacy", JRSS-B 2022,
 * Corollaries 2.13 and 3.3; Balle &amp; Wang, ICML 2018, Theorem 8). The composition also holds when each release
 * and its μ are chosen after seeing the earlier releases (Smith &amp; Thakurta, "Fully Adaptive Composition for
 * Gaussian Differential Privacy", 2022): Σμ_i² ≤ μ² is a privacy filter, which is why a ledger of Gaussian
 * releases can admit exactly as many as this composition allows.
 */
public final class GaussianPrivacy {
    private GaussianPrivacy() {
    }

    /**
     * δ(ε) of μ-GDP (exact closed form, evaluated without cancellation).
     *
     * @param mu      the GDP parameter, ≥ 0 and finite
     * @param epsilon ε
     * @return δ(ε)
     */
    public static double delta(double mu, double epsilon) {
        checkMu(mu);
        if (Double.isNaN(epsilon)) {
            throw new IllegalArgumentException("epsilon must be a number, got NaN");
        }
        return Curves.gaussianDelta(mu, epsilon);
    }

    /**
     * The smallest ε ≥ 0 with {@link #delta}(μ, ε) ≤ δ (bisection to 1e−12 relative, the upper end returned), or
     * +∞ for δ = 0.
     *
     * @param mu    the GDP parameter, ≥ 0 and finite
     * @param delta δ in [0, 1)
     * @return ε, or +∞
     */
    public static double epsilon(double mu, double delta) {
        checkMu(mu);
        DpPreconditions.checkDelta(delta);
        if (delta == 0) {
            return Double.POSITIVE_INFINITY;
        }
        if (Curves.gaussianDelta(mu, 0) <= delta) {
            return 0;
        }
        double hi = Math.max(1, mu);
        while (Curves.gaussianDelta(mu, hi) > delta) {
            hi *= 2;
        }
        double lo = 0;
        for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (Curves.gaussianDelta(mu, mid) <= delta) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * The largest μ whose curve meets (ε, δ), on the safe side: 1/σ* with σ* the analytic-Gaussian σ for
     * sensitivity 1 ({@link GaussianNoise#analyticSigma}, the upper end of its bisection), lowered by a relative
     * 1e−12 so that the rounding of whatever is computed from it (σ = Δ√T/μ, products of μ's) cannot push δ(ε) above
     * δ (δ moves by about (ε/μ)²·1e−12 relative for that change).
     *
     * @param target the (ε, δ), δ &gt; 0
     * @return μ
     */
    public static double mu(PrivacyParams target) {
        DpPreconditions.checkPositiveDelta(target.delta(), "a Gaussian privacy budget");
        return 1 / GaussianNoise.analyticSigma(1.0, target.epsilon(), target.delta()) * (1 - 1e-12);
    }

    private static void checkMu(double mu) {
        if (!(mu >= 0) || !Double.isFinite(mu)) {
            throw new IllegalArgumentException("mu (sensitivity / sigma) must be finite and >= 0, got " + mu);
        }
    }
}
