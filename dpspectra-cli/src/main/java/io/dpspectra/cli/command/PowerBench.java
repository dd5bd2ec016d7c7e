package io.dpspectra.cli.command;

import static io.dpspectra.cli.output.BenchReport.median;
import static io.dpspectra.cli.output.BenchReport.peakHeapBytes;
import static io.dpspectra.cli.output.BenchReport.resetPeaks;
import static io.dpspectra.cli.output.BenchReport.secondsSince;

import io.dpspectra.cli.output.BenchReport;
import io.dpspectra.data.BinaryRows;
import io.dpspectra.data.RowCursor;
import io.dpspectra.linalg.Backend;
import io.dpspectra.linalg.BlockGramProduct;
import io.dpspectra.linalg.CsrMatrix;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.NoisyPowerMethod;
import io.dpspectra.pca.PowerMethodResult;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.pca.StreamingPowerMethod;
import io.dpspectra.privacy.PrivacyParams;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra bench power ...}: throughput of the power-method family. {@code streaming} times one pass
 * of the streaming power method over a .dpsr file and reports rows/s and the peak heap; {@code sparse} times
 * the private power method on a random sparse graph against one sparse block product A·X. The graph is
 * benchmark data from a seeded {@link SplittableRandom} (not a privacy mechanism).
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
            BinaryRows rows = BinaryRows.open(file);
            int blockRows = this.blockRows != null ? this.blockRows
                    : BlockGramProduct.defaultBlockRows(rows.dimension());
            double readOnly = Double.NaN;
            if (baseline) {
                long t = System.nanoTime();
                double[] block = new double[blockRows * rows.dimension()];
                try (RowCursor c = rows.open()) {
                    while (c.nextBlock(block, blockRows, rows.dimension()) > 0) {
                        // read only
                    }
                }
                readOnly = secondsSince(t);
            }
            long n = rows.size();
            int d = rows.dimension();
            resetPeaks();
            long t0 = System.nanoTime();
            PowerMethodResult r = StreamingPowerMethod.builder().components(k).blockSize(p).iterations(iterations)
                    .blockRows(blockRows).randomSource(RandomSource.seededForReproducibility(1)).build().run(rows, n);
            double sec = secondsSince(t0);
            long used = (n / iterations) * iterations;
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("benchmark", "streaming-power");
            m.put("backend", Backend.DEFAULT.describe());
            m.put("file", file.toString());
            m.put("rows", n);
            m.put("dim", d);
            m.put("k", k);
            m.put("p", p);
            m.put("iterations", iterations);
            m.put("blockRows", blockRows);
            m.put("rowsUsed", used);
            m.put("seconds", sec);
            m.put("rowsPerSecond", used / sec);
            m.put("megabytesPerSecond", used * d * 8.0 / sec / 1e6);
            m.put("gflops", 4.0 * used * d * p / sec / 1e9);
            if (baseline) {
                m.put("readOnlySeconds", readOnly);
                m.put("readOnlyRowsPerSecond", n / readOnly);
            }
            m.put("peakHeapMB", peakHeapBytes() / 1e6);
            m.put("maxHeapMB", Runtime.getRuntime().maxMemory() / 1e6);
            m.put("fileMB", Files.size(file) / 1e6);
            m.put("topSingularValue", r.singularValues()[0]);
            report.print(m);
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
            long t0 = System.nanoTime();
            SplittableRandom rnd = new SplittableRandom(seed);
            CsrMatrix.Builder b = CsrMatrix.builder(nodes);
            for (long e = 0; e < edges; e++) {
                int u = rnd.nextInt(nodes);
                int v = rnd.nextInt(nodes - 1);
                if (v >= u) {
                    v++;
                }
                b.addSymmetric(u, v, 1.0);
            }
            CsrMatrix a = b.build();
            double buildSec = secondsSince(t0);
            RandomSource random = secure ? RandomSource.secure() : RandomSource.seededForReproducibility(seed);
            Matrix x = new Matrix(nodes, bp);
            for (int i = 0; i < x.data().length; i++) {
                x.data()[i] = random.standardNormal();
            }
            x = Orthonormal.qr(x);
            PrivacyParams budget = PrivacyParams.of(1.0, 1e-6);
            PrivatePowerMethod ppm = PrivatePowerMethod.builder().components(k).blockSize(bp).iterations(iterations)
                    .randomSource(random).build();
            NoisyPowerMethod npm = NoisyPowerMethod.builder().components(k).blockSize(bp).iterations(iterations)
                    .randomSource(random).build();
            ppm.release(a, budget); // warm-up of every kernel (JIT), not timed
            npm.run(a);
            double scale = PrivatePowerMethod.sigma(bp, iterations, budget) * x.maxAbs();
            GaussianNoise gaussian = new GaussianNoise(random);
            double[] product = new double[rounds];
            double[] privateIteration = new double[rounds];
            double[] exactIteration = new double[rounds];
            double[] noise = new double[rounds];
            double[] ratio = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                long t = System.nanoTime();
                for (int i = 0; i < repeat; i++) {
                    a.times(x);
                }
                product[r] = secondsSince(t) / repeat;
                t = System.nanoTime();
                ppm.release(a, budget);
                privateIteration[r] = secondsSince(t) / iterations;
                t = System.nanoTime();
                npm.run(a);
                exactIteration[r] = secondsSince(t) / iterations;
                double[] y = a.times(x).data();
                t = System.nanoTime();
                gaussian.addNoiseInPlace(y, scale);
                noise[r] = secondsSince(t);
                ratio[r] = privateIteration[r] / product[r];
            }
            // for reference, the per-value path (addNoise: CKS on the caller's thread); second run timed
            int single = 200_000;
            double singleNanos = 0;
            for (int warm = 0; warm < 2; warm++) {
                long t = System.nanoTime();
                double sink = 0;
                for (int i = 0; i < single; i++) {
                    sink += gaussian.addNoise(0.5, scale);
                }
                singleNanos = (System.nanoTime() - t) / (double) single;
                if (Double.isNaN(sink)) {
                    throw new IllegalStateException("noise produced NaN");
                }
            }
            double samples = (double) nodes * bp;

            Map<String, Object> m = new LinkedHashMap<>();
            m.put("benchmark", "private-power-sparse");
            m.put("backend", Backend.DEFAULT.describe());
            m.put("cores", Runtime.getRuntime().availableProcessors());
            m.put("nodes", nodes);
            m.put("edges", edges);
            m.put("nonZeros", a.nonZeros());
            m.put("k", k);
            m.put("p", bp);
            m.put("iterations", iterations);
            m.put("rounds", rounds);
            m.put("noiseSource", random.isSeeded() ? "seeded" : "SecureRandom");
            m.put("graphBuildSeconds", buildSec);
            m.put("productSeconds (A*X, median of rounds)", median(product));
            m.put("privateSecondsPerIteration (median)", median(privateIteration));
            m.put("exactSecondsPerIteration (no noise, median)", median(exactIteration));
            m.put("noiseSeconds (d*p Gaussian values, all cores, median)", median(noise));
            m.put("noiseNanosPerValue (all cores)", median(noise) * 1e9 / samples);
            m.put("noiseNanosPerValue (addNoise, one value per call)", singleNanos);
            m.put("iterationOverProduct (median of rounds)", median(ratio));
            m.put("iterationOverProduct (min of rounds)", Arrays.stream(ratio).min().orElseThrow());
            m.put("iterationOverProduct (max of rounds)", Arrays.stream(ratio).max().orElseThrow());
            m.put("exactIterationOverProduct (medians)", median(exactIteration) / median(product));
            report.print(m);
            return 0;
        }
    }
}
