package io.dpspectra.noise;

import io.dpspectra.privacy.DpPreconditions;

/**
 * Adds floating-point-safe Laplace noise of scale b (density ∝ exp(−|z|/b)): the value is rounded
 * to the power-of-two granularity g = {@link #granularity(double) g(b)} and a discrete Laplace sample
 * on gℤ with the same scale is added.
 *
 * <p>Privacy: for a function with L1 sensitivity Δ over m released coordinates, noise of scale
 * {@link #scaleFor(double, double, long) scaleFor(Δ, ε, m)} gives pure ε-DP for the neighbouring
 * relation under which Δ was derived. Rounding each coordinate to gℤ can stretch the L1 difference
 * of neighbours to Δ + m·g; the lattice noise exp(−|k|·g/b) then gives ε-DP exactly when
 * b ≥ (Δ + m·g)/ε, and {@code scaleFor} returns the smallest such b (a fixed point, since g depends on
 * b). The cost is a relative increase of b by m·g/Δ ≤ m·2^−43/ε. {@link #scaleFor(double, double)}
 * accounts for up to {@value #DEFAULT_COORDINATES} coordinates (increase ≤ 2e−6/ε).
 *
 * <p>Exactness: rounding and the final addition are exact or correctly rounded (see
 * {@code Granularity}); the discrete Laplace sample is exact (Canonne–Kamath–Steinke Algorithm 2, its
 * geometric part decided exactly as [U &lt; exp(−k/t)], the scale b/g being an exact dyadic
 * rational). The only approximation is the 53-bit output format itself, which is post-processing.
 * Lattice samples of magnitude ≥ 2^53 (beyond 512 scales, probability &lt; e^−500) are redrawn.
 *
 * <p>Reference: I. Mironov, "On significance of the least significant bits for differential
 * privacy", CCS 2012; C. Canonne, G. Kamath, T. Steinke, "The Discrete Gaussian for Differential
 * Privacy", NeurIPS 2020, Algorithm 2; Dwork &amp; Roth (2014), Theorem 3.6 (Laplace mechanism).
 *
 * <p>Cost: O(1) expected, about 2.1 random longs (1.13 for the magnitude, one coin) and one
 * double-double logarithm per coordinate; arrays beyond 16,384 values are drawn on all cores (see
 * {@code LatticeNoise}).
 */
public final class LaplaceNoise extends LatticeNoise {
    /** Number of coordinates whose rounding {@link #scaleFor(double, double)} accounts for: 2^24. */
    public static final long DEFAULT_COORDINATES = 1L << 24;

    /**
     * Laplace noise drawn from {@code random} (the secure source for a private release; a seeded one only for
     * experiments and tests).
     *
     * @param random the randomness of every draw
     */
    public LaplaceNoise(RandomSource random) {
        super(random);
    }

    /**
     * The smallest scale b with b ≥ (Δ + m·g(b))/ε for m = {@value #DEFAULT_COORDINATES}: ε-DP for L1
     * sensitivity Δ, rounding included, when at most that many coordinates are released with it.
     *
     * @param l1Sensitivity Δ, the L1 sensitivity of the released vector, &gt; 0
     * @param epsilon       ε, &gt; 0
     * @return b, &gt; 0
     */
    public static double scaleFor(double l1Sensitivity, double epsilon) {
        return scaleFor(l1Sensitivity, epsilon, DEFAULT_COORDINATES);
    }

    /**
     * The smallest scale b with b ≥ (Δ + m·g(b))/ε: ε-DP for L1 sensitivity Δ over m released
     * coordinates, the rounding to granularity g(b) included.
     *
     * @param l1Sensitivity Δ, the L1 sensitivity of the released vector, &gt; 0
     * @param epsilon       ε, &gt; 0
     * @param coordinates   m, the number of coordinates released with this scale, ≥ 1
     * @return b, &gt; 0
     */
    public static double scaleFor(double l1Sensitivity, double epsilon, long coordinates) {
        DpPreconditions.checkSensitivity("the L1 sensitivity", l1Sensitivity);
        DpPreconditions.checkEpsilon(epsilon);
        checkCoordinates(coordinates);
        double b = l1Sensitivity / epsilon;
        // b_{i+1} = (Δ + m·g(b_i))/ε is non-decreasing and g takes power-of-two values, so this stops
        // after a few steps at b with g(b) equal to the g it was computed from.
        for (int i = 0; i < 64; i++) {
            double g = Granularity.of(b);
            // two ulps up: covers the rounding of the sum and of the quotient
            double next = Math.nextUp(Math.nextUp((l1Sensitivity + coordinates * g) / epsilon));
            if (next <= b) {
                return b;
            }
            b = next;
            if (Granularity.of(b) == g) {
                return b;
            }
        }
        throw new IllegalStateException("Laplace scale calibration did not converge for l1Sensitivity="
                + l1Sensitivity + ", epsilon=" + epsilon + ", coordinates=" + coordinates);
    }

    /**
     * The granularity g(b): the smallest power of two ≥ b·2^−44. Outputs are multiples of it.
     *
     * @param scale b, &gt; 0
     * @return g(b), a power of two
     */
    public static double granularity(double scale) {
        return Granularity.of(scale);
    }

    static void checkCoordinates(long coordinates) {
        if (coordinates < 1 || coordinates > (1L << 52)) {
            throw new IllegalArgumentException("coordinates must be in [1, 2^52], got " + coordinates
                    + "; pass the number of noisy numbers released with this scale");
        }
    }

    @Override
    Lattice lattice(double scale) {
        double g = Granularity.of(scale);
        // b/g lies in (2^43, 2^44] and is a dyadic rational: write it as t/s with s a power of two.
        double ratio = scale / g;
        long denominator = 1;
        while (ratio != Math.rint(ratio)) {
            ratio *= 2;
            denominator <<= 1;
        }
        long t = (long) ratio;
        long s = denominator;
        return new Lattice(g, random -> DiscreteSamplers.discreteLaplace(random, t, s));
    }
}
