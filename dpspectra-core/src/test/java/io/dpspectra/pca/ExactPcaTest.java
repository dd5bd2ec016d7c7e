package io.dpspectra.pca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.result.PrivateSubspace;
import org.junit.jupiter.api.Test;

class ExactPcaTest {

    @Test
    void recoversTheTopEigenpairsOfTheSecondMoment() {
        // rows along e2 (norm 3) and e1 (norm 1): XᵀX = diag(2, 18, 0.25)
        double[][] rows = {{1, 0, 0}, {-1, 0, 0}, {0, 3, 0}, {0, -3, 0}, {0, 0, 0.5}};
        PrivateSubspace fit = ExactPca.builder().components(2).build().fit(InMemoryRows.of(rows));
        double[] ev = fit.explainedVariance().orElseThrow();
        assertThat(ev).containsExactly(new double[] {18, 2}, within(1e-12));
        Matrix u = fit.components();
        assertThat(Math.abs(u.get(1, 0))).isCloseTo(1, within(1e-12));
        assertThat(Math.abs(u.get(0, 1))).isCloseTo(1, within(1e-12));
    }

    @Test
    void resultSaysItIsNotPrivate() {
        PrivateSubspace fit = ExactPca.builder().components(1).build()
                .fit(InMemoryRows.of(new double[][] {{1, 2}, {3, 4}}));
        assertThat(fit.guarantee()).isEmpty();
        assertThat(fit.diagnostics().get("private")).isEqualTo(false);
        assertThat((String) fit.diagnostics().get("warning")).contains("NOT differentially private");
    }

    @Test
    void moreComponentsThanColumnsAreRejected() {
        ExactPca pca = ExactPca.builder().components(3).build();
        assertThatThrownBy(() -> pca.fit(InMemoryRows.of(new double[][] {{1, 2}})))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("components k").hasMessageContaining("3");
    }
}
