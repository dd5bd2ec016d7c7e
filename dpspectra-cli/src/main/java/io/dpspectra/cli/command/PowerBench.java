package io.dpspectra.cli.command;

import io.dpspectra.bench.PowerBenchmark;
import io.dpspectra.cli.output.BenchReport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra bench power ...} ({@link PowerBenchmark}): throughput of the power-method family. {@code streaming} times one pass
 * of the streaming power method over a .dpsr file and reports rows/s and the peak heap; {@code sparse} times
 * the private power method on a random sparse graph against one sparse block product A·X. The graph is
 * benchmark data from a seeded generator (not a privacy mechanism).
 */
@Command(name = "power", mixinStandardHelpOptions = true,
        description = "Benchmarks of the power-method family (streaming and private power methods).",
        subcommands = {PowerBench.Streaming.class, PowerBench.Sparse.class})
final class PowerBench implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("choose a benchmark: streaming or sparse (see 'dpspectra bench power --help')");
        return 2;
    }

    /** {@code bench power streaming}. */
    @Command(name = "streaming", mixinStandardHelpOptions = true,
            description = {"Times one pass of the streaming power method (Hardt & Price Fig. 2) over a .dpsr file: rows/s, "
                + "MB/s and the peak heap.", "Run with e.g. JAVA_OPTS=-Xmx64m to show the O(d*p) memory."})
    static final class Streaming implements Callable<Integer> {
        @Option(names = "--file", paramLabel = "FILE", required = true, description = "The .dpsr file to stream.")
        Path file;

        @Option(names = "--components", paramLabel = "K", defaultValue = "2", description = "k (default ${DEFAULT-VALUE}).")
        int k;

        @Option(names = "--block-size", paramLabel = "P", defaultValue = "4", description = "p >= k (default ${DEFAULT-VALUE}).")
        int p;

        @Option(names = "--iterations", paramLabel = "L", defaultValue = "10", description = "L (default ${DEFAULT-VALUE}).")
        int iterations;

        @Option(names = "--block-rows", paramLabel = "ROWS", description = "Rows per BLAS block (default: about 256 KB of rows, 32 at d = 1000).")
        Integer blockRows;

        @Option(names = "--baseline", description = "Also time a bare read pass (nextBlock only) of the same rows.")
        boolean baseline;

        @Mixin
        BenchReport report;

        @Override
        public Integer call() throws Exception {
            report.print(PowerBenchmark.streaming(file, k, p, iterations, blockRows, baseline));
            return 0;
        }
    }

    /** {@code bench power sparse}. */
    @Command(name = "sparse", mixinStandardHelpOptions = true,
            description = {"Times the private power method (entry-level Gaussian) on a random sparse graph with --nodes "
                + "nodes and --edges uniformly random edges: time per iteration against one sparse block product "
                + "A*X (d x p), and the parts of an iteration (product, noise, QR)."})
    static final class Sparse implements Callable<Integer> {
        @Option(names = "--nodes", paramLabel = "N", defaultValue = "100000", description = "d (default ${DEFAULT-VALUE}).")
        int nodes;

        @Option(names = "--edges", paramLabel = "M", defaultValue = "1000000", description = "Undirected edges (default ${DEFAULT-VALUE}).")
        long edges;

        @Option(names = "--components", paramLabel = "K", defaultValue = "10", description = "k (default ${DEFAULT-VALUE}).")
        int k;

        @Option(names = "--block-size", paramLabel = "P", description = "p >= k (default k).")
        Integer p;

        @Option(names = "--iterations", paramLabel = "L", defaultValue = "20", description = "L (default ${DEFAULT-VALUE}).")
        int iterations;

        @Option(names = "--rounds", paramLabel = "R", defaultValue = "5", description = "Rounds; each times --repeat products, one "
                + "private and one exact release, and the medians over rounds are reported (default ${DEFAULT-VALUE}).")
        int rounds;

        @Option(names = "--repeat", paramLabel = "R", defaultValue = "5", description = "Products timed per round; their mean is that "
                + "round's reference, as the iterations are timed on average too (default ${DEFAULT-VALUE}).")
        int repeat;

        @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Seed of the graph (default ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--secure", description = "Draw the noise from SecureRandom (default: seeded, as in tests).")
        boolean secure;

        @Mixin
        BenchReport report;

        @Override
        public Integer call() throws Exception {
            if (rounds < 1 || repeat < 1) {
                throw new IllegalArgumentException("--rounds and --repeat must be >= 1");
            }
            int bp = p == null ? k : p;
            report.print(PowerBenchmark.sparse(nodes, edges, k, bp, iterations, rounds, repeat, seed, secure));
            return 0;
        }
    }
}
