package io.dpspectra.noise;

import java.security.SecureRandom;

/**
 * {@link RandomSource} backed by the platform's strong {@link SecureRandom}: the default for every
 * private release.
 *
 * <p>Bits are taken with {@link SecureRandom#nextBytes} (never through the convenience
 * methods SecureRandom inherits from its non-cryptographic superclass) into a small buffer and assembled into longs. Thread-safe: the
 * buffer is guarded by this object's lock.
 */
final class SecureRandomSource implements RandomSource {
    private static final int BUFFER_BYTES = 256;

    private final SecureRandom random;
    private final byte[] buffer = new byte[BUFFER_BYTES];
    private int position = BUFFER_BYTES;

    SecureRandomSource() {
        this.random = new SecureRandom();
    }

    @Override
    public synchronized long nextLong() {
        if (position == BUFFER_BYTES) {
            random.nextBytes(buffer);
            position = 0;
        }
        long v = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            v = (v << 8) | (buffer[position++] & 0xFFL);
        }
        return v;
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
