package io.dpspectra.advice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The curator's check counts what the clipping alone does to the rows' projection: nothing when no row is above
 * the bound, and, on rows whose norms have a long tail (one column on a log-normal scale, like a frequency in
 * Hz), a loss that a bound clipping half the rows makes much larger than one clipping a tenth.
 */
class SpectrumCheckTest {
    private static final int N = 2000;

    /** One column log-normal (σ = 1.3, scale 1000) holding most of the variance, four Gaussian ones. */
    private static double[][] longTail(long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed); // test data, not privacy noise
        double[][] x = new double[N][];
        for (int i = 0; i < N; i++) {
            x[i] = new double[] {1000 * Math.exp(1.3 * r.standardNormal()), 30 * r.standardNormal(),
                10 * r.standardNormal(), 5 * r.standardNormal(), 3 * r.standardNormal()};
        }
        return x;
    }

    private static double quantileNorm(double[][] x, double q) {
        double[] n = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            n[i] = Vectors.norm2(x[i]);
        }
        Arrays.sort(n);
        return n[(int) Math.ceil(q * n.length) - 1];
    }

    private static Matrix centred(double[][] x) {
        int d = x[0].length;
        double[] mean = new double[d];
        for (double[] r : x) {
            for (int j = 0; j < d; j++) {
                mean[j] += r[j] / x.length;
            }
        }
        double[][] c = new double[x.length][d];
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < d; j++) {
                c[i][j] = x[i][j] - mean[j];
            }
        }
        return Matrix.fromRows(c);
    }

    /** The same figure by another road: explicit score matrices and the metrics' canonical correlations. */
    private static double direct(double[][] x, double bound, int k) {
        double[][] clipped = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            double n = Vectors.norm2(x[i]);
            double f = n > bound ? bound / n : 1;
            clipped[i] = Arrays.stream(x[i]).map(v -> v * f).toArray();
        }
        Matrix cc = centred(clipped);
        Matrix vc = SymmetricEigen.top(cc.transposeTimes(cc), k).vectors();
        Matrix xc = centred(x);
        Matrix vr = SymmetricEigen.top(xc.transposeTimes(xc), k).vectors();
        return SubspaceMetrics.meanSquaredCanonicalCorrelation(Matrix.fromRows(clipped).times(vc), xc.times(vr));
    }

    private static SpectrumCheck check(double[][] x, double bound) {
        return SpectrumCheck.of("analyze-gauss", InMemoryRows.of(x), bound, true,
                new ReleaseFacts(N, 5, 2, PrivacyParams.of(0.85, 1e-6), Neighbouring.REPLACE_ROW, Double.NaN, 1));
    }

    @Test
    void aBoundAboveEveryRowLosesNothing() {
        double[][] x = longTail(1);
        assertThat(check(x, 2 * quantileNorm(x, 1)).clippingKept()).isCloseTo(1, within(1e-9));
    }

    @Test
    void aBoundClippingHalfTheRowsOfALongTailLosesMostOfTheirProjection() {
        double[][] x = longTail(1);
        SpectrumCheck median = check(x, quantileNorm(x, 0.5));
        SpectrumCheck high = check(x, quantileNorm(x, 0.9));
        assertThat(median.clippingKept()).isCloseTo(direct(x, quantileNorm(x, 0.5), 2), within(1e-6));
        assertThat(high.clippingKept()).isCloseTo(direct(x, quantileNorm(x, 0.9), 2), within(1e-6));
        // the same data, a bound clipping a tenth: the projection through it keeps much more
        assertThat(high.clippingKept()).isGreaterThan(median.clippingKept() + 0.15);
        assertThat(median.predictedThroughClipping()).isLessThanOrEqualTo(median.clippingKept());
        assertThat(median.useless()).isEqualTo(median.predictedThroughClipping() < 0.5);
    }
}
