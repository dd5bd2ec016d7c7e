package io.dpspectra.noise;

import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Objects;

/**
 * Gaussian noise N(0, σ²).
 *
 * <p>TODO(skeleton): replaced by the floating-point-safe (granularity-rounded, discrete) sampler and the
 * analytic calibration of Balle &amp; Wang (2018) in the noise work package. The public API stays.
 */
public final class GaussianNoise implements Noise {
    private final RandomSource random;

    public GaussianNoise(RandomSource random) {
        this.random = Objects.requireNonNull(random, "random");
    }

    /**
     * The smallest σ for which the Gaussian mechanism with L2 sensitivity Δ is (ε, δ)-DP, by the
     * analytic calibration of Balle &amp; Wang (2018), valid for every ε &gt; 0.
     */
    public static double sigmaFor(double l2Sensitivity, PrivacyParams params) {
        DpPreconditions.checkSensitivity("l2Sensitivity", l2Sensitivity);
        DpPreconditions.checkPositiveDelta(params.delta(), "the Gaussian mechanism");
        // skeleton: classic bound (valid for ε < 1); replaced by the analytic calibration
        return l2Sensitivity * Math.sqrt(2 * Math.log(1.25 / params.delta())) / params.epsilon();
    }

    @Override
    public double addNoise(double value, double scale) {
        return value + scale * random.standardNormal();
    }
}
