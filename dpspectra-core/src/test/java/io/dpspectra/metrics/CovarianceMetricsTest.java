package io.dpspectra.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.linalg.Matrix;
import org.junit.jupiter.api.Test;

class CovarianceMetricsTest {

    @Test
    void errorIsTheFrobeniusNormOfTheDifferenceOverN() {
        Matrix c = Matrix.fromRows(new double[][] {{2, 1}, {1, 3}});
        Matrix e = c.plus(Matrix.fromRows(new double[][] {{3, 0}, {0, 4}}));
        assertThat(CovarianceMetrics.normalisedFrobeniusError(e, c, 10)).isCloseTo(0.5, within(1e-15));
        assertThat(CovarianceMetrics.normalisedFrobeniusError(c, c, 10)).isZero();
        assertThat(CovarianceMetrics.normalisedFrobeniusError(c, e, 10))
                .as("symmetric in its arguments").isCloseTo(0.5, within(1e-15));
    }

    @Test
    void hugeEntriesDoNotOverflow() {
        Matrix c = new Matrix(2, 2);
        Matrix e = Matrix.fromRows(new double[][] {{3e200, 0}, {0, 4e200}});
        assertThat(CovarianceMetrics.normalisedFrobeniusError(e, c, 1)).isCloseTo(5e200, within(1e186));
    }

    @Test
    void shapesAndNAreValidated() {
        Matrix a = new Matrix(2, 2);
        assertThatThrownBy(() -> CovarianceMetrics.normalisedFrobeniusError(a, new Matrix(3, 3), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 × 3");
        assertThatThrownBy(() -> CovarianceMetrics.normalisedFrobeniusError(a, a, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 0");
    }
}
