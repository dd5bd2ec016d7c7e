package io.dpspectra.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The private mean and the private row-norm quantile from statistics computed elsewhere (a cluster's
 * partitions): summing the parts' sums and histograms and releasing from them gives the release of the
 * rows themselves, for the same seed (exactly, since histograms are counts and one part's sum is the sum).
 */
class PrivatePreprocessingPartsTest {
    private static final double[][] ROWS = new double[60][3];

    static {
        RandomSource r = RandomSource.seededForReproducibility(3);
        for (double[] row : ROWS) {
            for (int j = 0; j < row.length; j++) {
                row[j] = r.standardNormal();
            }
        }
    }

    @Test
    void aMeanFromTheSumIsTheMeanOfTheRows() {
        RowSource rows = InMemoryRows.of(ROWS).clipL2(1.5);
        PrivacyParams budget = PrivacyParams.of(0.5, 1e-6);
        PrivateBoundedMean.Result direct = PrivateBoundedMean.of(Neighbouring.ADD_REMOVE_ROW, RandomSource.seededForReproducibility(9))
                .estimate(rows, budget);
        PrivateBoundedMean.Sum sum = PrivateBoundedMean.sum(rows);
        assertThat(sum.rows()).isEqualTo(ROWS.length);
        PrivateBoundedMean.Result fromSum = PrivateBoundedMean.of(Neighbouring.ADD_REMOVE_ROW,
                RandomSource.seededForReproducibility(9)).estimate(sum, 1.5, budget);
        assertThat(fromSum.mean()).containsExactly(direct.mean());
        assertThat(fromSum.guarantee()).isEqualTo(direct.guarantee());
        assertThatThrownBy(() -> PrivateBoundedMean.of(Neighbouring.REPLACE_ROW, RandomSource.secure())
                .estimate(new PrivateBoundedMean.Sum(new double[3], 0), 1, budget)).hasMessageContaining("at least one row");
    }

    @Test
    void histogramsOfPartsAddUpToTheRowsQuantile() {
        double[] grid = PrivateQuantile.geometricGrid(0.01, 10, 1.1);
        RowSource all = InMemoryRows.of(ROWS);
        long[] whole = PrivateQuantile.rowNormHistogram(all, grid);
        long[] a = PrivateQuantile.rowNormHistogram(InMemoryRows.of(Arrays.copyOfRange(ROWS, 0, 25)), grid);
        long[] b = PrivateQuantile.rowNormHistogram(InMemoryRows.of(Arrays.copyOfRange(ROWS, 25, 60)), grid);
        long[] summed = new long[whole.length];
        for (int i = 0; i < summed.length; i++) {
            summed[i] = a[i] + b[i];
        }
        assertThat(summed).containsExactly(whole);
        assertThat(whole[grid.length]).isEqualTo(ROWS.length);
        PrivacyParams budget = PrivacyParams.pure(0.3);
        PrivateQuantile.Result direct = PrivateQuantile.using(RandomSource.seededForReproducibility(5))
                .rowNormQuantile(all, 0.9, grid, budget, Neighbouring.REPLACE_ROW);
        PrivateQuantile.Result parts = PrivateQuantile.using(RandomSource.seededForReproducibility(5))
                .rowNormQuantile(summed, 0.9, grid, budget, Neighbouring.REPLACE_ROW);
        assertThat(parts.value()).isEqualTo(direct.value());
        assertThat(parts.guarantee()).isEqualTo(direct.guarantee());
        assertThatThrownBy(() -> PrivateQuantile.using(RandomSource.secure()).rowNormQuantile(new long[3], 0.5, grid,
                budget, Neighbouring.REPLACE_ROW)).hasMessageContaining("entries");
    }
}
