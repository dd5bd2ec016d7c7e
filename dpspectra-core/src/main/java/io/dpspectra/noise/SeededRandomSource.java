package io.dpspectra.noise;

import java.util.SplittableRandom;

/**
 * Deterministic {@link RandomSource} for reproducible experiments and tests. Not for private releases:
 * anyone with the seed can subtract the noise.
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
