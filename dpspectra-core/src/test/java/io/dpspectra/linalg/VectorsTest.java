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
}
