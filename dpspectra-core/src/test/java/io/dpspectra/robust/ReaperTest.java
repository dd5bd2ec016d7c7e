package io.dpspectra.robust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.linalg.FantopeProjection;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.result.PrivateSubspace;
import io.dpspectra.synthetic.Haystack;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class ReaperTest {
    private static double objective(double[][] x, Matrix p) {
        double s = 0;
        for (double[] row : x) {
            double[] px = p.times(row);
            double t = 0;
            for (int i = 0; i < row.length; i++) {
                t += (row[i] - px[i]) * (row[i] - px[i]);
            }
            s += Math.sqrt(t);
        }
        return s / x.length;
    }

    @Test
    void subgradientMatchesFiniteDifferencesAwayFromKinks() {
        RandomSource random = RandomSource.seededForReproducibility(21);
        Haystack.Sample s = Haystack.generate(200, 6, 2, 0.3, random);
        Matrix y = StiefelTest.gaussian(6, 6, random);
        y = y.plus(y.transpose());
        Matrix p = FantopeProjection.of(y, 2);
        Matrix g = Reaper.subgradient(s.rows(), null, p, 200, 0);
        assertThat(g.minus(g.transpose()).maxAbs()).isLessThan(1e-15);
        for (int t = 0; t < 4; t++) {
            Matrix h = StiefelTest.gaussian(6, 6, random);
            h = h.plus(h.transpose());
            double eps = 1e-6;
            double fd = (objective(s.rows(), p.plus(h.scaled(eps))) - objective(s.rows(), p.minus(h.scaled(eps)))) / (2 * eps);
            assertThat(g.frobeniusInner(h)).isCloseTo(fd, within(1e-6));
        }
    }

    @Test
    void eachRowsSubgradientTermHasFrobeniusNormAtMostOne() {
        RandomSource random = RandomSource.seededForReproducibility(22);
        Haystack.Sample s = Haystack.generate(100, 5, 2, 0.5, random);
        Matrix y = StiefelTest.gaussian(5, 5, random);
        Matrix p = FantopeProjection.of(y.plus(y.transpose()), 2);
        for (int i = 0; i < 100; i++) {
            assertThat(Reaper.subgradient(s.rows(), new int[] {i}, p, 1, 0).frobeniusNorm()).isLessThanOrEqualTo(1 + 1e-12);
        }
    }

    @Test
    void cappedEntropyProjectionSumsToRWithWeightsInTheUnitInterval() {
        double[] q = {100, 50, 1, 0.5, 0.25, 1e-3};
        double[] p = Reaper.cappedEntropy(q, 3);
        double sum = 0;
        for (double v : p) {
            assertThat(v).isBetween(0.0, 1.0);
            sum += v;
        }
        assertThat(sum).isCloseTo(3, within(1e-12));
        assertThat(p[0]).isEqualTo(1.0);
        assertThat(p[1]).isEqualTo(1.0);
        // the uncapped part keeps the ratios of q
        assertThat(p[2] / p[3]).isCloseTo(2, within(1e-12));
        double[] flat = Reaper.cappedEntropy(new double[] {1, 1, 1, 1}, 2);
        assertThat(flat).containsExactly(0.5, 0.5, 0.5, 0.5);
        double[] trace = Reaper.traceOnly(q, 3);
        assertThat(trace[0]).isGreaterThan(1); // Algorithm 2 as printed leaves H_r
    }

    @Test
    void noiseFreeReaperRecoversTheHaystackSubspaceApproximately() {
        Haystack.Sample s = Haystack.generate(1000, 10, 2, 0.5, RandomSource.seededForReproducibility(23));
        for (Reaper.Builder b : new Reaper.Builder[] {Reaper.dpGdReap(), Reaper.dpMdReap()}) {
            PrivateSubspace fit = b.calibration(NoiseCalibration.NONE).components(2).iterations(500)
                    .randomSource(RandomSource.seededForReproducibility(1)).build().fit(s.rows(), null);
            assertThat(SubspaceMetrics.dR2(fit.components(), s.truth())).isLessThan(1e-2);
        }
    }

    @Test
    void mirrorDescentWithTheCappedProjectionStaysInTheFantope() {
        Haystack.Sample s = Haystack.generate(500, 8, 2, 0.5, RandomSource.seededForReproducibility(24));
        double[] maxEig = {0};
        Reaper.dpMdReap().calibration(NoiseCalibration.NONE).components(2).iterations(50)
                .randomSource(RandomSource.seededForReproducibility(2))
                .listener((k, p, avg) -> {
                    assertThat(p.trace()).isCloseTo(2, within(1e-9));
                    maxEig[0] = Math.max(maxEig[0], SymmetricEigen.top(p, 1).values()[0]);
                }).build().fit(s.rows(), null);
        assertThat(maxEig[0]).isLessThanOrEqualTo(1 + 1e-9);
    }

    @Test
    @Tag("slow")
    void dpGgdBeatsDpGdReapOnTheFigureOneHaystack() {
        int wins = 0;
        for (long seed = 30; seed < 33; seed++) {
            Haystack.Sample s = GrassmannDescentTest.figureOne(seed);
            PrivateSubspace ggd = GrassmannDescent.dpGgd().components(2)
                    .randomSource(RandomSource.seededForReproducibility(seed)).build().fit(s.rows(), GrassmannDescentTest.FIGURE_1);
            PrivateSubspace reap = Reaper.dpGdReap().components(2)
                    .randomSource(RandomSource.seededForReproducibility(seed)).build().fit(s.rows(), GrassmannDescentTest.FIGURE_1);
            double eg = SubspaceMetrics.dR2(ggd.components(), s.truth());
            double er = SubspaceMetrics.dR2(reap.components(), s.truth());
            wins += eg < er ? 1 : 0;
        }
        assertThat(wins).isEqualTo(3);
    }

    @Test
    void refusesBeforeStartingWhenTheHeapCannotHoldTheDenseMatrices() {
        Reaper reaper = Reaper.dpGdReap().components(2).heapLimit(100_000_000L).build();
        Reaper.Plan plan = reaper.plan(2387, 10_000);
        assertThat(plan.bytes()).isEqualTo(7L * 10_000 * 10_000 * 8);
        assertThat(plan.describe(10_000)).contains("5.60 GB");
        double[][] rows = new double[3][10_000];
        assertThatThrownBy(() -> reaper.fit(rows, GrassmannDescentTest.FIGURE_1))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("5.60 GB")
                .hasMessageContaining("-Xmx").hasMessageContaining("dp-sggd");
    }
}
