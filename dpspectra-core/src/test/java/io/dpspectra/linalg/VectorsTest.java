package io.dpspectra.linalg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.noise.RandomSource;
import org.junit.jupiter.api.Test;

class VectorsTest {
    /** Reference: BigDecimal-free Euclidean norm via Math.hypot folding (correctly scaled, no overflow). */
    private static double hypotNorm(double[] a, int off, int len) {
        double r = 0;
        for (int i = off; i < off + len; i++) {
            r = Math.hypot(r, a[i]);
        }
        return r;
    }

    @Test
    void norm2MatchesAScaledReferenceFromTinyToHugeEntries() {
        RandomSource r = RandomSource.seededForReproducibility(3);
        for (double scale : new double[] {1e-300, 1e-160, 1e-140, 1e-10, 1, 1e10, 1e150, 1e160, 1e300}) {
            double[] a = new double[37];
            for (int i = 0; i < a.length; i++) {
                a[i] = scale * r.standardNormal();
            }
            double expected = hypotNorm(a, 0, a.length);
            assertThat(Vectors.norm2(a)).as("scale %s", scale).isCloseTo(expected, within(1e-14 * expected));
            assertThat(Vectors.norm2(a, 5, 20)).as("slice at scale %s", scale)
                    .isCloseTo(hypotNorm(a, 5, 20), within(1e-14 * expected));
        }
    }

    @Test
    void norm2PropagatesNonFiniteEntries() {
        assertThat(Vectors.norm2(new double[] {1, Double.NaN})).isNaN();
        assertThat(Vectors.norm2(new double[] {1, Double.NEGATIVE_INFINITY})).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(Vectors.norm2(new double[] {0, 0})).isZero();
    }

    /** Every finite row is clipped onto the bound keeping its direction, including rows whose norm is not a double. */
    @Test
    void clipL2AndL1LandEveryFiniteRowOnTheBound() {
        double max = Double.MAX_VALUE;
        double[][] rows = {{3, 4}, {1e150, 1e150}, {-1e300, 1e300}, {max, max}, {max, -max}, {1e300, 0},
            {max, 1e-300}, {1e-300, 1e-300}};
        for (double bound : new double[] {1, 1e-10, 1e100}) {
            for (double[] row : rows) {
                double[] a = row.clone();
                boolean clipped = Vectors.clipL2InPlace(a, 0, a.length, bound);
                double n = Vectors.norm2(a);
                assertThat(n).as("L2 %s bound %s", java.util.Arrays.toString(row), bound).isLessThanOrEqualTo(bound);
                if (clipped) {
                    assertThat(n).isCloseTo(bound, within(1e-14 * bound));
                    // same direction: the ratio of the two entries is kept
                    assertThat(Math.signum(a[0])).isEqualTo(Math.signum(row[0]));
                    if (row[1] != 0 && Math.abs(row[1]) > 1e-200 * Math.abs(row[0])) {
                        assertThat(a[0] / a[1]).isCloseTo(row[0] / row[1], within(1e-14 * Math.abs(row[0] / row[1])));
                    }
                } else {
                    assertThat(a).containsExactly(row);
                }
                double[] b = row.clone();
                Vectors.clipL1InPlace(b, 0, b.length, bound);
                assertThat(Vectors.norm1(b)).as("L1 %s", java.util.Arrays.toString(row)).isLessThanOrEqualTo(bound)
                        .isGreaterThan(Vectors.norm1(row) > bound ? bound * (1 - 1e-14) : 0);
            }
        }
    }

    @Test
    void clippingARowWithANonFiniteEntryIsRefused() {
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Vectors.clipL2InPlace(new double[] {1, bad}, 0, 2, 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Vectors.clipL1InPlace(new double[] {1, bad}, 0, 2, 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite");
        }
    }

    /** The L2 clip of one row as it was written before rows were clipped several at a time: the reference bits. */
    private static boolean referenceClipL2(double[] a, int off, int len, double bound) {
        double l2 = Vectors.norm2(a, off, len);
        if (l2 <= bound) {
            return false;
        }
        double factor = bound / l2;
        if (factor >= Double.MIN_NORMAL) {
            Vectors.scaleInPlace(a, off, len, factor);
        } else {
            double m = 0;
            for (int i = off; i < off + len; i++) {
                m = Math.max(m, Math.abs(a[i]));
            }
            int e = Math.getExponent(m);
            for (int i = off; i < off + len; i++) {
                a[i] = Math.scalb(a[i], -e);
            }
            Vectors.scaleInPlace(a, off, len, bound / Vectors.norm2(a, off, len));
        }
        for (int step = 0; Vectors.norm2(a, off, len) > bound; step++) {
            Vectors.scaleInPlace(a, off, len, 1 - Vectors.shrinkStep(step));
        }
        return true;
    }

    private static long[] bits(double[] a) {
        long[] b = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = Double.doubleToRawLongBits(a[i]);
        }
        return b;
    }

    /**
     * Rows clipped several at a time end with the bits of the row-by-row clip, and say which were scaled, over row
     * scales from subnormal to near overflow, rows on the bound, zero rows, and counts that are not multiples of four.
     */
    @Test
    void clippingRowsSeveralAtATimeGivesTheBitsOfTheRowByRowClip() {
        RandomSource r = RandomSource.seededForReproducibility(11);
        double[] scales = {0, 1e-310, 1e-300, 1e-160, 1e-10, 0.3, 1, 2.4, 7, 1e10, 1e160, 1e300, 1e307, Double.MAX_VALUE};
        int checked = 0;
        int scaledRows = 0;
        for (int d : new int[] {1, 3, 7, 64, 201}) {
            for (int count : new int[] {1, 3, 4, 5, 13, 40}) {
                for (double bound : new double[] {1e-305, 1e-5, 1, 2.4, 1e300}) {
                    double[] a = new double[(count + 2) * d];
                    int[] offsets = new int[count];
                    for (int k = 0; k < count; k++) {
                        offsets[k] = (count - 1 - k + 1) * d;   // rows in reverse order, after a gap row
                        double scale = scales[(int) (r.nextDouble() * scales.length)];
                        for (int j = 0; j < d; j++) {
                            a[offsets[k] + j] = scale * (2 * r.nextDouble() - 1);   // finite even at MAX_VALUE
                        }
                    }
                    if (count > 2) {  // a row exactly on the bound
                        java.util.Arrays.fill(a, offsets[2], offsets[2] + d, 0.0);
                        a[offsets[2]] = -bound;
                    }
                    double[] expected = a.clone();
                    boolean[] expectedScaled = new boolean[count];
                    for (int k = 0; k < count; k++) {
                        expectedScaled[k] = referenceClipL2(expected, offsets[k], d, bound);
                    }
                    boolean[] scaled = new boolean[count];
                    Vectors.clipL2InPlace(a, offsets, count, d, bound, scaled);
                    String what = "d " + d + ", " + count + " rows, bound " + bound;
                    assertThat(bits(a)).as(what).containsExactly(bits(expected));
                    assertThat(scaled).as(what).containsExactly(expectedScaled);
                    double[] norms = new double[count];
                    Vectors.norms2(expected, offsets, count, d, norms);
                    for (int k = 0; k < count; k++) {
                        assertThat(Double.doubleToRawLongBits(norms[k])).as(what)
                                .isEqualTo(Double.doubleToRawLongBits(Vectors.norm2(expected, offsets[k], d)));
                        assertThat(norms[k]).as(what).isLessThanOrEqualTo(bound);
                        if (scaled[k]) {
                            scaledRows++;
                        }
                    }
                    checked += count;
                }
            }
        }
        assertThat(scaledRows).as("rows on both sides of the bounds").isBetween(checked / 10, checked - checked / 10);
    }

    @Test
    void clippingRowsSeveralAtATimeRefusesARowWithANonFiniteEntry() {
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY}) {
            double[] a = {3, 4, 0.1, 0.1, 1, bad, 0, 0, 5, 5};
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> Vectors.clipL2InPlace(a, new int[] {0, 2, 4, 6, 8}, 5, 2, 1.0, new boolean[5]))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite");
        }
    }
}
