package io.dpspectra.linalg;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The reproducible sum gives the same bits for the same summands in any order and any merge tree, is
 * as accurate as its definition promises (checked against exact decimal sums), and follows IEEE for
 * infinities and NaNs.
 */
class ReproducibleSumTest {
    private static final int LENGTH = 7;

    /** Summands of very different sizes and both signs, with cancellation, subnormals and exact zeros. */
    private static List<double[]> summands(int count, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<double[]> out = new ArrayList<>();
        for (int a = 0; a < count; a++) {
            double[] x = new double[LENGTH];
            x[0] = r.nextGaussian();                                    // ordinary
            x[1] = r.nextGaussian() * Math.pow(2, r.nextInt(-200, 200)); // wide exponent range
            x[2] = (a % 2 == 0 ? 1 : -1) * 1e16 + r.nextDouble();        // heavy cancellation
            x[3] = r.nextDouble() * Double.MIN_NORMAL;                   // subnormal
            x[4] = a % 3 == 0 ? 0.0 : -0.0;                              // zeros
            x[5] = r.nextGaussian() * 1e300;                             // near the top of the range
            x[6] = r.nextInt(1000) * 0.1;                                // decimals whose sum rounds
            out.add(x);
        }
        return out;
    }

    private static double[] sumInOrder(List<double[]> xs) {
        ReproducibleSum s = new ReproducibleSum(LENGTH);
        for (double[] x : xs) {
            s.add(x, 0);
        }
        double[] out = new double[LENGTH];
        s.round(out, 0);
        return out;
    }

    /** A random binary merge tree over random groups of the summands. */
    private static double[] sumInRandomTree(List<double[]> xs, SplittableRandom r) {
        List<ReproducibleSum> parts = new ArrayList<>();
        ReproducibleSum current = new ReproducibleSum(LENGTH);
        for (double[] x : xs) {
            current.add(x, 0);
            if (r.nextInt(5) == 0) {
                parts.add(current);
                current = new ReproducibleSum(LENGTH);
            }
        }
        parts.add(current);
        while (parts.size() > 1) {
            ReproducibleSum a = parts.remove(r.nextInt(parts.size()));
            ReproducibleSum b = parts.remove(r.nextInt(parts.size()));
            if (r.nextBoolean()) {
                a.merge(b);
                parts.add(a);
            } else {
                b.merge(a);
                parts.add(b);
            }
        }
        double[] out = new double[LENGTH];
        parts.get(0).round(out, 0);
        return out;
    }

    @Test
    void theSameSummandsGiveTheSameBitsInAnyOrderAndMergeTree() {
        List<double[]> xs = summands(500, 1);
        double[] reference = sumInOrder(xs);
        SplittableRandom r = new SplittableRandom(2);
        for (int trial = 0; trial < 20; trial++) {
            List<double[]> shuffled = new ArrayList<>(xs);
            Collections.shuffle(shuffled, new java.util.Random(trial));   // test data order only, not noise
            assertThat(sumInOrder(shuffled)).isEqualTo(reference);
            assertThat(sumInRandomTree(shuffled, r)).isEqualTo(reference);
        }
        // a plain double sum does depend on the order here: the test data are hard enough to tell
        double forward = 0;
        double backward = 0;
        for (int a = 0; a < xs.size(); a++) {
            forward += xs.get(a)[1];
            backward += xs.get(xs.size() - 1 - a)[1];
        }
        assertThat(forward).isNotEqualTo(backward);
    }

    @Test
    void theResultIsTheExactSumToWithinTheDefinitionsBound() {
        List<double[]> xs = summands(300, 3);
        double[] got = sumInOrder(xs);
        for (int i = 0; i < LENGTH; i++) {
            BigDecimal exact = BigDecimal.ZERO;
            double max = 0;
            for (double[] x : xs) {
                exact = exact.add(new BigDecimal(x[i]));
                max = Math.max(max, Math.abs(x[i]));
            }
            double rounded = exact.round(MathContext.DECIMAL128).doubleValue();
            // the kept bits reach 2^-64 of the largest summand (one dropped slice per summand at most), and
            // the final conversion is within an ulp or two
            double bound = xs.size() * Math.scalb(max, -64) + 2 * Math.ulp(rounded);
            assertThat(Math.abs(got[i] - rounded)).as("entry %d", i).isLessThanOrEqualTo(bound);
        }
        assertThat(got[4]).isZero();
        // every bit of these summands is kept: the result is the exact sum rounded, to within an ulp
        assertThat(Math.abs(got[6] - exactlyRounded(xs, 6))).isLessThanOrEqualTo(Math.ulp(got[6]));
    }

    private static double exactlyRounded(List<double[]> xs, int i) {
        BigDecimal exact = BigDecimal.ZERO;
        for (double[] x : xs) {
            exact = exact.add(new BigDecimal(x[i]));
        }
        return exact.doubleValue();
    }

    @Test
    void cancellationLeavesTheExactSmallRemainder() {
        ReproducibleSum s = new ReproducibleSum(1);
        s.add(new double[] {1e20}, 0);
        s.add(new double[] {3.0}, 0);
        s.add(new double[] {-1e20}, 0);
        assertThat(s.round(0)).isEqualTo(3.0);   // a plain sum in this order gives 0
    }

    @Test
    void infinitiesAndNanFollowIeeeWhateverTheOrder() {
        double inf = Double.POSITIVE_INFINITY;
        assertThat(sum(1.0, inf, 2.0)).isEqualTo(inf);
        assertThat(sum(-inf, 1.0)).isEqualTo(-inf);
        assertThat(sum(inf, 1.0, -inf)).isNaN();
        assertThat(sum(1.0, Double.NaN)).isNaN();
        assertThat(sum()).isZero();
        assertThat(sum(Double.MAX_VALUE, Double.MAX_VALUE)).isEqualTo(inf);   // the true sum overflows
        assertThat(sum(Double.MIN_VALUE, Double.MIN_VALUE)).isEqualTo(2 * Double.MIN_VALUE);
    }

    private static double sum(double... values) {
        ReproducibleSum s = new ReproducibleSum(1);
        for (double v : values) {
            s.add(new double[] {v}, 0);
        }
        return s.round(0);
    }

    @Test
    void aCopyIsIndependentAndSerialisationKeepsTheSum() throws Exception {
        List<double[]> xs = summands(50, 4);
        ReproducibleSum s = new ReproducibleSum(LENGTH);
        for (double[] x : xs.subList(0, 25)) {
            s.add(x, 0);
        }
        ReproducibleSum copy = s.copy();
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(s);
        }
        ReproducibleSum back;
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(
                new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            back = (ReproducibleSum) in.readObject();
        }
        for (double[] x : xs.subList(25, 50)) {
            s.add(x, 0);
            back.add(x, 0);
        }
        double[] a = new double[LENGTH];
        double[] b = new double[LENGTH];
        double[] c = new double[LENGTH];
        s.round(a, 0);
        back.round(b, 0);
        copy.round(c, 0);
        assertThat(b).isEqualTo(a).isEqualTo(sumInOrder(xs));
        assertThat(c).isEqualTo(sumInOrder(xs.subList(0, 25)));
    }
}
