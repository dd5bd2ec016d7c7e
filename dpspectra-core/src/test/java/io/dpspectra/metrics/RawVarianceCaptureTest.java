package io.dpspectra.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.noise.RandomSource;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class RawVarianceCaptureTest {
    private static double[][] rows(int n, long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        double[][] x = new double[n][4];
        for (int i = 0; i < n; i++) {
            double a = r.standardNormal();
            double b = r.standardNormal();
            x[i] = new double[] {100 + 5 * a, 3 * b + a, 0.1 * r.standardNormal(), 1000 * (0.2 * b + 0.01 * r.standardNormal())};
        }
        return x;
    }

    private static Matrix centredTop(double[][] x, int k, boolean z) {
        Matrix xm = Matrix.fromRows(standardised(x, z));
        return SymmetricEigen.top(xm.transposeTimes(xm), k).vectors();
    }

    /** The rows centred, and scaled to unit variance when {@code z}. */
    private static double[][] standardised(double[][] x, boolean z) {
        int n = x.length;
        int d = x[0].length;
        double[][] c = new double[n][d];
        for (int j = 0; j < d; j++) {
            double m = 0;
            for (double[] r : x) {
                m += r[j];
            }
            m /= n;
            double v = 0;
            for (double[] r : x) {
                v += (r[j] - m) * (r[j] - m);
            }
            for (int i = 0; i < n; i++) {
                c[i][j] = (x[i][j] - m) / (z ? Math.sqrt(v / n) : 1);
            }
        }
        return c;
    }

    @Test
    void exactPcaOfTheRawColumnsCapturesAllAndADestroyedSignalNothing() {
        double[][] x = rows(2000, 1);
        InMemoryRows raw = InMemoryRows.of(x);
        // the release is exact centred PCA of the raw rows, and the rows are not preprocessed: 1 and 1
        RawVarianceCapture same = RawVarianceCapture.of(raw, raw, centredTop(x, 2, false));
        assertThat(same.centred()).isCloseTo(1, Offset.offset(1e-9));
        // a release of the z-scored rows along their exact top-2 captures all of the z-scored variance a 2-d
        // summary can
        RawVarianceCapture z = RawVarianceCapture.of(raw, InMemoryRows.of(standardised(x, true)), centredTop(x, 2, true));
        assertThat(z.zScored()).isCloseTo(1, Offset.offset(1e-9));
        // a preprocessing that maps every row to the same point keeps nothing, whatever the components
        double[][] flat = new double[x.length][4];
        for (double[] r : flat) {
            java.util.Arrays.fill(r, 0.5);
        }
        RawVarianceCapture destroyed = RawVarianceCapture.of(raw, InMemoryRows.of(flat), centredTop(x, 2, false));
        assertThat(destroyed.centred()).isZero();
        assertThat(destroyed.keptCentred()).isZero();
        assertThat(destroyed.keptZScored()).isZero();
    }

    @Test
    void aReleaseOfTheWrongColumnsIsSeenAgainstTheRawData() {
        double[][] x = rows(2000, 2);
        InMemoryRows raw = InMemoryRows.of(x);
        // the third column holds almost no variance: a release along it captures almost none of the raw variance
        Matrix third = Matrix.fromColumns(new double[] {0, 0, 1, 0});
        RawVarianceCapture r = RawVarianceCapture.of(raw, raw, third);
        assertThat(r.centred()).isLessThan(1e-3);
        assertThat(r.rows()).isEqualTo(2000);
    }
}
