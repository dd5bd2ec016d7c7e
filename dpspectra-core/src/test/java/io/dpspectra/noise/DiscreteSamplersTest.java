package io.dpspectra.noise;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class DiscreteSamplersTest {
    private static final int N = 200_000;

    /** χ² critical value at α = 1e−3 for df degrees of freedom (Wilson–Hilferty, accurate to ~1%). */
    private static double chiSquareCritical(int df) {
        double z = 3.090232; // Φ^{-1}(1 − 1e−3)
        double a = 2.0 / (9 * df);
        return df * Math.pow(1 - a + z * Math.sqrt(a), 3);
    }

    /** χ² statistic of counts on support [−r, r] (tails pooled into the end cells) against pmf. */
    private static void assertChiSquareFits(long[] samples, java.util.function.LongToDoubleFunction pmf, int r) {
        double[] expectedP = new double[2 * r + 1];
        double total = 0;
        for (int x = -r; x <= r; x++) {
            expectedP[x + r] = pmf.applyAsDouble(x);
            total += expectedP[x + r];
        }
        // pool the mass beyond ±r into the end cells
        double tail = (1 - total) / 2;
        expectedP[0] += tail;
        expectedP[2 * r] += tail;
        long[] counts = new long[2 * r + 1];
        for (long s : samples) {
            int idx = (int) Math.max(-r, Math.min(r, s)) + r;
            counts[idx]++;
        }
        double chi2 = 0;
        for (int i = 0; i < counts.length; i++) {
            double e = expectedP[i] * samples.length;
            assertThat(e).as("expected count in cell %s", i - r).isGreaterThan(5);
            chi2 += (counts[i] - e) * (counts[i] - e) / e;
        }
        assertThat(chi2).isLessThan(chiSquareCritical(counts.length - 1));
    }

    @Test
    void discreteLaplaceWithIntegerScaleMatchesExactPmf() {
        RandomSource rnd = RandomSource.seededForReproducibility(11);
        long[] s = new long[N];
        for (int i = 0; i < N; i++) {
            s[i] = DiscreteSamplers.discreteLaplace(rnd, 2, 1);
        }
        double q = Math.exp(-1.0 / 2);
        assertChiSquareFits(s, x -> (1 - q) / (1 + q) * Math.pow(q, Math.abs(x)), 10);
    }

    @Test
    void discreteLaplaceWithDyadicScaleMatchesExactPmf() {
        // scale t/s = 5/4
        RandomSource rnd = RandomSource.seededForReproducibility(12);
        long[] s = new long[N];
        for (int i = 0; i < N; i++) {
            s[i] = DiscreteSamplers.discreteLaplace(rnd, 5, 4);
        }
        double q = Math.exp(-4.0 / 5);
        assertChiSquareFits(s, x -> (1 - q) / (1 + q) * Math.pow(q, Math.abs(x)), 6);
    }

    @Test
    void discreteGaussianMatchesExactPmf() {
        for (long sigma : new long[] {1, 3}) {
            RandomSource rnd = RandomSource.seededForReproducibility(13 + sigma);
            long[] s = new long[N];
            for (int i = 0; i < N; i++) {
                s[i] = DiscreteSamplers.discreteGaussian(rnd, sigma);
            }
            double norm = 0;
            for (int x = -100; x <= 100; x++) {
                norm += Math.exp(-x * (double) x / (2.0 * sigma * sigma));
            }
            final double z = norm;
            final long sg = sigma;
            assertChiSquareFits(s, x -> Math.exp(-x * (double) x / (2.0 * sg * sg)) / z, (int) (3 * sigma));
        }
    }

    @Test
    void bernoulliExpMinusHasProbabilityExpMinusGamma() {
        RandomSource rnd = RandomSource.seededForReproducibility(14);
        // γ = 1/3 (long path), 7/2 (integer part + fraction), and a 100-bit denominator (BigInteger path)
        BigInteger big = BigInteger.ONE.shiftLeft(100);
        Object[][] cases = {
            {BigInteger.ONE, BigInteger.valueOf(3)},
            {BigInteger.valueOf(7), BigInteger.valueOf(2)},
            {big.multiply(BigInteger.valueOf(3)).divide(BigInteger.valueOf(4)), big},
        };
        for (Object[] c : cases) {
            BigInteger num = (BigInteger) c[0];
            BigInteger den = (BigInteger) c[1];
            double p = Math.exp(-num.doubleValue() / den.doubleValue());
            int hits = 0;
            for (int i = 0; i < N; i++) {
                if (DiscreteSamplers.bernoulliExpMinus(rnd, num, den)) {
                    hits++;
                }
            }
            double se = Math.sqrt(p * (1 - p) / N);
            assertThat((double) hits / N).as("γ=%s/%s", num, den).isBetween(p - 5 * se, p + 5 * se);
        }
    }

    @Test
    void uniformBelowIsUniformOnSmallBound() {
        RandomSource rnd = RandomSource.seededForReproducibility(15);
        BigInteger bound = BigInteger.valueOf(7);
        long[] counts = new long[7];
        for (int i = 0; i < 70_000; i++) {
            counts[DiscreteSamplers.uniformBelow(rnd, bound).intValueExact()]++;
        }
        double chi2 = 0;
        for (long c : counts) {
            chi2 += (c - 10_000.0) * (c - 10_000.0) / 10_000.0;
        }
        assertThat(chi2).isLessThan(chiSquareCritical(6));
    }

    @Test
    void nextLongWithBoundStaysInRangeAndHitsBothEnds() {
        RandomSource rnd = RandomSource.seededForReproducibility(16);
        long bound = 3;
        boolean[] seen = new boolean[3];
        for (int i = 0; i < 1000; i++) {
            long v = rnd.nextLong(bound);
            assertThat(v).isBetween(0L, 2L);
            seen[(int) v] = true;
        }
        assertThat(seen).containsOnly(true);
        long huge = (1L << 62) + 12345;
        for (int i = 0; i < 1000; i++) {
            assertThat(rnd.nextLong(huge)).isBetween(0L, huge - 1);
        }
    }
}
