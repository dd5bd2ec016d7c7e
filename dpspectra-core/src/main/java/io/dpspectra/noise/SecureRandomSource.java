package io.dpspectra.noise;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * current key with AES-256-CTR from a zero counter, hands out the first 4 KiB of keystream and makes the
 * last 32 bytes the next key, so a key is used for one buffer only and a later compromise of the state
 * reveals nothing about earlier outputs. AES as a PRF is the standard assumption behind NIST's CTR_DRBG.
 *
 * <p>Why not the DRBG directly: the exact discrete samplers consume several random words per noise
 * value, and the DRBG's 30–50 ns per 64-bit word was most of the cost of a Gaussian sample; the
 * AES-NI-accelerated keystream costs about 4–6 ns per word on this machine kind (measured: Hash_DRBG
 * 160–280 MB/s, the JDK's CTR_DRBG 80–120 MB/s, AES-256-CTR keystream 1.4–2.1 GB/s).
 *
 * <p>{@link #nextBoolean()} and small power-of-two bounds take bits of a cached word rather than a
 * whole word, and a bound of 1 takes none. Thread-safe: the state is guarded by this object's lock.
 */
final class SecureRandomSource implements RandomSource {
    private static final int BUFFER_BYTES = 4096;
    private static final int KEY_BYTES = 32;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Keys every generator (SecureRandom is thread-safe). */
    private static final SecureRandom SEEDER = strongGenerator();

    private final Cipher cipher;
    private final byte[] zeros = new byte[BUFFER_BYTES + KEY_BYTES];
    private final byte[] stream = new byte[BUFFER_BYTES + KEY_BYTES];
    private final byte[] key = new byte[KEY_BYTES];
    private int position = BUFFER_BYTES;
    private long bits;
    private int bitsLeft;

    SecureRandomSource() {
        try {
            this.cipher = Cipher.getInstance("AES/CTR/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no AES/CTR cipher, which every Java SE platform must "
                    + "provide; check the security providers (java.security)", e);
        }
        SEEDER.nextBytes(key);
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

    /** Caller holds the lock. */
    private void refill() {
        try {
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(new byte[16]));
            cipher.doFinal(zeros, 0, zeros.length, stream, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-256-CTR keystream failed: " + e.getMessage(), e);
        }
        System.arraycopy(stream, BUFFER_BYTES, key, 0, KEY_BYTES);
        Arrays.fill(stream, BUFFER_BYTES, BUFFER_BYTES + KEY_BYTES, (byte) 0);
        position = 0;
    }

    @Override
    public synchronized long nextLong() {
        if (position == BUFFER_BYTES) {
            refill();
        }
        long v = (long) LONGS.get(stream, position);
        position += Long.BYTES;
        return v;
    }

    @Override
    public synchronized boolean nextBoolean() {
        return takeBits(1) != 0;
    }

    /**
     * As the interface's rejection sampler, but without spending random words where none or few are
     * needed: a bound of 1 has only one outcome, and a power-of-two bound up to 2⁸ takes just its bits
     * from the cached word. (The exact discrete samplers ask for such bounds in their inner loops.)
     */
    @Override
    public long nextLong(long bound) {
        if (bound == 1) {
            return 0;
        }
        if (bound > 1 && bound <= 256 && (bound & (bound - 1)) == 0) {
            synchronized (this) {
                return takeBits(Long.numberOfTrailingZeros(bound));
            }
        }
        return RandomSource.super.nextLong(bound);
    }

    /** The next {@code n} (1..8) bits of the cached word as a number in [0, 2ⁿ); caller holds the lock. */
    private long takeBits(int n) {
        if (bitsLeft < n) {
            bits = nextLong();
            bitsLeft = Long.SIZE;
        }
        long v = bits & ((1L << n) - 1);
        bits >>>= n;
        bitsLeft -= n;
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
