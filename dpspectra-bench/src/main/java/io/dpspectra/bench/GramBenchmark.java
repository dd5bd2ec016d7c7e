package io.dpspectra.bench;

import static io.dpspectra.bench.Timing.bestSeconds;

import io.dpspectra.data.BinaryRows;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Backend;
import io.dpspectra.linalg.Gram;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * XᵀX of an n × d matrix timed two ways: (a) a clipped, streamed {@link GramPass} over a {@link BinaryRows} file
 * (the Gram pass of a release) and (b) one bare in-memory XᵀX update (dsyrk on the native backend, dpspectra's
 * blocked kernel on the pure-Java backend). Best of the repeats after one warm-up; GFLOP/s count n·d² flops.
 *
 * <p>Cost: (b) holds the whole matrix in memory: 8·n·d bytes (800 MB for n = 10⁵, d = 1000).
 */
public final class GramBenchmark {
    private GramBenchmark() {
    }

    /**
     * The largest n·d that (b) can hold in one array.
     *
     * @param n rows
     * @param d columns
     * @return whether the in-memory part can run at this size
     */
    public static boolean fitsInMemory(long n, int d) {
        return n * d <= Integer.MAX_VALUE - 16;
    }

    /**
     * Times (a) and (b) on the rows of a file.
     *
     * @param data      the rows, read once per run by (a) and once into memory for (b)
     * @param backend   the linear-algebra backend of both
     * @param blockRows rows per block of the streamed pass, at least 1
     * @param repeat    timed runs of each, at least 1; the best is reported
     * @return the results in report order: benchmark, backend, rows, dim, blockRows, repeat, flopConvention,
     *         streamedClippedSeconds, streamedClippedGflops, inMemorySeconds, inMemoryGflops
     * @throws IllegalArgumentException if the matrix does not fit in one array ({@link #fitsInMemory})
     */
    public static Map<String, Object> run(BinaryRows data, Backend backend, int blockRows, int repeat) {
        long n = data.size();
        int d = data.dimension();
        if (!fitsInMemory(n, d)) {
            throw new IllegalArgumentException("the in-memory part needs n x d <= 2^31, got " + n + " x " + d);
        }
        double flops = (double) n * d * d;

        double streamed = bestSeconds(repeat, () -> GramPass.of(data.clipL2(1.0), backend, blockRows, k -> { }));

        double[] x = new double[(int) (n * d)];
        try (RowCursor c = data.open()) {
            c.nextBlock(x, (int) n, d);
        }
        double inMemory = bestSeconds(repeat, () -> {
            Gram g = new Gram(d, backend);
            g.addBlock(x, (int) n);
            g.result();
        });

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("benchmark", "gram");
        out.put("backend", backend.describe());
        out.put("rows", n);
        out.put("dim", d);
        out.put("blockRows", blockRows);
        out.put("repeat", repeat);
        out.put("flopConvention", "n*d^2");
        out.put("streamedClippedSeconds", streamed);
        out.put("streamedClippedGflops", flops / streamed / 1e9);
        out.put("inMemorySeconds", inMemory);
        out.put("inMemoryGflops", flops / inMemory / 1e9);
        return out;
    }

    /**
     * n × d benchmark rows, uniform in [−1, 1), generated on the fly from a seeded {@link SplittableRandom}
     * (benchmark data, not a privacy mechanism).
     *
     * @param n    rows
     * @param d    columns
     * @param seed the generator's seed
     * @return the rows, the same on every pass
     */
    public static RowSource benchmarkData(long n, int d, long seed) {
        return new RowSource() {
            @Override
            public int dimension() {
                return d;
            }

            @Override
            public String describe() {
                return "benchmark data " + n + "x" + d + " seed " + seed;
            }

            @Override
            public RowCursor open() {
                SplittableRandom rnd = new SplittableRandom(seed);
                return new RowCursor() {
                    private long read;

                    @Override
                    public boolean next(double[] into) {
                        if (read >= n) {
                            return false;
                        }
                        for (int j = 0; j < d; j++) {
                            into[j] = rnd.nextDouble(-1, 1);
                        }
                        read++;
                        return true;
                    }

                    @Override
                    public String position() {
                        return "row " + read;
                    }

                    @Override
                    public long rowsRead() {
                        return read;
                    }

                    @Override
                    public void close() {
                    }
                };
            }
        };
    }
}
