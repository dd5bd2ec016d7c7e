package io.dpspectra.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.DataBounds;
import io.dpspectra.data.GramStatistic;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.PowerMethodResult;
import io.dpspectra.pca.StreamingPowerMethod;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.release.Algorithms;
import io.dpspectra.release.BudgetPlan;
import io.dpspectra.release.Bounding;
import io.dpspectra.release.Centring;
import io.dpspectra.release.PcaAlgorithm;
import io.dpspectra.release.PcaOptions;
import io.dpspectra.release.Preprocessor;
import io.dpspectra.release.ReleaseListener;
import io.dpspectra.release.ReleaseSettingException;
import io.dpspectra.release.RowBound;
import io.dpspectra.release.RowStatistics;
import io.dpspectra.release.Vocabulary;
import io.dpspectra.result.PrivateSubspace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Large d on Spark: at d = 20,000 (sparse rows with a planted rank-2 signal) the private power method runs as one
 * distributed product Xᵀ(XW) per iteration, in a heap that could not hold one d × d matrix, with d × k numbers per
 * product reaching the driver, and releases exactly what core releases from the same rows in one JVM; the
 * streaming power method's steps are distributed products over their rows' ranges, equal to core's single pass;
 * the algorithms that form d × d matrices are refused before anything is spent, naming the alternative.
 * The two runs at d = 20,000 are tagged slow (run them with -Pslow).
 */
class LargeDimensionSparkTest {
    private static final int D = 20_000;
    private static final int N = 4_000;
    /** Rows the streaming power method reads (7 steps of 214). */
    private static final int STREAMED = 1_500;
    /** Coordinates of the two planted directions: u1 on [0, 100), u2 on [100, 200). */
    private static final int SUPPORT = 100;
    /** Background non-zeros per row, on random coordinates. */
    private static final int BACKGROUND = 200;
    private static int[][] indices;
    private static double[][] values;
    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.session("local[2]");
        // row i = a·u1 + b·u2 + background, a ~ N(0, 0.6²), b ~ N(0, 0.45²), u1, u2 uniform unit vectors on
        // their supports; 200 background entries N(0, 0.02²) on random coordinates (about 400 non-zeros a row)
        RandomSource r = RandomSource.seededForReproducibility(20_000);
        indices = new int[N][];
        values = new double[N][];
        double unit = 1 / Math.sqrt(SUPPORT);
        for (int i = 0; i < N; i++) {
            double[] row = new double[D];
            double a = 0.6 * r.standardNormal();
            double b = 0.45 * r.standardNormal();
            for (int j = 0; j < SUPPORT; j++) {
                row[j] = a * unit;
                row[SUPPORT + j] = b * unit;
            }
            for (int e = 0; e < BACKGROUND; e++) {
                row[2 * SUPPORT + r.nextInt(D - 2 * SUPPORT)] += 0.02 * r.standardNormal();
            }
            int nnz = 0;
            for (double v : row) {
                nnz += v != 0 ? 1 : 0;
            }
            indices[i] = new int[nnz];
            values[i] = new double[nnz];
            for (int j = 0, at = 0; j < D; j++) {
                if (row[j] != 0) {
                    indices[i][at] = j;
                    values[i][at++] = row[j];
                }
            }
        }
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    /** The rows as sparse vectors in {@code partitions} slices. */
    private static Dataset<Row> frame(int partitions) {
        return frame(partitions, N);
    }

    /** The first n rows as sparse vectors in {@code partitions} slices. */
    private static Dataset<Row> frame(int partitions, int n) {
        List<Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            rows.add(RowFactory.create(Vectors.sparse(D, indices[i], values[i])));
        }
        return spark.createDataFrame(JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(rows,
                partitions), SparkTestSupport.SCHEMA);
    }

    /** The same rows read on this machine, one dense row at a time (never all of them dense at once). */
    private static RowSource local() {
        return local(N);
    }

    /** The first n rows read on this machine. */
    private static RowSource local(int n) {
        return new RowSource() {
            @Override
            public int dimension() {
                return D;
            }

            @Override
            public String describe() {
                return "sparse rows";
            }

            @Override
            public RowCursor open() {
                return new RowCursor() {
                    private int next;

                    @Override
                    public boolean next(double[] into) {
                        if (next == n) {
                            return false;
                        }
                        Arrays.fill(into, 0, D, 0.0);
                        for (int e = 0; e < indices[next].length; e++) {
                            into[indices[next][e]] = values[next][e];
                        }
                        next++;
                        return true;
                    }

                    @Override
                    public String position() {
                        return "row " + next;
                    }

                    @Override
                    public long rowsRead() {
                        return next;
                    }

                    @Override
                    public void close() {
                    }
                };
            }
        };
    }

    private static List<String> names() {
        List<String> names = new ArrayList<>(D);
        for (int j = 1; j <= D; j++) {
            names.add("x" + j);
        }
        return names;
    }

    /** Core's release in one JVM, as DpPca makes it: the budget plan, the bound, the estimator, the same seed. */
    private static PrivateSubspace coreRelease(String algorithm, double epsilon, int k, long seed) {
        PcaAlgorithm alg = Algorithms.pca(algorithm, Vocabulary.JAVA);
        RowBound bound = RowBound.clip(1.0);
        BudgetPlan plan = BudgetPlan.split(PrivacyParams.of(epsilon, 1e-6), bound, Centring.NONE, null,
                alg.needsDelta(), alg.noise(), Vocabulary.JAVA);
        Neighbouring nb = plan.neighbouring(null);
        RandomSource random = RandomSource.seededForReproducibility(seed);
        Preprocessor.Prepared p = Preprocessor.prepare(RowStatistics.of(local(), names()), null, bound, Centring.NONE,
                plan, nb, random, Vocabulary.JAVA, new ReleaseListener() {
                    @Override
                    public void beforeReading(int d) {
                    }

                    @Override
                    public void note(String message) {
                    }
                });
        return alg.fit(new PcaAlgorithm.Input(p.rows(), p.rowCount(), k, plan.estimator(), nb, random, w -> { }, null),
                PcaOptions.defaults(), Vocabulary.JAVA);
    }

    /** The largest task result (Spark's resultSize metric) that reached the driver while {@code job} ran. */
    private static long largestResult(Runnable job) {
        AtomicLong largest = new AtomicLong();
        SparkListener listener = new SparkListener() {
            @Override
            public void onTaskEnd(SparkListenerTaskEnd end) {
                if (end.taskMetrics() != null) {
                    largest.accumulateAndGet(end.taskMetrics().resultSize(), Math::max);
                }
            }
        };
        spark.sparkContext().addSparkListener(listener);
        try {
            job.run();
            spark.sparkContext().listenerBus().waitUntilEmpty(60_000);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("Spark's listener bus did not drain", e);
        } finally {
            spark.sparkContext().removeSparkListener(listener);
        }
        return largest.get();
    }

    // 73 s under a load average of 17 on 2 cores (longer than the default suite's budget of about a minute a test)
    @Tag("slow")
    @Test
    void privatePowerAtTwentyThousandDimensionsIsCoresReleaseWithoutAnyDxD() {
        long dxd = 8L * D * D;
        assertThat(Runtime.getRuntime().maxMemory()).as("this heap cannot hold one d x d matrix of doubles")
                .isLessThan(dxd);
        int k = 2;
        DpPcaModel[] model = new DpPcaModel[1];
        long largest = largestResult(() -> model[0] = new DpPca().setAlgorithm("private-power").setK(k).setEpsilon(8)
                .setDelta(1e-6).setClipNorm(1.0).setSeed(11).fit(frame(3)));
        PrivateSubspace core = coreRelease("private-power", 8, k, 11);
        assertThat(model[0].components().data()).containsExactly(core.components().data());
        // the products' d x p numbers (and a row count) per task result, never a d x d block
        System.out.printf("d = %d: largest task result %d bytes (d x k doubles: %d; d x d: %d)%n", D, largest,
                8L * D * k, dxd);
        assertThat(largest).isLessThan(2 * 8L * D * k);
        // the planted plane is found: the sum of squared cosines between the release and span(u1, u2) (2 for the
        // plane itself) is far above a random 2-dimensional subspace's 2·2/d = 0.0002; the first direction
        // (eigenvalue about 0.36·n = 1440 against the noise's spectral norm of about sigma·sqrt(d), some hundreds
        // at epsilon = 8) alone brings close to 1, the second (0.2·n) part of another
        Matrix u = model[0].components();
        double captured = 0;
        double unit = 1 / Math.sqrt(SUPPORT);
        for (int c = 0; c < k; c++) {
            double on1 = 0;
            double on2 = 0;
            for (int j = 0; j < SUPPORT; j++) {
                on1 += u.get(j, c) * unit;
                on2 += u.get(SUPPORT + j, c) * unit;
            }
            captured += on1 * on1 + on2 * on2;
        }
        System.out.printf("squared cosines of the release with the planted plane: %.3f of 2%n", captured);
        assertThat(captured).as("squared cosines with the planted plane (of 2)").isGreaterThan(0.5);
    }

    // 49 s under a load average of 17 on 2 cores
    @Tag("slow")
    @Test
    void streamingPowerStepsAreDistributedProductsOverTheirRowsAndEqualCoresSinglePass() {
        Bounding bound = Bounding.of(1.0, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN);
        PowerMethodResult here = StreamingPowerMethod.builder().components(2).iterations(7)
                .randomSource(RandomSource.seededForReproducibility(3)).build()
                .run(bound.apply(local(STREAMED)), STREAMED);
        for (int partitions : new int[] {1, 4}) {
            try (SparkStatistics source = SparkStatistics.of(frame(partitions, STREAMED), "features")) {
                GramStatistic statistic = source.statistic(bound);
                assertThat(GramStatistic.rangeProducts(statistic)).isPresent();
                PowerMethodResult there = StreamingPowerMethod.builder().components(2).iterations(7)
                        .randomSource(RandomSource.seededForReproducibility(3)).build().run(statistic, STREAMED);
                assertThat(there.components().data()).as("%d partitions", partitions)
                        .containsExactly(here.components().data());
            }
        }
    }

    @Test
    void gramAlgorithmsAreRefusedBeforeAnythingIsSpentNamingThePowerMethod() {
        DpPca gauss = new DpPca().setAlgorithm("analyze-gauss").setK(2).setEpsilon(1).setDelta(1e-6).setClipNorm(1.0);
        assertThatThrownBy(() -> gauss.fit(frame(2, 100))).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("d = 20000 is above 8000").hasMessageContaining("nothing was spent")
                .satisfies(e -> assertThat(((ReleaseSettingException) e).hint())
                        .contains("setAlgorithm(\"private-power\")"));
        // nothing was released, so the same estimator may fit again (and is refused again, for the same reason)
        assertThatThrownBy(() -> gauss.fit(frame(2, 100))).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("above 8000");
        DpCovariance covariance = new DpCovariance().setEpsilon(1).setClipNorm(1.0);
        assertThatThrownBy(() -> covariance.fit(frame(2, 100))).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("a covariance release (laplace)").hasMessageContaining("above 8000");
    }

    @Test
    void theDriversAndExecutorsMemoryDecideBelowTheLimit() {
        long gb = 1L << 30;
        SparkConf local2 = new SparkConf().set("spark.master", "local[2]");
        // d = 2000 in a 1 GB local[2] JVM: 4 + 2·3 matrices of 32 MB fit
        LargeDimension.checkGram("--algorithm analyze-gauss", true, 2000, local2, gb, LargeDimension.Front.JOB);
        // d = 4000: 10 matrices of 128 MB do not
        assertThatThrownBy(() -> LargeDimension.checkGram("--algorithm analyze-gauss", true, 4000, local2, gb,
                LargeDimension.Front.JOB)).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("1.3 GB on the driver for d = 4000")
                .satisfies(e -> assertThat(((ReleaseSettingException) e).hint())
                        .contains("spark-submit --driver-memory 2g").contains("--algorithm private-power"));
        // on a cluster the driver holds 4 matrices, and each executor core 3
        SparkConf cluster = new SparkConf().set("spark.master", "spark://127.0.0.1:7077")
                .set("spark.executor.memory", "512m");
        LargeDimension.checkGram("--algorithm analyze-gauss", true, 2000, cluster, gb, LargeDimension.Front.JOB);
        assertThatThrownBy(() -> LargeDimension.checkGram("--algorithm analyze-gauss", true, 3200, cluster, 4 * gb,
                LargeDimension.Front.JOB)).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("in each executor for d = 3200")
                .satisfies(e -> assertThat(((ReleaseSettingException) e).hint())
                        .contains("spark-submit --executor-memory"));
        assertThat(LargeDimension.localTasks("local")).isEqualTo(1);
        assertThat(LargeDimension.localTasks("local[3]")).isEqualTo(3);
        assertThat(LargeDimension.localTasks("local[2,4]")).isEqualTo(2);
    }
}
