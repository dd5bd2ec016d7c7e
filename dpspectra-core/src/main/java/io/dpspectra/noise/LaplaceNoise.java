package io.dpspectra.noise;

import java.util.Objects;

/**
 * Laplace noise with density exp(−|z|/b)/(2b).
 *
 * <p>TODO(skeleton): replaced by the floating-point-safe (granularity-rounded, two-sided geometric)
 * sampler in the noise work package. The public API stays.
 */
public final class LaplaceNoise implements Noise {
    private final RandomSource random;

    public LaplaceNoise(RandomSource random) {
        this.random = Objects.requireNonNull(random, "random");
    }

    /** Scale b = l1Sensitivity / ε. */
    public static double scaleFor(double l1Sensitivity, double epsilon) {
        io.dpspectra.privacy.DpPreconditions.checkSensitivity("l1Sensitivity", l1Sensitivity);
        io.dpspectra.privacy.DpPreconditions.checkEpsilon(epsilon);
        return l1Sensitivity / epsilon;
    }

    @Override
    public double addNoise(double value, double scale) {
        double u = random.nextDouble() - 0.5;
        return value - scale * Math.signum(u) * Math.log(1 - 2 * Math.abs(u));
    }
}
