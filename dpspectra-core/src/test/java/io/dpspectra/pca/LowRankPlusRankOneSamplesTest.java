package io.dpspectra.pca;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.linalg.Matrix;
import org.junit.jupiter.api.Test;

class LowRankPlusRankOneSamplesTest {
    /** inMemory() is a speed-up only: the same A_i bit for bit, on every pass, and the same clipped sum. */
    @Test
    void inMemoryGivesTheSameSamplesOnEveryPass() {
        LowRankPlusRankOneSamples streamed = LowRankPlusRankOneSamples.of(7, new double[] {3, 1}, 0.3, 50, 9);
        LowRankPlusRankOneSamples stored = streamed.inMemory();
        double[] w = {1, -2, 0.5, 0, 3, 1, -1};
        for (int pass = 0; pass < 2; pass++) {
            try (AiSource.Cursor a = streamed.open(); AiSource.Cursor b = stored.open()) {
                int count = 0;
                for (SampleMatrix x = a.next(), y = b.next(); x != null || y != null; x = a.next(), y = b.next()) {
                    double[] px = new double[7];
                    double[] py = new double[7];
                    x.times(w, px);
                    y.times(w, py);
                    assertThat(py).containsExactly(px);
                    assertThat(y.trace()).isEqualTo(x.trace());
                    count++;
                }
                assertThat(count).isEqualTo(50);
            }
        }
        Matrix cs = streamed.clippedSum(2.5);
        Matrix cm = stored.clippedSum(2.5);
        for (int r = 0; r < 7; r++) {
            for (int c = 0; c < 7; c++) {
                assertThat(cm.get(r, c)).isEqualTo(cs.get(r, c));
            }
        }
        assertThat(stored.truthBasis().get(3, 1)).isEqualTo(streamed.truthBasis().get(3, 1));
    }
}
