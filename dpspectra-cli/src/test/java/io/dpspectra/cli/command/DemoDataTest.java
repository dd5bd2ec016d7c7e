package io.dpspectra.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The embedded wine data and its public preprocessing constants. */
class DemoDataTest {
    @Test
    void embeddedWineDataHasTheDocumentedShapeAndClassCounts() throws Exception {
        DemoCommand.Wine wine = DemoCommand.loadWine();
        assertThat(wine.rows()).hasNumberOfRows(178);
        assertThat(wine.rows()[0]).hasSize(13);
        long[] counts = new long[3];
        for (int label : wine.labels()) {
            counts[label]++;
        }
        assertThat(counts).containsExactly(59, 71, 48);
    }

    @Test
    void publishedConstantsStandardiseEachFeatureToRoughlyZeroMeanAndUnitVariance() throws Exception {
        // The published means/SDs are rounded summaries of these very rows, so after standardisation each
        // feature's sample mean is within a rounding error of 0 and its SD within a few percent of 1.
        DemoCommand.Wine wine = DemoCommand.loadWine();
        int n = wine.rows().length;
        for (int j = 0; j < 13; j++) {
            double s = 0;
            double s2 = 0;
            for (double[] row : wine.rows()) {
                double z = row[j] * DemoCommand.ROW_SCALE;
                s += z;
                s2 += z * z;
            }
            double mean = s / n;
            double sd = Math.sqrt(s2 / n - mean * mean);
            assertThat(Math.abs(mean)).as(DemoCommand.FEATURES[j] + " mean").isLessThan(0.1);
            assertThat(sd).as(DemoCommand.FEATURES[j] + " sd").isBetween(0.95, 1.05);
        }
    }
}
