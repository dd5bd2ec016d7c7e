package io.dpspectra.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ComposedGaussianTest {
    private static final PrivacyParams FIGURE_1 = PrivacyParams.of(0.8, 1 / Math.sqrt(2000));

    @Test
    void zcdpSigmaMatchesTheFigureOneReferenceValue() {
        // T = N = 2000 releases of sensitivity 2/N at (0.8, 2000^-1/2)
        assertThat(ComposedGaussian.zcdpSigma(2.0 / 2000, 2000, FIGURE_1)).isCloseTo(0.16184, within(5e-5));
    }

    @Test
    void zcdpRhoConvertsBackToTheTargetEpsilon() {
        double rho = ComposedGaussian.zcdpRho(FIGURE_1);
        double l = Math.log(1 / FIGURE_1.delta());
        assertThat(rho + 2 * Math.sqrt(rho * l)).isCloseTo(0.8, within(1e-12));
    }

    @Test
    void poissonNoiseMultiplierMatchesTheReferenceValue() {
        // q = 0.01, T = 2000, (0.8, 2000^-1/2) add/remove: z ≈ 1.787
        assertThat(ComposedGaussian.poissonNoiseMultiplier(0.01, 2000, FIGURE_1)).isCloseTo(1.787, within(0.01));
    }

    @Test
    void fullSamplingReducesToThePlainGaussianRenyiBound() {
        // q = 1: ε_RDP(α) = α/(2z²)
        assertThat(ComposedGaussian.rdp(1.0, 2.0, 5)).isCloseTo(5 / 8.0, within(1e-15));
        assertThat(ComposedGaussian.rdp(1 - 1e-12, 2.0, 5)).isCloseTo(5 / 8.0, within(1e-6));
    }

    @Test
    void epsilonDecreasesWithMoreNoiseAndGrowsWithMoreSteps() {
        double a = ComposedGaussian.poissonEpsilon(0.01, 1.0, 1000, 1e-5);
        double b = ComposedGaussian.poissonEpsilon(0.01, 2.0, 1000, 1e-5);
        double c = ComposedGaussian.poissonEpsilon(0.01, 2.0, 4000, 1e-5);
        assertThat(b).isLessThan(a);
        assertThat(c).isGreaterThan(b);
    }

    @Test
    void replaceTargetHalvesEpsilon() {
        PrivacyParams t = ComposedGaussian.addRemoveTargetForReplace(PrivacyParams.of(1.0, 1e-5));
        assertThat(t.epsilon()).isEqualTo(0.5);
        assertThat(t.delta()).isCloseTo(1e-5 / (1 + Math.exp(0.5)), within(1e-20));
    }

    @Test
    void badRateIsRefusedWithTheFix() {
        assertThatThrownBy(() -> ComposedGaussian.poissonNoiseMultiplier(1.5, 10, FIGURE_1))
                .hasMessageContaining("sampling rate").hasMessageContaining("batch size");
    }

    @Test
    void theZcdpCostOfAGaussianReleaseBoundsEveryGaussianMechanismMeetingItsEpsilonDelta() {
        for (double[] ed : new double[][] {{0.1, 1e-6}, {0.3, 1e-8}, {1, 1e-5}, {5, 1e-9}}) {
            PrivacyParams p = PrivacyParams.of(ed[0], ed[1]);
            double rho = io.dpspectra.noise.GaussianNoise.zcdpRho(p);
            double sigma = Math.sqrt(1 / (2 * rho)); // the sigma (sensitivity 1) whose rho is the bound
            // a slightly smaller sigma (larger rho) is no longer (epsilon, delta)-DP: the bound is tight
            assertThat(io.dpspectra.noise.GaussianNoise.deltaFor(sigma * (1 - 1e-6), 1,
                    ed[0])).isGreaterThan(ed[1]);
            // and converting rho back to (epsilon, delta) is lossy, never tighter than epsilon
            assertThat(ComposedGaussian.zcdpEpsilon(rho, ed[1])).isGreaterThanOrEqualTo(ed[0]);
        }
    }
}
