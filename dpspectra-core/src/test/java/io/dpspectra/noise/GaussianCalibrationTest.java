package io.dpspectra.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.privacy.PrivacyParams;
import org.junit.jupiter.api.Test;

class GaussianCalibrationTest {
    /** {ε, δ, σ for Δ = 1}: Balle & Wang (2018) values, cross-checked with scipy brentq on Φ. */
    private static final double[][] REFERENCE = {
        {1.0, 1e-5, 3.7306},
        {0.5, 1e-4, 5.894},
        {1.0, 1e-4, 3.186},
        {2.0, 1e-4, 1.734},
    };

    @Test
    void analyticSigmaMatchesPublishedValuesToOnePerMille() {
        for (double[] r : REFERENCE) {
            assertThat(GaussianNoise.analyticSigma(1, r[0], r[1])).as("eps=%s delta=%s", r[0], r[1])
                    .isCloseTo(r[2], within(1e-3 * r[2]));
        }
    }

    @Test
    void analyticSigmaAttainsTargetDeltaToOneEMinus9Relative() {
        for (double[] r : REFERENCE) {
            double sigma = GaussianNoise.analyticSigma(1, r[0], r[1]);
            assertThat(GaussianNoise.deltaFor(sigma, 1, r[0])).isCloseTo(r[1], within(1e-9 * r[1]))
                    .isLessThanOrEqualTo(r[1]);
        }
        // extreme regimes: large ε, tiny δ, tiny ε
        double[][] extreme = {{10, 1e-10}, {0.01, 1e-10}, {50, 1e-12}};
        for (double[] r : extreme) {
            double sigma = GaussianNoise.analyticSigma(1, r[0], r[1]);
            assertThat(GaussianNoise.deltaFor(sigma, 1, r[0])).isCloseTo(r[1], within(1e-9 * r[1]));
        }
    }

    @Test
    void analyticSigmaScalesLinearlyWithSensitivity() {
        double s1 = GaussianNoise.analyticSigma(1, 0.7, 1e-6);
        assertThat(GaussianNoise.analyticSigma(37.5, 0.7, 1e-6)).isCloseTo(37.5 * s1, within(1e-12 * 37.5 * s1));
    }

    @Test
    void deltaForDecreasesInSigmaAndInEpsilon() {
        double previous = 1;
        for (double sigma = 0.2; sigma < 20; sigma *= 1.3) {
            double d = GaussianNoise.deltaFor(sigma, 1, 1);
            assertThat(d).isLessThan(previous);
            previous = d;
        }
        assertThat(GaussianNoise.deltaFor(2, 1, 2)).isLessThan(GaussianNoise.deltaFor(2, 1, 1));
    }

    @Test
    void deltaForAtEpsilonZeroIsTotalVariationOfTwoGaussians() {
        // ε = 0: δ = Φ(Δ/2σ) − Φ(−Δ/2σ) = erf(Δ/(2√2 σ))
        double sigma = 1.7;
        assertThat(GaussianNoise.deltaFor(sigma, 1, 0))
                .isCloseTo(ErrorFunction.erf(1 / (2 * Math.sqrt(2) * sigma)), within(1e-15));
    }

    @Test
    void analyticIsNeverLargerThanClassicForEpsilonBelowOne() {
        for (double eps : new double[] {0.05, 0.3, 0.9}) {
            PrivacyParams p = PrivacyParams.of(eps, 1e-6);
            double classic = GaussianNoise.classicSigmaFor(1, p);
            // rounding allowance for 2^40 coordinates: relative increase ≤ 2^20·g/Δ ≤ 2^−23·σ/Δ
            assertThat(classic).isGreaterThan(Math.sqrt(2 * Math.log(1.25e6)) / eps)
                    .isCloseTo(Math.sqrt(2 * Math.log(1.25e6)) / eps, within(0x1.0p-22 * classic * classic));
            assertThat(GaussianNoise.sigmaFor(1, p)).isLessThan(classic);
            // the classic σ is indeed (ε, δ)-DP by the exact condition
            assertThat(GaussianNoise.deltaFor(classic, 1, eps)).isLessThanOrEqualTo(1e-6);
        }
    }

    @Test
    void classicCalibrationRefusesEpsilonAtLeastOne() {
        assertThatThrownBy(() -> GaussianNoise.classicSigmaFor(1, PrivacyParams.of(1.0, 1e-6)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("epsilon < 1").hasMessageContaining("got 1.0")
                .hasMessageContaining("sigmaFor");
    }

    @Test
    void sigmaForCoversTheRoundingInflatedSensitivityAndIsBarelyLarger() {
        for (double[] r : REFERENCE) {
            PrivacyParams p = PrivacyParams.of(r[0], r[1]);
            for (long m : new long[] {1, 1000, GaussianNoise.DEFAULT_COORDINATES}) {
                double sigma = GaussianNoise.sigmaFor(1, p, m);
                double g = GaussianNoise.granularity(sigma);
                double inflated = 1 + Math.sqrt(m) * g;
                assertThat(GaussianNoise.deltaFor(sigma, inflated, r[0])).isLessThanOrEqualTo(r[1]);
                double analytic = GaussianNoise.analyticSigma(1, r[0], r[1]);
                assertThat(sigma).isGreaterThanOrEqualTo(analytic).isCloseTo(analytic, within(1e-6 * analytic));
            }
        }
    }

    @Test
    void sigmaForNeedsPositiveDelta() {
        assertThatThrownBy(() -> GaussianNoise.sigmaFor(1, PrivacyParams.pure(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delta > 0").hasMessageContaining("got 0");
    }

    @Test
    void sigmaForRejectsNonPositiveSensitivity() {
        assertThatThrownBy(() -> GaussianNoise.sigmaFor(0, PrivacyParams.of(1, 1e-6)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the L2 sensitivity").hasMessageContaining("got 0.0");
    }
}
