package io.dpspectra.synthetic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import org.junit.jupiter.api.Test;

class WangXuCovarianceTest {

    @Test
    void populationHasTheEigenvaluesOfEquationSeven() {
        // top k eigenvalues 1/(5p), the rest 1/(5p(lambda+1)) (Wang & Xu eq. (7))
        SyntheticDataset d = WangXuCovariance.dense(10, 40, 5, 1.0, 3);
        double[] ev = SymmetricEigen.of(d.populationSecondMoment()).values();
        for (int j = 0; j < 40; j++) {
            assertThat(ev[j]).isCloseTo(j < 5 ? 1.0 / 200 : 1.0 / 400, within(1e-12));
        }
        Matrix v = d.truthBasis();
        assertThat(v.transposeTimes(v).minus(Matrix.identity(5)).maxAbs()).isLessThan(1e-12);
    }

    @Test
    void sparseBasisIsSupportedOnExactlySRows() {
        SyntheticDataset d = WangXuCovariance.sparse(10, 100, 10, 20, 1.0, 4);
        assertThat(WangXuCovariance.support(d.truthBasis())).hasSize(20);
        Matrix v = d.truthBasis();
        assertThat(v.transposeTimes(v).minus(Matrix.identity(10)).maxAbs()).isLessThan(1e-12);
        // a different seed puts the support elsewhere
        assertThat(WangXuCovariance.support(WangXuCovariance.sparse(10, 100, 10, 20, 1.0, 5).truthBasis()))
                .isNotEqualTo(WangXuCovariance.support(v));
    }

    @Test
    void badShapesAreRefused() {
        assertThatThrownBy(() -> WangXuCovariance.sparse(10, 10, 5, 4, 1.0, 1)).hasMessageContaining("k <= s <= p");
        assertThatThrownBy(() -> WangXuCovariance.dense(10, 10, 2, 0, 1)).hasMessageContaining("signal strength");
    }
}
