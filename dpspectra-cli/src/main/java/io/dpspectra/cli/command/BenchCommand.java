package io.dpspectra.cli.command;

import io.dpspectra.bench.GramBenchmark;
import io.dpspectra.cli.output.BenchReport;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.data.BinaryRows;
import io.dpspectra.linalg.Backend;
import io.dpspectra.linalg.Gram;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra bench ...}: the benchmarks' options and their printing; the measurements are the bench
 * module's ({@code io.dpspectra.bench}).
 *
 * <p>Subcommand {@code gram} times XᵀX of an n × d matrix two ways ({@link GramBenchmark}): (a) a clipped,
 * streamed Gram pass over a {@link BinaryRows} file and (b) one bare in-memory XᵀX update (dsyrk on the
 * native backend, dpspectra's blocked kernel on the pure-Java backend). The matrix is benchmark data:
 * entries uniform in [−1, 1) from a seeded generator (not a privacy mechanism).
 *
 * <p>Cost: (b) holds the whole matrix in memory: 8·n·d bytes (800 MB for n = 10⁵, d = 1000).
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks of the linear-algebra backend.",
        subcommands = {BenchCommand.GramBench.class, PassBench.class, OjaBench.class, PowerBench.class, CovarianceBench.class,
            CsvBench.class, LdpBench.class, RobustBench.class, PrivateBoundsBench.class})
public final class BenchCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        new CommandLine(this).usage(System.err);
        return 2;
    }

    /** {@code dpspectra bench gram}: XᵀX throughput, streamed from a binary file and in memory. */
    @Command(name = "gram", mixinStandardHelpOptions = true,
            description = {
                "Times X^T X of an n x d benchmark matrix (uniform [-1,1) entries, seeded), streamed and in memory.",
                "  (a) streamed: a .dpsr file -> L2 clipping (bound 1.0) -> the Gram pass of a release;",
                "  (b) in memory: one X^T X update (dsyrk native; dpspectra's kernel for java).",
                "Best of --repeat runs after one warm-up. GFLOP/s counts n*d^2 flops",
                "(lower triangle: n*d^2/2 multiply-adds, each 2 flops).",
                "Heap: (b) needs the whole matrix, 8*n*d bytes; e.g. n=100000 d=1000 needs",
                "JAVA_OPTS=-Xmx1500m (800 MB matrix + 8 MB Gram + buffers)."})
    static final class GramBench implements Callable<Integer> {
        @Option(names = "--rows", paramLabel = "N", defaultValue = "20000", description = "n, number of rows (default ${DEFAULT-VALUE}).")
        long rows;

        @Option(names = "--dim", paramLabel = "D", defaultValue = "1000", description = "d, dimension (default ${DEFAULT-VALUE}).")
        int dim;

        @Option(names = "--backend", paramLabel = "native|java|default", defaultValue = "default",
                description = "native, java or default (native if OpenBLAS loads). Default: ${DEFAULT-VALUE}.")
        String backend;

        @Option(names = "--block-rows", paramLabel = "ROWS",
                description = "Rows read at a time by the streamed pass. Default: the rows of one canonical block of the"
                    + " Gram (8192 up to d = 256, about 2^21 / d above), what a release reads; fewer are copied into"
                    + " the block until it is complete (the same result, more copying).")
        Integer blockRows;

        @Option(names = "--file", paramLabel = "FILE", description = "The .dpsr file to read; created with benchmark data if missing"
                + " (then kept). Without it a temporary file is used and deleted.")
        Path file;

        @Option(names = "--repeat", paramLabel = "R", defaultValue = "3", description = "Timed repeats; the best is reported"
                + " (default ${DEFAULT-VALUE}).")
        int repeat;

        @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Seed of the benchmark data (default ${DEFAULT-VALUE}).")
        long seed;

        @Mixin
        BenchReport report;

        @Override
        public Integer call() throws IOException {
            if (rows < 1 || dim < 1 || (blockRows != null && blockRows < 1) || repeat < 1) {
                throw CliException.usage("--rows, --dim, --block-rows and --repeat must all be >= 1; got --rows " + rows
                        + " --dim " + dim + " --block-rows " + blockRows + " --repeat " + repeat, "pass positive sizes");
            }
            Backend be = switch (backend.toLowerCase(Locale.ROOT)) {
                case "java" -> Backend.PURE_JAVA;
                case "default" -> Backend.DEFAULT;
                case "native" -> Backend.DEFAULT;
                default -> null;
            };
            if (be == null) {
                throw CliException.usage("--backend must be native, java or default, got '" + backend + "'",
                        "see 'dpspectra bench gram --help'");
            }
            if (backend.equalsIgnoreCase("native") && !be.isNative()) {
                throw CliException.usage("--backend native: native BLAS could not be loaded (active: " + be.describe()
                        + ")", "install OpenBLAS (apt-get install libopenblas0) or use --backend java");
            }
            boolean temporary = file == null;
            Path path = temporary ? Files.createTempFile("dpspectra-bench-", ".dpsr") : file;
            try {
                if (temporary || !Files.exists(path)) {
                    BinaryRows.write(GramBenchmark.benchmarkData(rows, dim, seed), path);
                }
                BinaryRows data = BinaryRows.open(path);
                long n = data.size();
                int d = data.dimension();
                if (!GramBenchmark.fitsInMemory(n, d)) {
                    throw CliException.usage("the in-memory part needs --rows x --dim <= 2^31, got " + n + " x " + d,
                            "lower --rows");
                }
                int block = blockRows != null ? blockRows : Gram.blockRows(d);
                Map<String, Object> out = GramBenchmark.run(data, be, block, repeat);
                double streamed = (double) out.get("streamedClippedSeconds");
                double inMemory = (double) out.get("inMemorySeconds");
                double flops = (double) n * d * d;
                report.print(out, () -> {
                    System.out.printf(Locale.ROOT, "X^T X benchmark: n=%d d=%d, backend %s, block rows %d,"
                            + " best of %d (flops = n*d^2)%n", n, d, be.describe(), block, repeat);
                    System.out.printf(Locale.ROOT, "%-40s %10s %10s%n", "variant", "seconds", "GFLOP/s");
                    System.out.printf(Locale.ROOT, "%-40s %10.3f %10.2f%n", "(a) file -> clip L2 -> GramPass",
                            streamed, flops / streamed / 1e9);
                    System.out.printf(Locale.ROOT, "%-40s %10.3f %10.2f%n",
                            be.isNative() ? "(b) in-memory dsyrk" : "(b) in-memory Java kernel",
                            inMemory, flops / inMemory / 1e9);
                });
                return 0;
            } finally {
                if (temporary) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }
}
