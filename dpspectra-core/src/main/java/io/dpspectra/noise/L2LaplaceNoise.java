package io.dpspectra.noise;

import io.dpspectra.privacy.DpPreconditions;
import java.util.Objects;

/**
 * Adds "high-dimensional Laplace" noise to a vector in R^m: density ∝ exp(−‖b‖₂/s), drawn as a
 * uniformly random direction times a radius ~ Gamma(shape m, scale s).
 *
 * <p>Privacy: for a vector-valued function with L2 sensitivity Δ, scale s = Δ/ε gives pure ε-DP (the
 * density ratio at any point is at most exp(Δ/s)); this is the noise of Chaudhuri, Monteleoni &amp;
 * Sarwate's output perturbation. Limitation: unlike {@link LaplaceNoise} this sampler is a textbook
 * continuous one (the Gamma radius is −s·Σ ln U_i over m uniforms, the direction a normalised vector of
 * {@link RandomSource#standardNormal()} draws); it is not granularity-rounded, so the low-order bits of
 * its doubles are not hardened (Mironov 2012). It serves the regression baseline "P".
 *
 * <p>Reference: Chaudhuri, Monteleoni, Sarwate, JMLR 2011, Algorithm 1; spec
 * robust-local-covariance.md K7 ("High-dimensional Laplace") and §5.9.
 *
 * <p>Cost: O(m) per vector (2m random numbers).
 */
public final class L2LaplaceNoise {
    private final RandomSource random;

    /**
     * High-dimensional Laplace noise drawn from {@code random} (the secure source for a private release).
     *
     * @param random the randomness of every draw
     */
    public L2LaplaceNoise(RandomSource random) {
        this.random = Objects.requireNonNull(random, "random");
    }

    /**
     * The scale s = Δ/ε for L2 sensitivity Δ.
     *
     * @param l2Sensitivity Δ, &gt; 0
     * @param epsilon       ε, &gt; 0
     * @return s = Δ/ε
     */
    public static double scaleFor(double l2Sensitivity, double epsilon) {
        DpPreconditions.checkSensitivity("the L2 sensitivity", l2Sensitivity);
        DpPreconditions.checkEpsilon(epsilon);
        return l2Sensitivity / epsilon;
    }

    /**
     * Adds one noise vector of scale s to {@code values}. Modified: values.
     *
     * @param values the vector to perturb, length m ≥ 1
     * @param scale  s, &gt; 0
     */
    public void addNoiseInPlace(double[] values, double scale) {
        DpPreconditions.checkPositive("scale", scale);
        int m = values.length;
        double[] dir = new double[m];
        double norm2;
        do {
            norm2 = 0;
            for (int i = 0; i < m; i++) {
                dir[i] = random.standardNormal();
                norm2 += dir[i] * dir[i];
            }
        } while (norm2 == 0);
        double radius = 0;
        for (int i = 0; i < m; i++) {
            radius -= Math.log(1.0 - random.nextDouble()); // Exp(1), argument in (0, 1]
        }
        radius *= scale;
        double f = radius / Math.sqrt(norm2);
        for (int i = 0; i < m; i++) {
            values[i] += f * dir[i];
        }
    }
}
