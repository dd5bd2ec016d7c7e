package io.dpspectra.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SpecialFunctionsTest {

    /** ln((n−1)!) by summing logs: exact to rounding. */
    private static double logFactorial(int m) {
        double s = 0;
        for (int i = 2; i <= m; i++) {
            s += Math.log(i);
        }
        return s;
    }

    /** P(Bin(n, x) ≥ a) by summing the pmf from the recursion pmf(k+1) = pmf(k)(n−k)/(k+1)·x/(1−x) in logs. */
    private static double binomialUpperTail(int n, double x, int a) {
        double logPmf = n * Math.log1p(-x); // k = 0
        double sum = 0;
        for (int k = 0; k <= n; k++) {
            if (k >= a) {
                sum += Math.exp(logPmf);
            }
            if (k < n) {
                logPmf += Math.log((double) (n - k) / (k + 1)) + Math.log(x) - Math.log1p(-x);
            }
        }
        return sum;
    }

    @Test
    void logGammaMatchesLogFactorialsAtIntegers() {
        for (int n : new int[] {1, 2, 3, 5, 10, 14, 15, 16, 20, 50, 100, 1000}) {
            double expected = logFactorial(n - 1);
            assertThat(SpecialFunctions.logGamma(n)).isCloseTo(expected, within(1e-12 * Math.max(1, expected)));
        }
    }

    @Test
    void logGammaAtOneHalfIsHalfLogPi() {
        assertThat(SpecialFunctions.logGamma(0.5)).isCloseTo(0.5 * Math.log(Math.PI), within(1e-14));
    }

    @Test
    void logGammaSatisfiesTheRecurrenceAcrossTheStirlingSwitch() {
        for (double x = 0.01; x < 40; x *= 1.37) {
            assertThat(SpecialFunctions.logGamma(x + 1) - SpecialFunctions.logGamma(x))
                    .isCloseTo(Math.log(x), within(1e-12 * Math.max(1, Math.abs(SpecialFunctions.logGamma(x)))));
        }
    }

    @Test
    void logGammaRejectsNonPositiveArguments() {
        assertThatThrownBy(() -> SpecialFunctions.logGamma(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("x > 0");
    }

    @ParameterizedTest
    @CsvSource({"0.3,2,3", "0.05,1,10", "0.5,7,7", "0.9,20,3", "0.37,40,61", "0.01,3,150", "0.6,100,50"})
    void incompleteBetaWithIntegerParametersIsABinomialTail(double x, int a, int b) {
        // I_x(a, b) = P(Bin(a+b−1, x) ≥ a) for integers a, b ≥ 1
        double expected = binomialUpperTail(a + b - 1, x, a);
        assertThat(SpecialFunctions.regularizedBeta(x, a, b)).isCloseTo(expected, within(1e-13 + 1e-12 * expected));
    }

    @Test
    void incompleteBetaMatchesABinomialTailWithLargeParameters() {
        // the regime of the auditor's Clopper–Pearson bounds: n = 50,000 trials
        int n = 50_000;
        for (int a : new int[] {3, 100, 480, 520, 2000}) {
            double expected = binomialUpperTail(n, 0.01, a);
            assertThat(SpecialFunctions.regularizedBeta(0.01, a, n - a + 1))
                    .isCloseTo(expected, within(1e-15 + 1e-9 * expected));
        }
    }

    @Test
    void incompleteBetaHasClosedFormsForUnitParameters() {
        for (double x = 0.01; x < 1; x += 0.07) {
            assertThat(SpecialFunctions.regularizedBeta(x, 2.7, 1)).isCloseTo(Math.pow(x, 2.7), within(1e-14));
            assertThat(SpecialFunctions.regularizedBeta(x, 1, 3.3))
                    .isCloseTo(1 - Math.pow(1 - x, 3.3), within(1e-14));
            // arcsine law: I_x(1/2, 1/2) = (2/π) asin(√x)
            assertThat(SpecialFunctions.regularizedBeta(x, 0.5, 0.5))
                    .isCloseTo(2 / Math.PI * Math.asin(Math.sqrt(x)), within(1e-13));
        }
        assertThat(SpecialFunctions.regularizedBeta(0.5, 12.5, 12.5)).isCloseTo(0.5, within(1e-14));
        assertThat(SpecialFunctions.regularizedBeta(0, 2, 3)).isEqualTo(0);
        assertThat(SpecialFunctions.regularizedBeta(1, 2, 3)).isEqualTo(1);
    }

    @Test
    void inverseIncompleteBetaInvertsIt() {
        for (double p : new double[] {1e-6, 0.025, 0.5, 0.975, 0.999999}) {
            double x = SpecialFunctions.inverseRegularizedBeta(p, 13, 5000);
            assertThat(SpecialFunctions.regularizedBeta(x, 13, 5000)).isCloseTo(p, within(1e-9 * Math.max(p, 1e-3)));
        }
    }
}
