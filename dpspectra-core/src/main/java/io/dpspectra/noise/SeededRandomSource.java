package io.dpspectra.noise;

import java.util.SplittableRandom;

/**
 * Deterministic {@link RandomSource} for reproducible experiments and tests, backed by
 * {@link SplittableRandom} (SplitMix64). Not for private releases: anyone with the seed can
 * reproduce and subtract the noise, and SplitMix64 is not a cryptographic generator. It is never used
 * by default; only {@link RandomSource#seededForReproducibility(long)} creates it. Not thread-safe.
 */
final class SeededRandomSource implements RandomSource {
    private final SplittableRandom random;

    SeededRandomSource(long seed) {
        this(new SplittableRandom(seed));
    }

    private SeededRandomSource(SplittableRandom random) {
        this.random = random;
    }

    @Override
    public long nextLong() {
        return random.nextLong();
    }

    @Override
    public RandomSource split() {
        return new SeededRandomSource(random.split());
    }

    @Override
    public boolean isSeeded() {
        return true;
    }
}
