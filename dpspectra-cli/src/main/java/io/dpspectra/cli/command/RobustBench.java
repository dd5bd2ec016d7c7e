package io.dpspectra.cli.command;

import io.dpspectra.bench.RobustBenchmark;
import io.dpspectra.cli.output.BenchReport;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra bench robust-pca} ({@link RobustBenchmark}): dp-SGGD and dp-GGD at the stylized-POPRES size (N = 2387, D = 10,000,
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
        RobustBenchmark.Result r = RobustBenchmark.run(n, d, repeat);
        double pass = r.pass();
        double direction = r.direction();
        double bytes = (double) n * d * Double.BYTES;
        PrintStreamTable out = new PrintStreamTable();
        System.out.printf(Locale.ROOT, "robust PCA benchmark: N=%d D=%d r=2, T=N=%d iterations, eps=0.8, delta=1/sqrt(N), "
                + "%d cores, max heap %d MB (sink %.1f)%n", n, d, n, Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20, r.sink());
        out.row("one pass summing the rows (floor)", pass, String.format(Locale.ROOT, "%.2f GB/s", bytes / pass / 1e9));
        out.row("one full-batch GLAD direction", direction, String.format(Locale.ROOT, "%.2f x the pass", direction / pass));
        out.row("dp-SGGD total (incl. private start)", r.sggdSeconds(), String.format(Locale.ROOT, "B=%d, %.3f ms/iteration "
                + "upper bound; process CPU %.3f s", r.batch(), 1e3 * r.sggdSeconds() / n, r.sggdCpu()));
        out.row("dp-GGD total (incl. private start)", r.ggdSeconds(), String.format(Locale.ROOT, "%.1f ms/iteration, %.2f x the "
                + "pass; process CPU %.3f s", 1e3 * r.ggdSeconds() / n, r.ggdSeconds() / n / pass, r.ggdCpu()));
        for (String plan : r.reaperPlans()) {
            System.out.println(plan);
        }
        return 0;
    }

    /** Aligned "what | seconds | note" lines. */
    private static final class PrintStreamTable {
        void row(String what, double seconds, String note) {
            System.out.printf(Locale.ROOT, "  %-40s %10.3f s   %s%n", what, seconds, note);
        }
    }
}
