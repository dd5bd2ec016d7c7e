package io.dpspectra.noise;

/**
 * The only source of randomness in dpspectra.
 *
 * <p>{@link #secure()} (backed by {@link java.security.SecureRandom}) is the default everywhere privacy
 * noise is drawn. {@link #seededForReproducibility(long)} is deterministic and exists only for
 * experiments and tests: a release made with it is not private against anyone who knows the seed.
 *
 * <p>Privacy noise is never sampled from this interface directly: algorithms ask {@link LaplaceNoise}
 * or {@link GaussianNoise} for noise of a given scale. The continuous helpers here
 * ({@link #standardNormal()}) are for non-private uses only: synthetic data, random initial bases.
 */
public interface RandomSource {

    /**
     * Uniformly random 64 bits.
     *
     * @return the next 64 bits
     */
    long nextLong();

    /**
     * Overwrites every element of {@code words} with uniformly random 64-bit words, as that many calls of
     * {@link #nextLong()} would; the secure source takes its lock once for the whole array.
     *
     * @param words the array to fill
     */
    default void nextLongs(long[] words) {
        for (int i = 0; i < words.length; i++) {
            words[i] = nextLong();
        }
    }

    /**
     * Uniform on [0, 1) with 53 random bits.
     *
     * @return a double in [0, 1)
     */
    default double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /**
     * Uniform long in [0, bound), without modulo bias (rejection on the top 63 bits). Used by the
     * exact discrete samplers.
     *
     * @param bound the exclusive upper bound, &gt; 0
     * @return a long in [0, bound)
     */
    default long nextLong(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be > 0, got " + bound);
        }
        long m = bound - 1;
        if ((bound & m) == 0) {
            return nextLong() & m;
        }
        long u = nextLong() >>> 1;
        long r;
        while (u + m - (r = u % bound) < 0) {
            u = nextLong() >>> 1;
        }
        return r;
    }

    /**
     * A fair coin.
     *
     * @return true or false, each with probability 1/2
     */
    default boolean nextBoolean() {
        return nextLong() < 0;
    }

    /**
     * Uniform integer in [0, bound), without modulo bias.
     *
     * @param bound the exclusive upper bound, &gt; 0
     * @return an int in [0, bound)
     */
    default int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be > 0, got " + bound);
        }
        int r = (int) (nextLong() >>> 33);
        int m = bound - 1;
        if ((bound & m) == 0) {
            return (int) ((bound * (long) r) >> 31);
        }
        for (int u = r; u - (r = u % bound) + m < 0; u = (int) (nextLong() >>> 33)) {
            // rejection loop
        }
        return r;
    }

    /**
     * A standard normal variate (Marsaglia's polar method) for NON-PRIVATE uses only: synthetic data,
     * random starting points. Privacy noise comes from {@link GaussianNoise}.
     *
     * @return a draw from N(0, 1)
     */
    default double standardNormal() {
        double u;
        double v;
        double s;
        do {
            u = 2 * nextDouble() - 1;
            v = 2 * nextDouble() - 1;
            s = u * u + v * v;
        } while (s >= 1 || s == 0);
        return u * Math.sqrt(-2 * Math.log(s) / s);
    }

    /**
     * An independent source derived from this one (for parallel or nested use).
     *
     * @return a new source, seeded from this one (reproducibly so when this one is seeded)
     */
    RandomSource split();

    /**
     * True only for the seeded, reproducible source. Results record it in their diagnostics.
     *
     * @return true for {@link #seededForReproducibility} and the sources split from it
     */
    boolean isSeeded();

    /**
     * SecureRandom-backed: the default for every private release.
     *
     * @return a new source backed by a {@link java.security.SecureRandom}
     */
    static RandomSource secure() {
        return new SecureRandomSource();
    }

    /**
     * Deterministic, for experiments and tests only: NOT private against anyone who knows the seed.
     *
     * @param seed the seed; the same seed gives the same stream
     * @return a new deterministic source
     */
    static RandomSource seededForReproducibility(long seed) {
        return new SeededRandomSource(seed);
    }
}
