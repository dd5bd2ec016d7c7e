package io.dpspectra.bench;

import static io.dpspectra.bench.Timing.median;
import static io.dpspectra.bench.Timing.peakHeapBytes;
import static io.dpspectra.bench.Timing.resetPeaks;
import static io.dpspectra.bench.Timing.secondsSince;

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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Throughput of the power-method family. {@link #streaming} times one pass of the streaming power method over a
 * .dpsr file and reports rows/s and the peak heap; {@link #sparse} times the private power method on a random
 * sparse graph against one sparse block product A·X. The graph is benchmark data from a seeded
 * {@link SplittableRandom} (not a privacy mechanism).
 */
public final class PowerBenchmark {
    private PowerBenchmark() {
    }

    /**
     * One pass of the streaming power method (Hardt &amp; Price, Fig. 2) over a .dpsr file.
     *
     * @param file       the .dpsr file
     * @param k          components
     * @param p          the block size, at least k
     * @param iterations L
     * @param blockRows  rows per BLAS block, or null for about 256 KB of rows
     * @param baseline   whether to time a bare read pass of the same rows too
     * @return the results in report order (benchmark, backend, file, rows, ..., topSingularValue)
     * @throws IOException if the file cannot be read
     */
    public static Map<String, Object> streaming(Path file, int k, int p, int iterations, Integer blockRows,
            boolean baseline) throws IOException {
        BinaryRows rows = BinaryRows.open(file);
        int block = blockRows != null ? blockRows : BlockGramProduct.defaultBlockRows(rows.dimension());
        double readOnly = Double.NaN;
        if (baseline) {
            long t = System.nanoTime();
            double[] buffer = new double[block * rows.dimension()];
            try (RowCursor c = rows.open()) {
                while (c.nextBlock(buffer, block, rows.dimension()) > 0) {
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
                .blockRows(block).randomSource(RandomSource.seededForReproducibility(1)).build().run(rows, n);
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
        m.put("blockRows", block);
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
        return m;
    }

    /**
     * The private power method (entry-level Gaussian) on a random sparse graph with {@code nodes} nodes and
     * {@code edges} uniformly random edges: time per iteration against one sparse block product A·X (d × p), and the
     * parts of an iteration (product, noise, QR).
     *
     * @param nodes      d
     * @param edges      undirected edges
     * @param k          components
     * @param p          the block size, at least k
     * @param iterations L
     * @param rounds     rounds, at least 1; each times {@code repeat} products, one private and one exact release,
     *                   and the medians over rounds are reported
     * @param repeat     products timed per round, at least 1
     * @param seed       the seed of the graph (and of the noise unless {@code secure})
     * @param secure     whether the noise comes from SecureRandom (else seeded, as in tests)
     * @return the results in report order (benchmark, backend, cores, nodes, ..., exactIterationOverProduct)
     */
    public static Map<String, Object> sparse(int nodes, long edges, int k, int p, int iterations, int rounds,
            int repeat, long seed, boolean secure) {
        if (rounds < 1 || repeat < 1) {
            throw new IllegalArgumentException("rounds and repeat must be >= 1, got " + rounds + " and " + repeat);
        }
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
        Matrix x = new Matrix(nodes, p);
        for (int i = 0; i < x.data().length; i++) {
            x.data()[i] = random.standardNormal();
        }
        x = Orthonormal.qr(x);
        PrivacyParams budget = PrivacyParams.of(1.0, 1e-6);
        PrivatePowerMethod ppm = PrivatePowerMethod.builder().components(k).blockSize(p).iterations(iterations)
                .randomSource(random).build();
        NoisyPowerMethod npm = NoisyPowerMethod.builder().components(k).blockSize(p).iterations(iterations)
                .randomSource(random).build();
        ppm.release(a, budget); // warm-up of every kernel (JIT), not timed
        npm.run(a);
        double scale = PrivatePowerMethod.sigma(p, iterations, budget) * x.maxAbs();
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
        double samples = (double) nodes * p;

        Map<String, Object> m = new LinkedHashMap<>();
        m.put("benchmark", "private-power-sparse");
        m.put("backend", Backend.DEFAULT.describe());
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("nodes", nodes);
        m.put("edges", edges);
        m.put("nonZeros", a.nonZeros());
        m.put("k", k);
        m.put("p", p);
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
        return m;
    }
}
