package io.dpspectra.covariance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import org.junit.jupiter.api.Test;

class EigenvalueClampTest {

    @Test
    void eigenvaluesAreMovedOntoTheBoundsAndVectorsKept() {
        // eigenvalues 5, −1 on the basis (1, 1)/√2, (1, −1)/√2
        Matrix m = Matrix.fromRows(new double[][] {{2, 3}, {3, 2}});
        EigenvalueClamp.Result r = EigenvalueClamp.clamp(m, 0, 4);
        assertThat(r.clamped()).isEqualTo(2);
        // clamped: 4 on (1,1)/√2 and 0 on (1,−1)/√2 → [[2, 2], [2, 2]]
        assertThat(r.matrix().get(0, 0)).isCloseTo(2, within(1e-12));
        assertThat(r.matrix().get(0, 1)).isCloseTo(2, within(1e-12));
        assertThat(r.matrix().get(1, 0)).isCloseTo(2, within(1e-12));
        double[] ev = SymmetricEigen.of(r.matrix()).values();
        assertThat(ev).containsExactly(new double[] {4, 0}, within(1e-12));
    }

    @Test
    void matrixInsideTheBoundsIsUnchanged() {
        Matrix m = Matrix.fromRows(new double[][] {{2, 1}, {1, 2}});
        EigenvalueClamp.Result r = EigenvalueClamp.clamp(m, 0, Double.POSITIVE_INFINITY);
        assertThat(r.clamped()).isZero();
        assertThat(r.matrix().minus(m).maxAbs()).isLessThan(1e-15);
    }
}
