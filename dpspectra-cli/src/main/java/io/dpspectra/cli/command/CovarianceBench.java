package io.dpspectra.cli.command;

import io.dpspectra.bench.CovarianceBenchmark;
import io.dpspectra.cli.output.BenchReport;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.linalg.Backend;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra bench covariance}: the cost of a full iterative-eigenvector-sampling release (all d
 * vectors) against one symmetric eigendecomposition of the same size. Benchmark data: Amin et al.'s
 * Algorithm 3 (seeded; not a privacy mechanism). The Gram matrix is formed once and excluded from both
 * timings, so the comparison is release-from-XᵀX against eigendecomposition-of-XᵀX.
 */
@Command(name = "covariance", mixinStandardHelpOptions = true,
        description = {"Times a full AD release (iterative eigenvector sampling, all d eigenvectors) from X^T X against "
            + "one symmetric eigendecomposition of the same d x d matrix.", "Reports time per eigenvector and the "
            + "ratio (target <= 3). Best of --repeat runs after one warm-up."})
final class CovarianceBench implements Callable<Integer> {
    @Option(names = "--rows", paramLabel = "N", defaultValue = "50000", description = "n (default ${DEFAULT-VALUE}).")
    int rows;

    @Option(names = "--dims", paramLabel = "D1,D2,...", defaultValue = "100,500", split = ",",
            description = "d values (default ${DEFAULT-VALUE}).")
    List<Integer> dims = new ArrayList<>();

    @Option(names = "--epsilon", paramLabel = "E", defaultValue = "1", description = "epsilon of the release (default ${DEFAULT-VALUE}).")
    double epsilon;

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "3", description = "Timed repeats (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Mixin
    BenchReport report;

    @Override
    public Integer call() throws Exception {
        if (repeat < 1 || rows < 2) {
            throw CliException.usage("--repeat must be >= 1 and --rows >= 2, got " + repeat + " and " + rows,
                    "pass positive values");
        }
        List<Map<String, Object>> results = new ArrayList<>();
        for (int d : dims) {
            if (d < 2) {
                throw CliException.usage("--dims entries must be >= 2, got " + d, "pass e.g. --dims 100,500");
            }
            results.add(CovarianceBenchmark.run(rows, d, epsilon, repeat, seed));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("backend", Backend.DEFAULT.describe());
        out.put("results", results);
        report.print(out, () -> {
            System.out.println("backend: " + Backend.DEFAULT.describe());
            System.out.println("     d       n   eigen(ms)  release(ms)  per-vector(ms)  per-vector/eigen  proposals/vector");
            for (Map<String, Object> m : results) {
                System.out.println(String.format(Locale.ROOT, "%6d %7d %11.2f %12.1f %15.3f %17.3f %17.2f", m.get("d"),
                        m.get("n"), m.get("eigendecompositionMs"), m.get("fullReleaseMs"), m.get("perEigenvectorMs"),
                        m.get("perEigenvectorOverEigendecomposition"), m.get("meanProposalsPerVector")));
            }
        });
        return 0;
    }
}
