package io.dpspectra.bench;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.robust.Glad;
import io.dpspectra.robust.GrassmannDescent;
import io.dpspectra.robust.Reaper;
import io.dpspectra.robust.RowNorm;
import io.dpspectra.synthetic.Haystack;
import java.util.ArrayList;
import java.util.List;

/**
 * dp-SGGD and dp-GGD at the stylized-POPRES size (N = 2387, D = 10,000, r = 2 by default) on a haystack sample
 * (1387 inliers on a 2-subspace among N rows; seeded, timing only) against one pass over the in-memory rows (the
 * physical floor of a full-batch iteration), and the REAPER methods' memory and time plan at that size.
 */
public final class RobustBenchmark {
    private RobustBenchmark() {
    }

    /**
     * What one run measured.
     *
     * @param rows        N
     * @param dim         D
     * @param pass        the fastest pass summing the rows, in seconds
     * @param direction   the fastest full-batch GLAD descent direction, in seconds
     * @param sggdSeconds dp-SGGD's wall seconds, private start included
     * @param sggdCpu     dp-SGGD's process CPU seconds
     * @param batch       dp-SGGD's batch size B
     * @param ggdSeconds  dp-GGD's wall seconds, private start included
     * @param ggdCpu      dp-GGD's process CPU seconds
     * @param sink        the sum the timed loops computed (printed, so that no loop is optimised away)
     * @param reaperPlans one line per REAPER method: its name and its plan at N × D
     */
    public record Result(int rows, int dim, double pass, double direction, double sggdSeconds, double sggdCpu, int batch,
            double ggdSeconds, double ggdCpu, double sink, List<String> reaperPlans) {
    }

    /**
     * Runs the measurement.
     *
     * @param n      N, at least 10
     * @param d      D, at least 3
     * @param repeat timed repetitions of the pass and of one GLAD direction, at least 1; the minimum is kept
     * @return what was measured
     */
    public static Result run(int n, int d, int repeat) {
        Haystack.Sample data = Haystack.generate(n, d, 2, 1387.0 / 2387, RandomSource.seededForReproducibility(1));
        double[][] rows = RowNorm.SPHERE.apply(data.rows());
        PrivacyParams budget = PrivacyParams.of(0.8, 1 / Math.sqrt(n));
        double pass = Double.POSITIVE_INFINITY;
        double direction = Double.POSITIVE_INFINITY;
        Matrix v = Orthonormal.qr(Matrix.fromColumns(rows[0], rows[1]));
        double sink = 0;
        for (int i = 0; i < repeat; i++) {
            long t0 = System.nanoTime();
            for (double[] row : rows) {
                for (double x : row) {
                    sink += x;
                }
            }
            pass = Math.min(pass, (System.nanoTime() - t0) / 1e9);
            t0 = System.nanoTime();
            sink += Glad.descentDirection(rows, null, v, n, Glad.DEFAULT_TOLERANCE).get(0, 0);
            direction = Math.min(direction, (System.nanoTime() - t0) / 1e9);
        }
        long t0 = System.nanoTime();
        long c0 = Timing.processCpuNanos();
        GrassmannDescent sggd = GrassmannDescent.dpSggd().components(2).randomSource(RandomSource.seededForReproducibility(2))
                .build();
        sggd.fit(rows, budget);
        double sggdTotal = (System.nanoTime() - t0) / 1e9;
        double sggdCpu = (Timing.processCpuNanos() - c0) / 1e9;
        int b = sggd.batchSizeFor(n, budget);
        t0 = System.nanoTime();
        c0 = Timing.processCpuNanos();
        GrassmannDescent.dpGgd().components(2).randomSource(RandomSource.seededForReproducibility(3)).build().fit(rows, budget);
        double ggdTotal = (System.nanoTime() - t0) / 1e9;
        double ggdCpu = (Timing.processCpuNanos() - c0) / 1e9;
        List<String> plans = new ArrayList<>();
        for (Reaper r : new Reaper[] {Reaper.dpGdReap().components(2).build(), Reaper.dpSgdReap().components(2).build()}) {
            plans.add(r.name() + ": " + r.plan(n, d).describe(d));
        }
        return new Result(n, d, pass, direction, sggdTotal, sggdCpu, b, ggdTotal, ggdCpu, sink, List.copyOf(plans));
    }
}
