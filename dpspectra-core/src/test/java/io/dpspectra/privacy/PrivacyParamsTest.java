package io.dpspectra.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PrivacyParamsTest {
    @Test
    void epsilonNanIsRejectedNamingParameterValueAndRemedy() {
        assertThatThrownBy(() -> PrivacyParams.of(Double.NaN, 1e-6)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("epsilon").hasMessageContaining("got NaN").hasMessageContaining("--epsilon");
    }

    @Test
    void epsilonZeroIsRejected() {
        assertThatThrownBy(() -> PrivacyParams.of(0, 1e-6)).hasMessageContaining("epsilon must be > 0")
                .hasMessageContaining("got 0.0");
    }

    @Test
    void epsilonNegativeIsRejected() {
        assertThatThrownBy(() -> PrivacyParams.of(-1, 0)).hasMessageContaining("got -1.0");
    }

    @Test
    void epsilonInfiniteIsRejected() {
        assertThatThrownBy(() -> PrivacyParams.of(Double.POSITIVE_INFINITY, 0)).hasMessageContaining("finite")
                .hasMessageContaining("got Infinity");
    }

    @Test
    void deltaOneIsRejectedNamingParameterValueAndRemedy() {
        assertThatThrownBy(() -> PrivacyParams.of(1, 1.0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delta must be in [0, 1)").hasMessageContaining("got 1.0")
                .hasMessageContaining("--delta");
    }

    @Test
    void deltaNegativeIsRejected() {
        assertThatThrownBy(() -> PrivacyParams.of(1, -1e-9)).hasMessageContaining("got -1.0E-9");
    }

    @Test
    void deltaNanIsRejected() {
        assertThatThrownBy(() -> PrivacyParams.of(1, Double.NaN)).hasMessageContaining("delta")
                .hasMessageContaining("got NaN");
    }

    @Test
    void deltaZeroIsPureDp() {
        assertThat(PrivacyParams.pure(0.5).isPure()).isTrue();
        assertThat(PrivacyParams.of(0.5, 1e-9).isPure()).isFalse();
    }

    @Test
    void scaledSplitsBothParameters() {
        PrivacyParams p = PrivacyParams.of(1, 1e-6).scaled(0.25);
        assertThat(p.epsilon()).isEqualTo(0.25);
        assertThat(p.delta()).isEqualTo(2.5e-7);
    }

    @Test
    void componentsOutOfRangeNameBoundsValueAndRemedy() {
        assertThatThrownBy(() -> DpPreconditions.checkComponents(0, 5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("k must satisfy 1 ≤ k ≤ d = 5").hasMessageContaining("got k = 0")
                .hasMessageContaining("columns");
        assertThatThrownBy(() -> DpPreconditions.checkComponents(6, 5)).hasMessageContaining("got k = 6");
        assertThat(DpPreconditions.checkComponents(5, 5)).isEqualTo(5);
        assertThat(DpPreconditions.checkComponents(1, 5)).isEqualTo(1);
    }

    @Test
    void positiveDeltaCheckNamesTheMechanism() {
        assertThatThrownBy(() -> DpPreconditions.checkPositiveDelta(0, "the Gaussian mechanism"))
                .hasMessageContaining("the Gaussian mechanism needs delta > 0, got 0")
                .hasMessageContaining("pure-DP");
    }

    @Test
    void sensitivityCheckNamesParameterValueAndRemedy() {
        assertThatThrownBy(() -> DpPreconditions.checkSensitivity("l1Sensitivity", -2))
                .hasMessageContaining("l1Sensitivity must be > 0").hasMessageContaining("got -2.0")
                .hasMessageContaining("never from the data");
    }
}
