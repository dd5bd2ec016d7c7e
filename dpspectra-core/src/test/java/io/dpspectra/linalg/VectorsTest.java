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
}
