package io.dpspectra.covariance;

import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.PrivacyParams;

/**
 * How the Gaussian noise standard deviation σ is computed from an L2 sensitivity Δ and (ε, δ).
 *
 * <p>Reference: spec robust-local-covariance.md K8; stochastic-and-power-methods.md §0.2 and §8 #22.
 */
public enum GaussianCalibration {
    /** The analytic Gaussian mechanism of Balle &amp; Wang (2018), {@link GaussianNoise#sigmaFor}: the default. */
    ANALYTIC,
    /**
     * The classic σ = Δ·√(2 ln(1.25/δ))/ε of Dwork &amp; Roth, as the papers print it. Its proof needs
     * ε &lt; 1; for ε ≥ 1 this library uses max(classic, analytic), so the release stays (ε, δ)-DP, and
     * records a warning in the diagnostics.
     */
    CLASSIC;

    /**
     * σ for sensitivity {@code l2Sensitivity} at {@code params} (δ must be &gt; 0).
     *
     * @param l2Sensitivity Δ, &gt; 0
     * @param params        (ε, δ), δ &gt; 0
     * @return σ, &gt; 0
     */
    public double sigma(double l2Sensitivity, PrivacyParams params) {
        DpPreconditions.checkSensitivity("the L2 sensitivity", l2Sensitivity);
        DpPreconditions.checkPositiveDelta(params.delta(), "the Gaussian mechanism");
        double analytic = GaussianNoise.sigmaFor(l2Sensitivity, params);
        if (this == ANALYTIC) {
            return analytic;
        }
        double classic = classicSigma(l2Sensitivity, params);
        return params.epsilon() < 1 ? classic : Math.max(classic, analytic);
    }

    /**
     * A warning to record for this calibration at {@code params}, or null when there is none.
     *
     * @param params the (ε, δ) of the release
     * @return the warning, or null
     */
    public String warning(PrivacyParams params) {
        if (this == CLASSIC && params.epsilon() >= 1) {
            return "classic Gaussian calibration is only proven for epsilon < 1, got " + params.epsilon()
                    + "; sigma = max(classic, analytic) was used so the release is still private";
        }
        return null;
    }

    /**
     * Δ·√(2 ln(1.25/δ))/ε.
     *
     * @param l2Sensitivity Δ
     * @param params        (ε, δ), δ &gt; 0
     * @return σ
     */
    public static double classicSigma(double l2Sensitivity, PrivacyParams params) {
        return l2Sensitivity * Math.sqrt(2 * Math.log(1.25 / params.delta())) / params.epsilon();
    }
}
