package io.dpspectra.bench;

import io.dpspectra.data.BinaryRows;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.GramStatistic;
import io.dpspectra.data.ReadAhead;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Backend;
import io.dpspectra.linalg.Gram;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.linalg.RowBlocks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One pass over a {@code .dpsr} file, taken apart: what each layer of a streamed release costs on top of reading
 * the file's bytes. The steps, each timed on the same file in one JVM, in turn within every round (so that a
 * change in the machine's load reaches all of them alike):
 * <ol>
 *   <li>{@code rawRead}: the file's bytes through a 1 MiB direct buffer ({@link FileChannel#read}), nothing
 *       decoded: the floor any reader pays;</li>
 *   <li>{@code decode}: the {@link BinaryRows} cursor into a block of {@link Gram#blockRows(int)} rows (with its
 *       finiteness check);</li>
 *   <li>{@code decodeClip}: the same through an L2 clip ({@link RowSource#clipL2}), as every bounded release
 *       reads;</li>
 *   <li>{@code streamingProduct}: the clipped rows folded into Xᵀ(X·W) for a d × p orthonormal W
 *       ({@link GramStatistic#rangeProduct}, one step of the streaming power method over every row);</li>
 *   <li>{@code fileGram}: the clipped Gram pass of a release ({@link GramPass});</li>
 *   <li>{@code inMemoryGram}: XᵀX of the same clipped rows held in memory (one {@link Gram#addBlock} over all
 *       of them: the same canonical blocks and the same bits as {@code fileGram}, without the file).</li>
 * </ol>
 * One warm-up round, then {@code repeat} timed rounds; the best wall time and the best CPU time of the calling
 * thread and of the read-ahead thread of the Gram pass ({@link ReadAhead}) together (nanosecond resolution; the
 * process's CPU clock counts in 10 ms ticks) of each step are reported. That CPU time leaves out only the BLAS's own
 * threads: run with {@code OPENBLAS_NUM_THREADS=1} for CPU times that hold all of the work. Rates are in GB (10⁹ bytes of row data, 8·n·d) per second.
 *
 * <p>Cost: the in-memory step holds the clipped matrix, 8·n·d bytes.
 */
public final class PassBenchmark {
    /** The steps, in the order they run and are reported. */
    public static final List<String> STEPS = List.of("rawRead", "decode", "decodeClip", "streamingProduct", "fileGram",
            "inMemoryGram");

    private PassBenchmark() {
    }

    /**
     * Times the steps on the rows of a file.
     *
     * @param file      a {@code .dpsr} file
     * @param clipNorm  the L2 bound of the clipped steps, &gt; 0
     * @param p         the columns of W in the streaming product, at least 1 and at most d
     * @param backend   the linear-algebra backend of the products
     * @param repeat    timed rounds, at least 1
     * @return the results in report order: benchmark, backend, file, rows, dim, gigabytes, clipNorm, p, blockRows,
     *         repeat, cores, loadAverageBefore, then per step its Seconds, CpuSeconds (the calling and read-ahead
     *         threads'), GBps and GBperCpuSecond, then
     *         the ratios (decodeOverRaw, decodeClipOverRaw, streamingProductOverRaw, fileGramOverInMemory, each of
     *         the best wall times, and the same of the best CPU times with the suffix Cpu), gramsBitIdentical and
     *         loadAverageAfter
     * @throws IllegalArgumentException if the clipped matrix does not fit in one array, or a parameter is out of range
     */
    public static Map<String, Object> run(Path file, double clipNorm, int p, Backend backend, int repeat) {
        BinaryRows data = BinaryRows.open(file);
        long n = data.size();
        int d = data.dimension();
        if (!GramBenchmark.fitsInMemory(n, d)) {
            throw new IllegalArgumentException("the in-memory step needs n x d <= 2^31, got " + n + " x " + d);
        }
        if (!(clipNorm > 0) || p < 1 || p > d || repeat < 1) {
            throw new IllegalArgumentException("need clipNorm > 0, 1 <= p <= d and repeat >= 1, got " + clipNorm + ", "
                    + p + ", " + repeat);
        }
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        RowSource clipped = data.clipL2(clipNorm);
        int gramRows = Gram.blockRows(d);
        double[] block = new double[gramRows * d];
        double[] productBuffer = new double[RowBlocks.DEFAULT_BLOCK_ROWS * d];
        Matrix w = Orthonormal.qr(randomMatrix(d, p, 7), backend);
        double[] x = new double[(int) (n * d)];
        try (RowCursor c = clipped.open()) {
            c.nextBlock(x, (int) n, d);
        }
        Matrix[] grams = new Matrix[2];
        Runnable[] steps = {
            () -> readBytes(file),
            () -> drain(data, block, gramRows, d),
            () -> drain(clipped, block, gramRows, d),
            () -> {
                try (RowCursor c = clipped.open()) {
                    GramStatistic.rangeProduct(c, n, w, productBuffer);
                }
            },
            () -> grams[0] = GramPass.of(clipped, backend, gramRows, k -> { }).gram(),
            () -> {
                Gram g = new Gram(d, backend);
                g.addBlock(x, (int) n);
                grams[1] = g.result();
            },
        };
        double[] wall = new double[steps.length];
        double[] cpu = new double[steps.length];
        Arrays.fill(wall, Double.POSITIVE_INFINITY);
        Arrays.fill(cpu, Double.POSITIVE_INFINITY);
        for (int round = 0; round <= repeat; round++) {
            for (int s = 0; s < steps.length; s++) {
                long c0 = threads.getCurrentThreadCpuTime() + ReadAhead.finishedThreadsCpuNanos();
                long t0 = System.nanoTime();
                steps[s].run();
                double t = Timing.secondsSince(t0);
                double c = (threads.getCurrentThreadCpuTime() + ReadAhead.finishedThreadsCpuNanos() - c0) / 1e9;
                if (round > 0) { // round 0 warms up
                    wall[s] = Math.min(wall[s], t);
                    cpu[s] = Math.min(cpu[s], c);
                }
            }
        }
        double gb = 8.0 * n * d / 1e9;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("benchmark", "pass");
        out.put("backend", backend.describe());
        out.put("file", file.toString());
        out.put("rows", n);
        out.put("dim", d);
        out.put("gigabytes", gb);
        out.put("clipNorm", clipNorm);
        out.put("p", p);
        out.put("blockRows", gramRows);
        out.put("repeat", repeat);
        out.put("cores", Runtime.getRuntime().availableProcessors());
        out.put("loadAverageBefore", load);
        for (int s = 0; s < steps.length; s++) {
            String name = STEPS.get(s);
            out.put(name + "Seconds", wall[s]);
            out.put(name + "CpuSeconds", cpu[s]);
            out.put(name + "GBps", gb / wall[s]);
            out.put(name + "GBperCpuSecond", gb / cpu[s]);
        }
        for (String suffix : new String[] {"", "Cpu"}) {
            double[] t = suffix.isEmpty() ? wall : cpu;
            out.put("decodeOverRaw" + suffix, t[1] / t[0]);
            out.put("decodeClipOverRaw" + suffix, t[2] / t[0]);
            out.put("streamingProductOverRaw" + suffix, t[3] / t[0]);
            out.put("fileGramOverInMemory" + suffix, t[4] / t[5]);
        }
        out.put("gramsBitIdentical", Arrays.equals(grams[0].data(), grams[1].data()));
        out.put("loadAverageAfter", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        return out;
    }

    /** Reads every byte of the file through a 1 MiB direct buffer, decoding nothing. */
    private static void readBytes(Path file) {
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (ch.read(buf) >= 0) {
                buf.clear();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads every row of the source, {@code rows} at a time, and drops them. */
    private static void drain(RowSource source, double[] block, int rows, int d) {
        try (RowCursor c = source.open()) {
            while (c.nextBlock(block, rows, d) > 0) {
                // dropped
            }
        }
    }

    /** A d × p matrix of uniform entries from a seeded generator (benchmark data, not a privacy mechanism). */
    private static Matrix randomMatrix(int d, int p, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Matrix m = new Matrix(d, p);
        for (int i = 0; i < m.data().length; i++) {
            m.data()[i] = rnd.nextDouble(-1, 1);
        }
        return m;
    }
}
