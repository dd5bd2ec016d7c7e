package io.dpspectra.noise;

import java.security.SecureRandom;

/** {@link RandomSource} backed by the platform's strong {@link SecureRandom}. */
final class SecureRandomSource implements RandomSource {
    private final SecureRandom random;

    SecureRandomSource() {
        this.random = new SecureRandom();
    }

    @Override
    public long nextLong() {
        return random.nextLong();
    }

    @Override
    public RandomSource split() {
        return new SecureRandomSource();
    }

    @Override
    public boolean isSeeded() {
        return false;
    }
}
