package io.dpspectra.noise;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SecureRandomSourceTest {
    @Test
    void isAesCtrKeyedFromTheNistDrbgAndIsNotSeeded() {
        SecureRandomSource s = new SecureRandomSource();
        assertThat(s.algorithm()).startsWith("AES-256-CTR").endsWith("DRBG");
        assertThat(s.isSeeded()).isFalse();
        assertThat(s.split()).isInstanceOf(SecureRandomSource.class);
    }

    @Test
    void cachedCoinFlipsAreFairAndBitsOfWordsAreBalanced() {
        RandomSource s = RandomSource.secure();
        int n = 200_000;
        int heads = 0;
        for (int i = 0; i < n; i++) {
            heads += s.nextBoolean() ? 1 : 0;
        }
        // Binomial(n, 1/2): sd = sqrt(n)/2; 5 sd is a false-alarm rate below 1e-6
        assertThat(Math.abs(heads - n / 2.0)).isLessThan(5 * Math.sqrt(n) / 2);
        int words = 20_000;
        int[] ones = new int[64];
        for (int i = 0; i < words; i++) {
            long v = s.nextLong();
            for (int b = 0; b < 64; b++) {
                ones[b] += (int) ((v >>> b) & 1L);
            }
        }
        for (int b = 0; b < 64; b++) {
            // per bit position, 6 sd over 64 positions keeps the family-wise false-alarm rate below 1e-7
            assertThat(Math.abs(ones[b] - words / 2.0)).as("bit %d", b).isLessThan(6 * Math.sqrt(words) / 2);
        }
    }

    @Test
    void coinFlipsInterleavedWithWordsStayIndependentOfThem() {
        // a flip never reuses the bits of a word handed out by nextLong: pairs (flip, low bit of next word)
        // must be uniform on the four outcomes (chi-square, 3 degrees of freedom, 0.9999 quantile 21.1)
        RandomSource s = RandomSource.secure();
        int n = 40_000;
        int[] counts = new int[4];
        for (int i = 0; i < n; i++) {
            int a = s.nextBoolean() ? 1 : 0;
            int b = (int) (s.nextLong() & 1L);
            counts[2 * a + b]++;
        }
        double chi2 = 0;
        for (int c : counts) {
            chi2 += (c - n / 4.0) * (c - n / 4.0) / (n / 4.0);
        }
        assertThat(chi2).isLessThan(21.1);
    }

    @Test
    void smallPowerOfTwoBoundsAreUniform() {
        RandomSource s = RandomSource.secure();
        for (long bound : new long[] {1, 2, 4, 8, 256, 3, 1000}) {
            int n = 20_000;
            int cells = (int) Math.min(bound, 8);
            long[] counts = new long[cells];
            for (int i = 0; i < n; i++) {
                long v = s.nextLong(bound);
                assertThat(v).isBetween(0L, bound - 1);
                counts[(int) (v * cells / bound)]++;
            }
            // chi-square with at most 7 degrees of freedom; 0.9999 quantile is 29.9
            double chi2 = 0;
            for (long c : counts) {
                double e = n / (double) cells;
                chi2 += (c - e) * (c - e) / e;
            }
            assertThat(chi2).as("bound %d", bound).isLessThan(29.9);
        }
    }

    @Test
    void everyBufferIsFreshKeystreamAndIndependentSourcesDiffer() {
        // fast key erasure: each 4 KiB buffer comes from a new key, so no buffer repeats an earlier one
        SecureRandomSource s = new SecureRandomSource();
        java.util.Set<Long> firstWords = new java.util.HashSet<>();
        for (int buffer = 0; buffer < 200; buffer++) {
            assertThat(firstWords.add(s.nextLong())).as("buffer %d starts with a fresh word", buffer).isTrue();
            for (int i = 1; i < 4096 / 8; i++) {
                s.nextLong();
            }
        }
        long[] a = new long[8];
        long[] b = new long[8];
        SecureRandomSource x = new SecureRandomSource();
        SecureRandomSource y = new SecureRandomSource();
        for (int i = 0; i < 8; i++) {
            a[i] = x.nextLong();
            b[i] = y.nextLong();
        }
        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void bulkWordsAndSplitsAreFreshAndBalanced() {
        RandomSource s = RandomSource.secure();
        long[] a = new long[5000];
        long[] b = new long[5000];
        s.nextLongs(a);
        s.split().nextLongs(b);
        java.util.Set<Long> seen = new java.util.HashSet<>();
        int ones = 0;
        for (int i = 0; i < a.length; i++) {
            seen.add(a[i]);
            seen.add(b[i]);
            ones += Long.bitCount(a[i]) + Long.bitCount(b[i]);
        }
        // 10,000 words from parent and child: no repeats (a repeat of 64-bit words has probability < 1e−11)
        assertThat(seen).hasSize(2 * a.length);
        double bits = 2.0 * a.length * 64;
        assertThat(Math.abs(ones - bits / 2)).isLessThan(6 * Math.sqrt(bits) / 2);
    }
}
