package io.dpspectra.noise;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import org.junit.jupiter.api.Test;

/**
 * The fast samplers of {@link DiscreteSamplers}: their floating-point shortcut never decides
 * differently from the exact comparison of the same uniform bits, and their output fits the exact
 * pmf (χ² at α = 1e−3).
 */
class FastDiscreteSamplersTest {
    private static final int N = 200_000;

    /** χ² critical value at α = 1e−3 (Wilson–Hilferty). */
    private static double chiSquareCritical(int df) {
        double z = 3.090232;
        double a = 2.0 / (9 * df);
        return df * Math.pow(1 - a + z * Math.sqrt(a), 3);
    }

    private static void assertChiSquareFits(long[] samples, java.util.function.LongToDoubleFunction pmf, int r) {
        double[] p = new double[2 * r + 1];
        double total = 0;
        for (int x = -r; x <= r; x++) {
            p[x + r] = pmf.applyAsDouble(x);
            total += p[x + r];
        }
        p[0] += (1 - total) / 2;
        p[2 * r] += (1 - total) / 2;
        long[] counts = new long[2 * r + 1];
        for (long s : samples) {
            counts[(int) Math.max(-r, Math.min(r, s)) + r]++;
        }
        double chi2 = 0;
        for (int i = 0; i < counts.length; i++) {
            double e = p[i] * samples.length;
            assertThat(e).as("expected count in cell %s", i - r).isGreaterThan(5);
            chi2 += (counts[i] - e) * (counts[i] - e) / e;
        }
        assertThat(chi2).isLessThan(chiSquareCritical(counts.length - 1));
    }

    private static double gaussianPmf(long x, long sigma) {
        double norm = 0;
        for (int k = -60 * (int) sigma; k <= 60 * sigma; k++) {
            norm += Math.exp(-k * (double) k / (2.0 * sigma * sigma));
        }
        return Math.exp(-x * (double) x / (2.0 * sigma * sigma)) / norm;
    }

    @Test
    void fastDiscreteGaussianMatchesExactPmfForSmallSigma() {
        for (long sigma : new long[] {1, 3, 10}) {
            RandomSource rnd = RandomSource.seededForReproducibility(100 + sigma);
            long[] s = new long[N];
            for (int i = 0; i < N; i++) {
                s[i] = DiscreteSamplers.discreteGaussian(rnd, sigma);
            }
            final long sg = sigma;
            assertChiSquareFits(s, x -> gaussianPmf(x, sg), (int) (3 * sigma));
        }
    }

    @Test
    void referenceDiscreteGaussianMatchesExactPmf() {
        RandomSource rnd = RandomSource.seededForReproducibility(110);
        long[] s = new long[N / 2];
        for (int i = 0; i < s.length; i++) {
            s[i] = DiscreteSamplers.discreteGaussianReference(rnd, 3);
        }
        assertChiSquareFits(s, x -> gaussianPmf(x, 3), 9);
    }

    @Test
    void fastDiscreteLaplaceMatchesExactPmfAtSmallAndLargeScales() {
        // small and large t, including t ≈ 2^53 where the exact fallback runs most often
        long[][] ts = {{1, 1}, {3, 2}, {3L << 17, 1L << 17}, {(1L << 53) - 1, 1L << 50}};
        for (long[] c : ts) {
            long t = c[0];
            long sc = c[1];
            RandomSource rnd = RandomSource.seededForReproducibility(120 + t);
            long[] s = new long[N];
            for (int i = 0; i < N; i++) {
                s[i] = DiscreteSamplers.discreteLaplace(rnd, t, sc);
            }
            double q = Math.exp(-(double) sc / t);
            assertChiSquareFits(s, x -> (1 - q) / (1 + q) * Math.pow(q, Math.abs(x)), 8);
        }
    }

    /** The fast decision on (w, γ̃ ± err), when it decides, equals the exact [U &lt; exp(−num/den)]. */
    private static int checkSame(long w, long num, long den, long extensionSeed) {
        double gamma = (double) num / den;
        int fast = DiscreteSamplers.lessThanExpMinusFast(w, gamma, 0x1.0p-51 * gamma);
        boolean exact = DiscreteSamplers.uniformBelowExpMinus(
                new DiscreteSamplers.LazyUniform(RandomSource.seededForReproducibility(extensionSeed), w),
                BigInteger.valueOf(num), BigInteger.valueOf(den));
        if (fast != DiscreteSamplers.UNDECIDED) {
            assertThat(fast == 1).as("w=%s, γ=%s/%s", Long.toUnsignedString(w), num, den).isEqualTo(exact);
            return 1;
        }
        return 0;
    }

    @Test
    void fastBernoulliExpMinusDecisionEqualsExactDecisionOnTheSameBits() {
        RandomSource rnd = RandomSource.seededForReproducibility(130);
        int decided = 0;
        int cases = 0;
        long[] dens = {1, 3, 1000, 1L << 20, (1L << 44) + 1, (1L << 52) - 1};
        for (int i = 0; i < 4000; i++) {
            long den = dens[i % dens.length];
            // γ from ~1e−15 (near 0) through the polynomial range (≤ 1) to large γ (up to 700)
            double scale = switch (i % 4) {
                case 0 -> 1e-12;
                case 1 -> 1;
                case 2 -> 20;
                default -> 700;
            };
            long num = (long) Math.floor(rnd.nextDouble() * scale * den);
            double p = Math.exp(-(double) num / den);
            // U uniform, or within a few ulps of p (relative 2^−52 .. 2^−40), or within a few units of 2^−64
            long wUniform = rnd.nextLong();
            double rel = Math.scalb((double) (1 + rnd.nextLong(16)), -52 + (int) rnd.nextLong(13))
                    * (rnd.nextBoolean() ? 1 : -1);
            double near = Math.min(p * (1 + rel), Math.nextDown(1.0));
            long wNear = near >= 0.5 ? (long) (near * 0x1.0p63) << 1 : (long) (near * 0x1.0p64);
            long wUlp = wNear + rnd.nextLong(9) - 4;
            for (long w : new long[] {wUniform, wNear, wUlp}) {
                decided += checkSame(w, num, den, i);
                cases++;
            }
        }
        // the shortcut must actually decide most cases (else the test would check nothing)
        assertThat(decided).isGreaterThan(cases / 2);
    }

    @Test
    void exactComparisonAgreesWithDoubleWhereTheMarginIsLarge() {
        // an independent check of uniformBelowExpMinus: far from the boundary a double decides safely
        RandomSource rnd = RandomSource.seededForReproducibility(131);
        int checked = 0;
        for (int i = 0; i < 3000; i++) {
            long den = 1 + rnd.nextLong(1000);
            long num = rnd.nextLong(5 * den);
            long w = rnd.nextLong();
            double u = DiscreteSamplers.unsignedToDouble(w) * 0x1.0p-64;
            double p = Math.exp(-(double) num / den);
            if (Math.abs(u - p) < 1e-9) {
                continue;
            }
            boolean exact = DiscreteSamplers.uniformBelowExpMinus(
                    new DiscreteSamplers.LazyUniform(rnd, w), BigInteger.valueOf(num), BigInteger.valueOf(den));
            assertThat(exact).as("u=%s, p=%s", u, p).isEqualTo(u < p);
            checked++;
        }
        assertThat(checked).isGreaterThan(2900);
    }

    /** A source that hands out the given words first, then those of a seeded source. */
    private static RandomSource wordsThen(long seed, long... first) {
        RandomSource rest = RandomSource.seededForReproducibility(seed);
        return new RandomSource() {
            private int next;

            @Override
            public long nextLong() {
                return next < first.length ? first[next++] : rest.nextLong();
            }

            @Override
            public RandomSource split() {
                throw new UnsupportedOperationException();
            }

            @Override
            public boolean isSeeded() {
                return true;
            }
        };
    }

    /**
     * The geometric (one word when U has at most 3 leading zeros, else two) equals the exact ⌊t·(−ln U)⌋ of
     * the same U, for small and large t and for words with many leading zeros.
     */
    @Test
    void fastGeometricEqualsExactGeometricOnTheSameBits() {
        RandomSource rnd = RandomSource.seededForReproducibility(133);
        for (long t : new long[] {1, 2, 7, 1000, 1L << 16, (1L << 16) + 1, 3L << 40, (1L << 44) - 17,
            (1L << 53) - 1}) {
            for (int i = 0; i < 60; i++) {
                long w1 = i % 4 == 0 ? rnd.nextLong() >>> rnd.nextLong(64) : rnd.nextLong();
                long w2 = rnd.nextLong();
                long seed = 2000L * i + t;
                long fast = DiscreteSamplers.geometric(wordsThen(seed, w1, w2), t, t);
                long fromWords = DiscreteSamplers.geometricFromWords(RandomSource.seededForReproducibility(seed),
                        w1, w2, t, t);
                long exact = DiscreteSamplers.geometricExact(new DiscreteSamplers.LazyUniform(
                        RandomSource.seededForReproducibility(seed), w1, w2), t, 0, -1);
                assertThat(fast).as("t=%s, w1=%s, w2=%s", t, Long.toUnsignedString(w1), Long.toUnsignedString(w2))
                        .isEqualTo(exact);
                assertThat(fromWords).isEqualTo(exact);
            }
        }
    }

    /**
     * Words chosen so that t·(−ln U) lies within about t·2^−128 of an integer K: the double-double
     * floor cannot decide, and the exact fallback must give the same X as the exact sampler.
     */
    @Test
    void twoWordGeometricFallsBackCorrectlyNextToAnInteger() {
        MathContext mc = new MathContext(60);
        RandomSource rnd = RandomSource.seededForReproducibility(134);
        for (long t : new long[] {3L << 40, (1L << 53) - 1}) {
            for (int i = 0; i < 12; i++) {
                long k = t / 7 + rnd.nextLong(t);
                // U* = exp(−k/t) to 60 digits; the 128-bit words just below and at U*
                BigDecimal u = expMinus(new BigDecimal(k).divide(new BigDecimal(t), mc), mc);
                BigInteger a = u.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(128))).toBigInteger();
                for (BigInteger cand : new BigInteger[] {a.subtract(BigInteger.ONE), a, a.add(BigInteger.ONE)}) {
                    long w1 = cand.shiftRight(64).longValue();
                    long w2 = cand.longValue();
                    long seed = 3000L * i + t;
                    long fast = DiscreteSamplers.geometricFromWords(
                            RandomSource.seededForReproducibility(seed), w1, w2, t, t);
                    long exact = DiscreteSamplers.geometricExact(new DiscreteSamplers.LazyUniform(
                            RandomSource.seededForReproducibility(seed), w1, w2), t, 0, -1);
                    assertThat(fast).as("t=%s, k=%s", t, k).isEqualTo(exact);
                    assertThat(Math.abs(exact - k)).isLessThanOrEqualTo(1);
                }
            }
        }
    }

    /** exp(−y) for 0 ≤ y ≤ 1 by its Taylor series, to the precision of mc. */
    private static BigDecimal expMinus(BigDecimal y, MathContext mc) {
        BigDecimal sum = BigDecimal.ZERO;
        BigDecimal term = BigDecimal.ONE;
        for (int i = 1; term.abs().compareTo(BigDecimal.ONE.movePointLeft(mc.getPrecision() + 2)) > 0; i++) {
            sum = sum.add(term, mc);
            term = term.multiply(y.negate(), mc).divide(BigDecimal.valueOf(i), mc);
        }
        return sum;
    }

    /** The double-double −ln U of the two-word path is within its stated error bound of the true value. */
    @Test
    void twoWordLogarithmIsWithinItsErrorBound() {
        MathContext mc = new MathContext(50);
        BigDecimal ln2 = LogTableTest.lnBig(BigDecimal.valueOf(2), mc);
        RandomSource rnd = RandomSource.seededForReproducibility(135);
        double[] out = new double[2];
        double worst = 0;
        long[][] edges = {{-1L, -1L}, {1L, 0L}, {1L, -1L}, {Long.MIN_VALUE, 0L}, {Long.MIN_VALUE, 1L},
            {0xBFFF_FFFF_FFFF_FFFFL, -1L}, {0xC000_0000_0000_0000L, 0L}, {-2L, 12345L}};
        for (int i = 0; i < 4000 + edges.length; i++) {
            long w1;
            long w2;
            if (i < edges.length) {
                w1 = edges[i][0];
                w2 = edges[i][1];
            } else {
                w1 = rnd.nextLong() >>> (i % 3 == 0 ? rnd.nextLong(64) : 0);
                w2 = rnd.nextLong();
                if (w1 == 0) {
                    continue;
                }
            }
            int z = DiscreteSamplers.minusLogTwoWords(w1, w2, out);
            assertThat(z).isEqualTo(Long.numberOfLeadingZeros(w1));
            BigInteger m = new BigInteger(Long.toUnsignedString(w1)).shiftLeft(64)
                    .or(new BigInteger(Long.toUnsignedString(w2)));
            BigDecimal x = new BigDecimal(m.shiftLeft(z)).divide(new BigDecimal(BigInteger.ONE.shiftLeft(128)), mc);
            BigDecimal truth = ln2.multiply(BigDecimal.valueOf(z)).subtract(LogTableTest.lnBig(x, mc), mc);
            double err = new BigDecimal(out[0]).add(new BigDecimal(out[1])).subtract(truth).abs().doubleValue();
            worst = Math.max(worst, err);
            assertThat(err).as("w1=%s, w2=%s", Long.toUnsignedString(w1), Long.toUnsignedString(w2))
                    .isLessThanOrEqualTo(DiscreteSamplers.LOG_ERROR);
        }
        // measured worst about 2^−80: the bound has room to spare
        assertThat(worst).isLessThan(DiscreteSamplers.LOG_ERROR / 4);
        System.out.println("worst " + Math.getExponent(worst));
    }
}
