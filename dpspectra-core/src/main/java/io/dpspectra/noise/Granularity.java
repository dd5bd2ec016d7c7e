package io.dpspectra.noise;

/**
 * The power-of-two lattice on which {@link LaplaceNoise} and {@link GaussianNoise} work, and the
 * exact arithmetic that moves a value onto it and back.
 *
 * <p>Granularity: for a noise scale b, g(b) = the smallest power of two ≥ b·2^−{@value #K}, so the
 * noise has scale b/g ∈ (2^43, 2^44] lattice steps. Why K = 44:
 * <ul>
 *   <li>Accuracy: rounding moves a value by at most g/2 ≤ 2^−44·b, far below the noise.</li>
 *   <li>Privacy cost: rounding can stretch a per-coordinate difference by g, so a mechanism must be
 *       calibrated for sensitivity Δ + g (L∞ per coordinate; Δ + m·g in L1 and Δ + √m·g in L2 over
 *       m coordinates). Relative to Δ this is g/Δ ≤ 2^−43·b/Δ, i.e. ≈ 1e−13/ε for Laplace; the
 *       {@code scaleFor}/{@code sigmaFor} methods add it to Δ, so the stated (ε, δ) hold exactly.</li>
 *   <li>Exactness: a lattice noise value k is below 2^53 in magnitude unless the noise exceeds
 *       2^9 = 512 scales (probability &lt; e^−500), so k·g is an exact double. Samples at or beyond 2^53
 *       are redrawn (see {@link #toDouble(double, long, double)}).</li>
 * </ul>
 *
 * <p>Floating-point safety (Mironov 2012): the released number is fl(r + k·g), where r is the input
 * rounded to a multiple of g (exact: division and multiplication by a power of two, and
 * {@link Math#rint}, ties to even) and k is an exact integer sample. k·g is exact and IEEE addition
 * returns the correctly rounded exact sum, so the release is a deterministic function of the lattice
 * point r + k·g alone: post-processing of an exact discrete mechanism. When |r + k·g| &lt; 2^53·g
 * (|value| below about 2^9 scales) the sum is exact and the output is itself that lattice point; for
 * larger values the final rounding to the value's ulp (a multiple of g) is harmless post-processing.
 */
final class Granularity {
    /** log2 of (scale / granularity), up to a factor of two. */
    static final int K = 44;

    /** Smallest scale accepted: keeps g and r/g clear of subnormals. */
    static final double MIN_SCALE = 0x1.0p-960;

    private static final double TWO_TO_53 = 0x1.0p53;

    private Granularity() {
    }

    /** g(scale) = smallest power of two ≥ scale·2^−K. */
    static double of(double scale) {
        checkScale(scale);
        double x = Math.scalb(scale, -K);
        double p = Math.scalb(1.0, Math.getExponent(x));
        return p == x ? p : 2 * p;
    }

    static void checkScale(double scale) {
        if (!(scale >= MIN_SCALE) || !Double.isFinite(scale)) {
            throw new IllegalArgumentException("the noise scale must be finite and >= " + MIN_SCALE + ", got " + scale
                    + ": epsilon is too small or the norm bound too large for this release");
        }
    }

    /**
     * The multiple of g nearest to value (ties to even), in units of g, as an exact double integer; or
     * infinity when value/g is beyond the doubles (then value is itself a multiple of g, see {@link #release}).
     */
    static double roundedUnits(double value, double g) {
        checkFinite(value);
        return Math.rint(value / g); // exact: g is a power of two
    }

    /** Refuses a NaN or infinite value to privatise. */
    static void checkFinite(double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("value to privatise must be finite, got " + value
                    + "; check the data for NaN or infinite cells before releasing");
        }
    }

    /**
     * The released value fl(r + k·g) for the value rounded to r ∈ gℤ and an exact sample k (|k| &lt; 2^53). A
     * finite value so large that value/g is not a double (|value| ≥ 2^1024·g) is already a multiple of g (its
     * ulp, a power of two, is far above g), so r = value and the release is fl(value + k·g): the same
     * post-processing of the same lattice point, computed without the units. So every finite value can be
     * released, whatever its size relative to the noise.
     */
    static double release(double value, long k, double g) {
        double units = roundedUnits(value, g);
        return Double.isFinite(units) ? toDouble(units, k, g) : value + k * g;
    }

    /** True if k·g is exact (|k| &lt; 2^53). */
    static boolean representable(long k) {
        return Math.abs((double) k) < TWO_TO_53;
    }

    /** fl(units·g + k·g): the correctly rounded lattice point. Requires {@link #representable}(k). */
    static double toDouble(double units, long k, double g) {
        return units * g + k * g;
    }
}
