package io.dpspectra.experiments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class RawTablesTest {
    /** Columns on different scales and offsets, and a constant one. */
    private static final double[][] RAW = {
        {1, 1000, 7, -3e-3},
        {2, 3000, 7, 1e-3},
        {4, 2000, 7, 5e-3},
        {9, 6000, 7, -7e-3}};

    @Test
    void centredColumnsHaveMeanZeroAndKeepTheirSpread() {
        double[][] before = copy(RAW);
        double[][] x = RawTables.centredColumns(RAW, false);
        assertThat(RAW).isDeepEqualTo(before);
        // column 1: mean 4, so 1 - 4 = -3 exactly, and the differences between rows are the raw ones
        assertThat(x[0][0]).isEqualTo(-3);
        assertThat(x[3][1] - x[0][1]).isEqualTo(5000);
        for (int j = 0; j < 4; j++) {
            assertThat(mean(x, j)).isCloseTo(0, within(1e-12 * (1 + Math.abs(RAW[0][j]))));
        }
        assertThat(new double[] {x[0][2], x[1][2], x[2][2], x[3][2]}).containsOnly(0.0);
    }

    @Test
    void zScoredColumnsHaveUnitVarianceOverNAndAConstantColumnBecomesZeros() {
        double[][] z = RawTables.centredColumns(RAW, true);
        for (int j : new int[] {0, 1, 3}) {
            assertThat(mean(z, j)).isCloseTo(0, within(1e-12));
            double var = 0;
            for (double[] r : z) {
                var += r[j] * r[j];
            }
            assertThat(var / z.length).isCloseTo(1, within(1e-12));
        }
        assertThat(new double[] {z[0][2], z[1][2], z[2][2], z[3][2]}).containsOnly(0.0);
    }

    private static double mean(double[][] x, int j) {
        double s = 0;
        for (double[] r : x) {
            s += r[j];
        }
        return s / x.length;
    }

    private static double[][] copy(double[][] a) {
        double[][] c = new double[a.length][];
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i].clone();
        }
        return c;
    }
}
