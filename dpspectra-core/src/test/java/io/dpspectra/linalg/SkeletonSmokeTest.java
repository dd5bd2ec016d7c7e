package io.dpspectra.linalg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SkeletonSmokeTest {
    @Test
    void eigenOfDiagonalMatrixIsSortedDescending() {
        Matrix a = Matrix.fromRows(new double[][] {{1, 0, 0}, {0, 3, 0}, {0, 0, 2}});
        SymmetricEigen e = SymmetricEigen.of(a);
        assertThat(e.values()).containsExactly(new double[] {3, 2, 1}, within(1e-12));
        SymmetricEigen t = SymmetricEigen.top(a, 1, Backend.PURE_JAVA);
        assertThat(t.values()[0]).isCloseTo(3, within(1e-12));
        assertThat(Math.abs(t.vectors().get(1, 0))).isCloseTo(1, within(1e-12));
    }

    @Test
    void gramMatchesNaiveProduct() {
        Matrix x = Matrix.fromRows(new double[][] {{1, 2}, {3, 4}, {5, 6}});
        Matrix g = Gram.of(x);
        assertThat(g.get(0, 0)).isCloseTo(35, within(1e-12));
        assertThat(g.get(0, 1)).isCloseTo(44, within(1e-12));
        assertThat(g.get(1, 0)).isCloseTo(44, within(1e-12));
        assertThat(g.get(1, 1)).isCloseTo(56, within(1e-12));
        Matrix q = Orthonormal.qr(x);
        assertThat(q.transposeTimes(q).get(0, 1)).isCloseTo(0, within(1e-12));
        ThinSvd s = ThinSvd.of(x);
        assertThat(s.singular()[0]).isGreaterThan(s.singular()[1]);
    }
}
