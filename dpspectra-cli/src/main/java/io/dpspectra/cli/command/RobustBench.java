package io.dpspectra.cli.command;

import io.dpspectra.cli.output.BenchReport;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.robust.Glad;
import io.dpspectra.robust.GrassmannDescent;
import io.dpspectra.robust.Reaper;
import io.dpspectra.robust.RowNorm;
import io.dpspectra.synthetic.Haystack;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra bench robust-pca}: dp-SGGD and dp-GGD at the stylized-POPRES size (N = 2387, D = 10,000,
 * r = 2) against one pass over the in-memory rows (the physical floor of a full-batch iteration), and the
 * REAPER methods' stated plan at that size.
 */
@Command(name = "robust-pca", mixinStandardHelpOptions = true,
        description = {"Times dp-SGGD and dp-GGD (Maunu, Yu & Lerman) on N x D unit rows (a haystack with 1387 inliers "
                + "on a 2-subspace and 1000 outliers, the stylized POPRES size by default) against one pass that only "
                + "sums the rows (the floor of a full-batch iteration), and prints the REAPER methods' memory and time "
                + "plan at that size. Seeded noise: timing only."})
final class RobustBench implements Callable<Integer> {
    @Option(names = "--rows", paramLabel = "N", defaultValue = "2387", description = "N (default ${DEFAULT-VALUE}).")
    int n;

    @Option(names = "--dim", paramLabel = "D", defaultValue = "10000", description = "D (default ${DEFAULT-VALUE}).")
    int d;

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "3", description = "Timed repetitions of the pass and of one GLAD "
            + "direction; the minimum is reported (default ${DEFAULT-VALUE}).")
    int repeat;

    @picocli.CommandLine.Mixin
    BenchReport report;

    @Override
    public Integer call() {
        if (n < 10 || d < 3 || repeat < 1) {
            System.err.println("--rows must be >= 10, --dim >= 3 and --repeat >= 1");
            return 2;
        }
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
        long c0 = cpuNanos();
        GrassmannDescent sggd = GrassmannDescent.dpSggd().components(2).randomSource(RandomSource.seededForReproducibility(2))
                .build();
        sggd.fit(rows, budget);
        double sggdTotal = (System.nanoTime() - t0) / 1e9;
        double sggdCpu = (cpuNanos() - c0) / 1e9;
        int b = sggd.batchSizeFor(n, budget);
        t0 = System.nanoTime();
        c0 = cpuNanos();
        GrassmannDescent.dpGgd().components(2).randomSource(RandomSource.seededForReproducibility(3)).build().fit(rows, budget);
        double ggdTotal = (System.nanoTime() - t0) / 1e9;
        double ggdCpu = (cpuNanos() - c0) / 1e9;
        double bytes = (double) n * d * Double.BYTES;
        PrintStreamTable out = new PrintStreamTable();
        System.out.printf(Locale.ROOT, "robust PCA benchmark: N=%d D=%d r=2, T=N=%d iterations, eps=0.8, delta=1/sqrt(N), "
                + "%d cores, max heap %d MB (sink %.1f)%n", n, d, n, Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20, sink);
        out.row("one pass summing the rows (floor)", pass, String.format(Locale.ROOT, "%.2f GB/s", bytes / pass / 1e9));
        out.row("one full-batch GLAD direction", direction, String.format(Locale.ROOT, "%.2f x the pass", direction / pass));
        out.row("dp-SGGD total (incl. private start)", sggdTotal, String.format(Locale.ROOT, "B=%d, %.3f ms/iteration "
                + "upper bound; process CPU %.3f s", b, 1e3 * sggdTotal / n, sggdCpu));
        out.row("dp-GGD total (incl. private start)", ggdTotal, String.format(Locale.ROOT, "%.1f ms/iteration, %.2f x the "
                + "pass; process CPU %.3f s", 1e3 * ggdTotal / n, ggdTotal / n / pass, ggdCpu));
        for (Reaper r : new Reaper[] {Reaper.dpGdReap().components(2).build(), Reaper.dpSgdReap().components(2).build()}) {
            System.out.println(r.name() + ": " + r.plan(n, d).describe(d));
        }
        return 0;
    }

    /** CPU time of the whole process (all threads): a load-independent companion of the wall time. */
    private static long cpuNanos() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0L;
    }

    /** Aligned "what | seconds | note" lines. */
    private static final class PrintStreamTable {
        void row(String what, double seconds, String note) {
            System.out.printf(Locale.ROOT, "  %-40s %10.3f s   %s%n", what, seconds, note);
        }
    }
}
