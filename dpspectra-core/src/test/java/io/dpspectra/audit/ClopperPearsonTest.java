package io.dpspectra.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ClopperPearsonTest {

    @Test
    void zeroSuccessesHaveTheClosedFormUpperBound() {
        // P(0 successes) = (1−p)^n = 1−c at the bound
        for (int n : new int[] {1, 10, 1000, 50_000}) {
            double expected = 1 - Math.pow(0.05, 1.0 / n);
            assertThat(ClopperPearson.upperBound(0, n, 0.95)).isCloseTo(expected, within(1e-12 * expected + 1e-16));
            assertThat(ClopperPearson.lowerBound(0, n, 0.95)).isEqualTo(0);
        }
    }

    @Test
    void allSuccessesHaveTheClosedFormLowerBound() {
        assertThat(ClopperPearson.lowerBound(20, 20, 0.9)).isCloseTo(Math.pow(0.1, 1.0 / 20), within(1e-12));
        assertThat(ClopperPearson.upperBound(20, 20, 0.9)).isEqualTo(1);
    }

    @Test
    void fiveOfTenMatchesThePublishedExactInterval() {
        // two-sided 95% Clopper–Pearson interval for 5/10 is [0.187086, 0.812914] (standard tables)
        assertThat(ClopperPearson.lowerBound(5, 10, 0.975)).isCloseTo(0.187086, within(1e-6));
        assertThat(ClopperPearson.upperBound(5, 10, 0.975)).isCloseTo(0.812914, within(1e-6));
    }

    @Test
    void upperBoundCoversTheTrueProbabilityWithAtLeastTheConfidence() {
        // exact coverage: Σ_k P(Bin(n,p) = k)·[ub(k) ≥ p] ≥ c, for several p
        int n = 60;
        double c = 0.9;
        for (double p : new double[] {0.02, 0.1, 0.33, 0.5, 0.8}) {
            double coverage = 0;
            double logPmf = n * Math.log1p(-p);
            for (int k = 0; k <= n; k++) {
                if (ClopperPearson.upperBound(k, n, c) >= p) {
                    coverage += Math.exp(logPmf);
                }
                if (k < n) {
                    logPmf += Math.log((double) (n - k) / (k + 1)) + Math.log(p) - Math.log1p(-p);
                }
            }
            assertThat(coverage).isGreaterThanOrEqualTo(c - 1e-12);
        }
    }

    @Test
    void boundsBracketTheEmpiricalRate() {
        assertThat(ClopperPearson.upperBound(30, 100, 0.95)).isGreaterThan(0.3).isLessThan(0.4);
        assertThat(ClopperPearson.lowerBound(30, 100, 0.95)).isLessThan(0.3).isGreaterThan(0.2);
    }

    @Test
    void successesAboveTrialsAreRejected() {
        assertThatThrownBy(() -> ClopperPearson.upperBound(11, 10, 0.95))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("successes=11");
    }

    @Test
    void confidenceOutsideTheOpenUnitIntervalIsRejected() {
        assertThatThrownBy(() -> ClopperPearson.upperBound(1, 10, 1.0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("confidence");
    }
}
