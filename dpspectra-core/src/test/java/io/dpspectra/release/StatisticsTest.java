package io.dpspectra.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.PrivateQuantile;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.noise.RandomSource;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The seam's summaries merge exactly across parts, and the bounding chain is the same wherever it runs. */
class StatisticsTest {
    static double[][] rows(int n, int d, long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        double[][] x = new double[n][d];
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                row[j] = Math.rint(4 * r.standardNormal()); // integers: sums are exact in any order
            }
        }
        return x;
    }

    @Test
    void histogramsAndSumsOfDisjointPartsMergeIntoThoseOfTheWhole() {
        double[][] x = rows(301, 3, 1);
        RowSource all = InMemoryRows.of(x);
        RowSource first = InMemoryRows.of(Arrays.copyOfRange(x, 0, 120));
        RowSource rest = InMemoryRows.of(Arrays.copyOfRange(x, 120, 301));
        double[] grid = PrivateQuantile.geometricGrid(1e-3, 100, 1.1);
        NormHistogram merged = NormHistogram.of(first, grid).merge(NormHistogram.of(rest, grid));
        assertThat(merged.counts()).containsExactly(NormHistogram.of(all, grid).counts());
        assertThat(NormHistogram.empty(grid).merge(merged).counts()).containsExactly(merged.counts());
        assertThat(merged.total()).isEqualTo(301);

        Bounding b = Bounding.of(1e9, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN);
        BoundedSum whole = BoundedSum.of(b.first(all));
        BoundedSum parts = BoundedSum.empty(3).merge(BoundedSum.of(b.first(first))).merge(BoundedSum.of(b.first(rest)));
        assertThat(parts.sum()).containsExactly(whole.sum());
        assertThat(parts.count()).isEqualTo(301);
        assertThatThrownBy(() -> merged.merge(NormHistogram.empty(new double[] {1, 2})))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theChainClipsThenCentresWithinTheFinalBoundAndRedeclaringBoundedRowsChangesNothing() {
        double[][] x = rows(200, 4, 2);
        double[] mean = {0.5, -0.5, 0.25, 0};
        double inputBound = 3;
        double bound = inputBound + Vectors.norm2(mean);
        Bounding b = new Bounding(inputBound, DataBounds.Policy.CLIP, mean, bound, DataBounds.Origin.USER_GIVEN);
        ClippedRows chain = b.apply(InMemoryRows.of(x));
        assertThat(chain.bounds().orElseThrow().bound()).isEqualTo(bound);
        double[] row = new double[4];
        int i = 0;
        try (RowCursor c = chain.open()) {
            while (c.next(row)) {
                double[] expected = x[i++].clone();
                double n = Vectors.norm2(expected);
                for (int j = 0; j < 4; j++) {
                    expected[j] = (n > inputBound ? expected[j] * inputBound / n : expected[j]) - mean[j];
                }
                for (int j = 0; j < 4; j++) {
                    assertThat(row[j]).isCloseTo(expected[j], within(1e-12));
                }
                assertThat(Vectors.norm2(row)).isLessThanOrEqualTo(bound + 1e-12);
            }
        }
        ClippedRows again = b.declare(chain);
        double[] r2 = new double[4];
        try (RowCursor c1 = chain.open(); RowCursor c2 = again.open()) {
            while (c1.next(row)) {
                assertThat(c2.next(r2)).isTrue();
                assertThat(r2).containsExactly(row);
            }
        }
        assertThatThrownBy(() -> Bounding.of(1, DataBounds.Policy.REJECT, DataBounds.Origin.USER_GIVEN)
                .apply(InMemoryRows.of(x)).open().next(row)).isInstanceOf(InvalidDataException.class);
    }
}
