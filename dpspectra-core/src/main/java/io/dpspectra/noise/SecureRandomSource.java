package io.dpspectra.noise;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.DrbgParameters;
import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The default {@link RandomSource} of every private release: a cryptographically secure generator,
 * AES-256 in counter mode with fast key erasure, keyed from the platform's NIST SP 800-90A DRBG.
 *
 * <p>Construction (Bernstein, "Fast-key-erasure random-number generators", 2017): a 256-bit key is drawn
 * from the JDK's DRBG (Hash_DRBG, SHA-256, 256-bit strength, seeded by the operating system; the
 * platform default {@link SecureRandom} if the DRBG is missing). Each refill encrypts zeros under the
 * current key with AES-256-CTR from a zero counter, hands out the first 64 KiB of keystream and makes the
 * last 32 bytes the next key, so a key is used for one buffer only and a later compromise of the state
 * reveals nothing about earlier outputs. AES as a PRF is the standard assumption behind NIST's CTR_DRBG.
 *
 * <p>Why not the DRBG directly: the exact discrete samplers consume several random words per noise
 * value, and the DRBG's 30–50 ns per 64-bit word was most of the cost of a Gaussian sample; the
 * AES-NI-accelerated keystream costs about 4–6 ns per word on this machine kind (measured: Hash_DRBG
 * 160–280 MB/s, the JDK's CTR_DRBG 80–120 MB/s, AES-256-CTR keystream 1.4–2.1 GB/s).
 *
 * <p>{@link #nextBoolean()} and small power-of-two bounds take bits of a cached word rather than a
 * whole word, and a bound of 1 takes none ({@link WordBuffer}). Thread-safe: the state is guarded by
 * this object's lock; {@link #nextLongs} takes it once for a whole array, which is how the noise
 * classes' bulk paths draw.
 */
final class SecureRandomSource implements RandomSource {
    /**
     * Keystream per key: 64 KiB. Re-keying costs about 1.5 µs (the JCE expands the AES key in Java), so
     * 16 KiB blocks ran at 2.3–2.9 ns per word against 1.5 for the keystream alone.
     */
    private static final int BUFFER_WORDS = 8192;
    private static final int BUFFER_BYTES = BUFFER_WORDS * Long.BYTES;
    private static final int KEY_BYTES = 32;
    /** Keys every generator (SecureRandom is thread-safe). */
    private static final SecureRandom SEEDER = strongGenerator();

    /** Encrypted to make the keystream; never written. */
    private static final byte[] ZEROS = new byte[BUFFER_BYTES + KEY_BYTES];
    /**
     * One cipher and keystream scratch per thread. A new Cipher object costs about 60 µs before its first
     * block (provider selection, warm-up) against 0.2 µs to re-key an existing one, and the bulk noise
     * path splits the source once per chunk, so the generators share their thread's cipher; each refill
     * re-keys it under the generator's lock and leaves nothing behind in the scratch.
     */
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private static final class Scratch {
        final Cipher cipher;
        final byte[] stream = new byte[BUFFER_BYTES + KEY_BYTES];

        Scratch() {
            try {
                cipher = Cipher.getInstance("AES/CTR/NoPadding");
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("this JVM has no AES/CTR cipher, which every Java SE platform "
                        + "must provide; check the security providers (java.security)", e);
            }
        }
    }

    private final byte[] key = new byte[KEY_BYTES];
    /** The keystream as words, with the bit cache for coins; guarded by this object's lock. */
    private final WordBuffer words = new WordBuffer(BUFFER_WORDS) {
        @Override
        void refill(long[] out) {
            keystream(out);
        }

        @Override
        public RandomSource split() {
            return SecureRandomSource.this.split();
        }

        @Override
        public boolean isSeeded() {
            return false;
        }
    };

    /** A generator keyed from the DRBG. */
    SecureRandomSource() {
        SCRATCH.get(); // fails here, with a clear message, if the platform has no AES/CTR
        SEEDER.nextBytes(key);
    }

    /** A generator with the given key (copied). */
    private SecureRandomSource(byte[] key) {
        System.arraycopy(key, 0, this.key, 0, KEY_BYTES);
    }

    private static SecureRandom strongGenerator() {
        try {
            return SecureRandom.getInstance("DRBG",
                    DrbgParameters.instantiation(256, DrbgParameters.Capability.RESEED_ONLY, null));
        } catch (NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    }

    /** A description of the generator in use (for diagnostics and tests). */
    String algorithm() {
        return "AES-256-CTR with fast key erasure, keyed from " + SEEDER.getAlgorithm();
    }

    /** Fills out (BUFFER_WORDS words) with the next keystream block and erases the key; lock held. */
    private void keystream(long[] out) {
        Scratch scratch = SCRATCH.get();
        byte[] stream = scratch.stream;
        try {
            scratch.cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(new byte[16]));
            scratch.cipher.doFinal(ZEROS, 0, ZEROS.length, stream, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-256-CTR keystream failed: " + e.getMessage(), e);
        }
        System.arraycopy(stream, BUFFER_BYTES, key, 0, KEY_BYTES);
        ByteBuffer.wrap(stream, 0, BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out);
        Arrays.fill(stream, (byte) 0);
    }

    @Override
    public synchronized long nextLong() {
        return words.nextLong();
    }

    /** Fills {@code out} under one acquisition of the lock. */
    @Override
    public synchronized void nextLongs(long[] out) {
        words.nextLongs(out);
    }

    @Override
    public synchronized boolean nextBoolean() {
        return words.nextBoolean();
    }

    /** No randomness for a bound of 1, cached bits for small powers of two (see {@link WordBuffer}). */
    @Override
    public synchronized long nextLong(long bound) {
        return words.nextLong(bound);
    }

    /**
     * A new generator keyed with the next 32 bytes of this one's keystream (a PRG output, so the child is
     * as unpredictable as the parent and independent of it computationally); no DRBG call.
     */
    @Override
    public RandomSource split() {
        long[] k = new long[KEY_BYTES / Long.BYTES];
        nextLongs(k);
        byte[] childKey = new byte[KEY_BYTES];
        ByteBuffer.wrap(childKey).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(k);
        Arrays.fill(k, 0);
        SecureRandomSource child = new SecureRandomSource(childKey);
        Arrays.fill(childKey, (byte) 0);
        return child;
    }

    @Override
    public boolean isSeeded() {
        return false;
    }
}
