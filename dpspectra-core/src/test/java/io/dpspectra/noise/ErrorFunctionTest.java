package io.dpspectra.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ErrorFunctionTest {
    // Reference values: mpmath at 30 digits (erfc, exp(x²)·erfc, ncdf), independent of this code.
    private static final double[][] ERFC = {
        {0.1, 0.88753708398171510159},
        {0.5, 0.47950012218695346232},
        {1.0, 0.15729920705028513066},
        {2.0, 4.6777349810472658379e-3},
        {3.5, 7.4309837234141274552e-7},
        {5.0, 1.5374597944280348502e-12},
        {10.0, 2.0884875837625447570e-45},
        {20.0, 5.3958656116079009289e-176},
        {26.0, 5.6631924088561428465e-296},
    };

    @Test
    void erfcMatchesHighPrecisionValuesToRelativeErrorOneEMinus14IncludingTails() {
        for (double[] row : ERFC) {
            double x = row[0];
            double expected = row[1];
            assertThat(ErrorFunction.erfc(x)).as("erfc(%s)", x).isCloseTo(expected, within(1e-14 * expected));
        }
    }

    @Test
    void erfcOfNegativeArgumentIsTwoMinusErfc() {
        for (double[] row : ERFC) {
            assertThat(ErrorFunction.erfc(-row[0])).isCloseTo(2 - row[1], within(1e-15 * 2));
        }
    }

    @Test
    void erfcxMatchesHighPrecisionValuesOnBothSides() {
        double[][] erfcx = {
            {-3.0, 16205.988853999586},   // exp(9)·erfc(−3)
            {-1.0, 5.0089800807622834},
            {30.0, 0.018795888861416751},
            {1000.0, 5.6418930145338765e-4},
            {1e8, 5.6418958354775626e-9}, // 1/(x√π) regime
        };
        for (double[] row : erfcx) {
            assertThat(ErrorFunction.erfcx(row[0])).as("erfcx(%s)", row[0])
                    .isCloseTo(row[1], within(2e-14 * row[1]));
        }
    }

    @Test
    void erfAndErfcSumToOne() {
        for (double x = -6; x <= 6; x += 0.01) {
            assertThat(ErrorFunction.erf(x) + ErrorFunction.erfc(x)).isCloseTo(1.0, within(4e-16 * 4));
        }
    }

    @Test
    void normalCdfIsAccurateFarInTheLeftTail() {
        // Φ(−10) = 7.6198530241605260659e-24, Φ(1.96) = 0.97500210485177956
        assertThat(ErrorFunction.normalCdf(-10)).isCloseTo(7.6198530241605260659e-24, within(1e-14 * 7.62e-24));
        assertThat(ErrorFunction.normalCdf(1.96)).isCloseTo(0.97500210485177956, within(1e-15));
        assertThat(ErrorFunction.normalCdf(0)).isEqualTo(0.5);
    }
}
