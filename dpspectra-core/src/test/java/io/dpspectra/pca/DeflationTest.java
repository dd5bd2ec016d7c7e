package io.dpspectra.pca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeflationTest {

    /** Rows i = 0..10 with first coordinate i: each round must see exactly its own ⌊n/k⌋ rows, in order. */
    @Test
    void roundsReadDisjointConsecutiveChunksAndLeaveTheRemainderUnread() {
        double[][] rows = new double[11][3];
        for (int i = 0; i < 11; i++) {
            rows[i][0] = i;
        }
        List<List<Double>> seen = new ArrayList<>();
        Deflation.Oracle spy = (chunk, p, round, budget, random, log) -> {
            List<Double> mine = new ArrayList<>();
            double[] w = new double[] {1, 0, 0};
            double[] out = new double[3];
            SampleMatrix a;
            while (mine.size() < 2 && (a = chunk.next()) != null) { // reads only part of its chunk
                a.times(w, out);
                mine.add(Math.sqrt(Math.abs(out[0])));
            }
            seen.add(mine);
            return Deflation.randomUnit(p, random);
        };
        Deflation.Result r = Deflation.run(AiSource.ofRows(InMemoryRows.of(rows)), 11, 3, spy, PrivacyParams.of(1, 1e-3),
                RandomSource.seededForReproducibility(1));
        assertThat(r.chunkSize()).isEqualTo(3);
        assertThat(r.unusedSamples()).isEqualTo(2);
        assertThat(seen.get(0)).containsExactly(0.0, 1.0);
        assertThat(seen.get(1)).containsExactly(3.0, 4.0); // row 2 was skipped, not handed to round 2
        assertThat(seen.get(2)).containsExactly(6.0, 7.0);
    }

    @Test
    void theBasisIsOrthonormalEvenIfTheOracleReturnsAnUnprojectedVector() {
        Deflation.Oracle sloppy = (chunk, p, round, budget, random, log) -> new double[] {1, 1, 0, 0};
        Matrix u = Deflation.run(AiSource.ofRows(InMemoryRows.of(new double[8][4])), 8, 3, sloppy,
                PrivacyParams.of(1, 1e-3), RandomSource.seededForReproducibility(2)).basis();
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++) {
                assertThat(Vectors.dot(u.column(a), u.column(b))).isCloseTo(a == b ? 1 : 0, within(1e-12));
            }
        }
    }

    @Test
    void tooFewRowsForKChunksIsRejected() {
        Deflation.Oracle any = (chunk, p, round, budget, random, log) -> Deflation.randomUnit(p, random);
        assertThatThrownBy(() -> Deflation.run(AiSource.ofRows(InMemoryRows.of(new double[1][4])), 1, 2, any,
                PrivacyParams.of(1, 1e-3), RandomSource.seededForReproducibility(3)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k = 2");
    }
}
