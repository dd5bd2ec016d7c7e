package io.dpspectra.spark;

import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.privacy.PrivacyParams;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

/**
 * The benchmark of docs/benchmarks/spark.md (not a test): DP-Gauss-1 on n × d rows held in memory,
 * core in one process against {@link DpPca} in Spark local[1] and local[2]. Best of {@code repeat} timed
 * fits after one warm-up; the Spark input is a cached DataFrame of vectors, so the timings are the
 * release (count, clip, XᵀX, aggregate, noise, eigendecomposition), not data generation. A scan that only
 * deserialises the cached vectors is timed too, as the floor under any estimator reading the frame.
 *
 * <p>Usage: {@code dpspectra-spark/spark-bench.sh [rows] [dim] [partitions] [repeat]} (default 1000000 100 8 3),
 * which builds the test classpath and runs this main with Spark's module flags and OPENBLAS_NUM_THREADS=1.
 */
public final class SparkGramBench {
    private static final PrivacyParams BUDGET = PrivacyParams.of(1.0, 1e-6);

    private SparkGramBench() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int d = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int partitions = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        int repeat = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        System.out.printf(Locale.ROOT, "n = %d, d = %d, partitions = %d, best of %d, %d cores, OPENBLAS_NUM_THREADS=%s, "
                + "BLAS %s%n", n, d, partitions, repeat, Runtime.getRuntime().availableProcessors(),
                System.getenv().getOrDefault("OPENBLAS_NUM_THREADS", "unset"), io.dpspectra.linalg.Backend.DEFAULT.describe());
        System.out.printf(Locale.ROOT, "core single process: %.3f s%n", core(n, d, repeat));
        for (String master : new String[] {"local[1]", "local[2]"}) {
            double[] t = spark(master, n, d, partitions, repeat);
            System.out.printf(Locale.ROOT, "spark %s: fit %.3f s (of which reading the cached vectors alone: %.3f s)%n",
                    master, t[0], t[1]);
        }
    }

    /** Row i of partition p of P (values in [−1, 1)·0.2: most rows have norm below the bound 1). */
    private static double[] rowsOf(int p, int partitions, int n, int d) {
        int from = (int) ((long) p * n / partitions);
        int to = (int) ((long) (p + 1) * n / partitions);
        RandomSource r = RandomSource.seededForReproducibility(1000 + p);
        double[] out = new double[(to - from) * d];
        for (int i = 0; i < out.length; i++) {
            out[i] = (2 * r.nextDouble() - 1) * 0.2;
        }
        return out;
    }

    private static double core(int n, int d, int repeat) {
        List<double[]> slabs = new ArrayList<>();
        for (int p = 0; p < 8; p++) {
            slabs.add(rowsOf(p, 8, n, d));
        }
        RowSource rows = new RowSource() {
            @Override
            public int dimension() {
                return d;
            }

            @Override
            public RowCursor open() {
                return new RowCursor() {
                    private int slab;
                    private int offset;
                    private long read;

                    @Override
                    public boolean next(double[] into) {
                        return nextBlock(into, 1, d) == 1;
                    }

                    @Override
                    public int nextBlock(double[] block, int maxRows, int width) {
                        int got = 0;
                        while (got < maxRows && slab < slabs.size()) {
                            double[] s = slabs.get(slab);
                            int take = Math.min(maxRows - got, (s.length - offset) / d);
                            System.arraycopy(s, offset, block, got * d, take * d);
                            got += take;
                            offset += take * d;
                            if (offset == s.length) {
                                slab++;
                                offset = 0;
                            }
                        }
                        read += got;
                        return got;
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
        return best(repeat, () -> AnalyzeGauss.builder().components(5).build().fit(rows.clipL2(1), BUDGET));
    }

    private static double[] spark(String master, int n, int d, int partitions, int repeat) {
        SparkSession spark = SparkTestSupport.session(master);
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            Dataset<Row> df = spark.createDataFrame(jsc.parallelize(IntStream.range(0, partitions).boxed().toList(),
                    partitions).flatMap(p -> {
                        double[] slab = rowsOf(p, partitions, n, d);
                        List<Row> rows = new ArrayList<>(slab.length / d);
                        for (int i = 0; i < slab.length; i += d) {
                            rows.add(RowFactory.create(Vectors.dense(java.util.Arrays.copyOfRange(slab, i, i + d))));
                        }
                        return rows.iterator();
                    }), SparkTestSupport.SCHEMA).persist(StorageLevel.MEMORY_ONLY());
            if (df.count() != n) {
                throw new IllegalStateException("cached " + df.count() + " rows, expected " + n);
            }
            DpPca pca = new DpPca().setK(5).setEpsilon(1).setDelta(1e-6).setClipNorm(1);
            double fit = best(repeat, () -> pca.fit(df));
            // the floor under any Spark ML estimator here: deserialise every cached vector once
            double scan = best(repeat, () -> df.select("features").toJavaRDD()
                    .map(r -> ((org.apache.spark.ml.linalg.Vector) r.get(0)).size()).count());
            return new double[] {fit, scan};
        } finally {
            spark.stop();
        }
    }

    private static double best(int repeat, Runnable fit) {
        fit.run();   // warm-up
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < repeat; i++) {
            long t = System.nanoTime();
            fit.run();
            best = Math.min(best, (System.nanoTime() - t) / 1e9);
        }
        return best;
    }
}
