package io.dpspectra.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ExponentialMechanismTest {

    @Test
    void drawsFollowTheExponentialWeights() {
        double[] utilities = {0, -1, -2.5, Double.NEGATIVE_INFINITY, -0.3, -7};
        double epsilon = 2;
        double[] p = new double[utilities.length];
        double total = 0;
        for (int i = 0; i < p.length; i++) {
            p[i] = Math.exp(epsilon * utilities[i] / 2);
            total += p[i];
        }
        RandomSource random = RandomSource.seededForReproducibility(17);
        int n = 200_000;
        long[] counts = new long[utilities.length];
        for (int t = 0; t < n; t++) {
            counts[ExponentialMechanism.sample(utilities, 1, epsilon, random)]++;
        }
        assertThat(counts[3]).as("an excluded candidate").isZero();
        double chi2 = 0;
        for (int i = 0; i < p.length; i++) {
            if (i != 3) {
                double expected = n * p[i] / total;
                chi2 += (counts[i] - expected) * (counts[i] - expected) / expected;
            }
        }
        // 4 degrees of freedom: the 0.999 quantile is 18.47
        assertThat(chi2).isLessThan(18.47);
    }

    @Test
    void exactBernoulliMatchesExpMinusGammaIncludingTinyAndLargeExponents() {
        RandomSource random = RandomSource.seededForReproducibility(3);
        for (double gamma : new double[] {0.25, 1.0, 2.75}) {
            int n = 100_000;
            int hits = 0;
            for (int t = 0; t < n; t++) {
                hits += ExponentialMechanism.acceptExpMinus(gamma, random) ? 1 : 0;
            }
            double p = Math.exp(-gamma);
            double sd = Math.sqrt(n * p * (1 - p));
            assertThat(Math.abs(hits - n * p)).as("gamma " + gamma).isLessThan(5 * sd);
        }
        // a subnormal exponent is accepted (almost) always, a huge one never
        assertThat(ExponentialMechanism.acceptExpMinus(Double.MIN_VALUE, random)).isTrue();
        assertThat(ExponentialMechanism.acceptExpMinus(1e6, random)).isFalse();
        assertThat(ExponentialMechanism.acceptExpMinus(Double.POSITIVE_INFINITY, random)).isFalse();
    }

    @Test
    void aCandidateFarBelowTheBestIsStillPossibleInPrincipleButNeverWithInfiniteLoss() {
        // weights 1 and e^-40 (about 4e-18, below the 2^-53 resolution of a cumulative double draw):
        // the draw must terminate and pick the best nearly always
        RandomSource random = RandomSource.seededForReproducibility(9);
        for (int t = 0; t < 1000; t++) {
            assertThat(ExponentialMechanism.sample(new double[] {-80, 0}, 1, 1, random)).isEqualTo(1);
        }
    }

    @Test
    void badArgumentsAreRefused() {
        RandomSource random = RandomSource.seededForReproducibility(1);
        assertThatThrownBy(() -> ExponentialMechanism.sample(new double[0], 1, 1, random))
                .hasMessageContaining("at least one candidate");
        assertThatThrownBy(() -> ExponentialMechanism.sample(new double[] {Double.NaN}, 1, 1, random))
                .hasMessageContaining("not a finite number");
        assertThatThrownBy(() -> ExponentialMechanism.sample(
                new double[] {Double.NEGATIVE_INFINITY}, 1, 1, random)).hasMessageContaining("every candidate");
    }
}
