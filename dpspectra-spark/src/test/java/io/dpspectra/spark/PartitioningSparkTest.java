package io.dpspectra.spark;

import static io.dpspectra.spark.SparkTestSupport.frame;
import static io.dpspectra.spark.SparkTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.PrivateBoundedMean;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.RowBlocks;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.release.Bounding;
import io.dpspectra.result.PrivateSubspace;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The statistics, and so every release, are core's bits whatever the partitioning (1 to 64 partitions
 * of the same rows, cut where no canonical block ends), for the sampling mechanisms too; and the driver
 * receives one d × d block, not one per partition.
 */
class PartitioningSparkTest {
    /** 1,999 rows: the last canonical block is short, and 3, 7 and 64 partitions cut blocks (of 256 or 1024 rows). */
    private static final double[][] ROWS = rows(1999, 7, 41);
    private static final int[] PARTITIONINGS = {1, 3, 7, 64};
    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.session("local[2]");
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    private static ClippedRows coreRows() {
        return InMemoryRows.of(ROWS).clipL2(1.0);
    }

    private static DistributedGram bounded(int partitions) {
        return DistributedGram.unbounded(SparkTestSupport.rdd(spark, ROWS, partitions)
                .map(org.apache.spark.ml.linalg.Vectors::dense), ROWS[0].length, "test rows", false)
                .bounded(Bounding.of(1.0, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN));
    }

    @Test
    void theStatisticsAreCoresBitsForEveryPartitioning() {
        ClippedRows counted = coreRows();
        double[] gram = GramPass.of(counted).gram().data();
        long clipped = counted.clippedRows();
        assertThat(clipped).isPositive();
        double[] sum = PrivateBoundedMean.sum(coreRows()).sum();
        Matrix w = Matrix.fromRows(new double[][] {{1, 0}, {0.5, 1}, {-1, 2}, {0, 0}, {3, 1}, {0.25, -2}, {1, 1}});
        double[] product = io.dpspectra.data.RowGramOperator.of(coreRows()).times(w).data();
        assertThat(ROWS.length % io.dpspectra.linalg.Gram.blockRows(ROWS[0].length)).isNotZero();
        assertThat(ROWS.length % RowBlocks.DEFAULT_BLOCK_ROWS).isNotZero();
        for (int p : PARTITIONINGS) {
            DistributedGram g = bounded(p);
            DistributedGram.Explicit e = g.explicit();
            assertThat(e.gram().data()).as("XᵀX over %d partitions", p).isEqualTo(gram);
            assertThat(e.rows()).isEqualTo(ROWS.length);
            assertThat(e.clippedRows()).isEqualTo(clipped);
            PrivateBoundedMean.Sum s = g.boundedSum(Bounding.of(1.0, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN));
            assertThat(s.sum()).as("sum over %d partitions", p).isEqualTo(sum);
            assertThat(s.rows()).isEqualTo(ROWS.length);
            assertThat(g.statistic().rows()).isEqualTo(ROWS.length);
            assertThat(io.dpspectra.data.RowGramOperator.of(g.statistic()).times(w).data())
                    .as("Xᵀ(XW) over %d partitions", p).isEqualTo(product);
        }
    }

    private static DpPca dpPca(String algorithm) {
        return new DpPca().setAlgorithm(algorithm).setK(2).setEpsilon(1).setDelta(1e-6).setClipNorm(1).setSeed(13);
    }

    private static DpCovariance cov(String algorithm) {
        return new DpCovariance().setAlgorithm(algorithm).setEpsilon(1).setClipNorm(1).setSeed(13);
    }

    @Test
    void everyReleaseIsTheSameBitsWhateverThePartitioning() {
        PrivacyParams budget = PrivacyParams.of(1, 1e-6);
        PrivateSubspace gauss = AnalyzeGauss.builder().components(2).randomSource(RandomSource.seededForReproducibility(13))
                .build().fit(coreRows(), budget);
        PrivateSubspace power = PrivatePowerMethod.builder().components(2)
                .randomSource(RandomSource.seededForReproducibility(13)).build().fit(coreRows(), budget);
        // the sampling mechanisms too: a last-bit change in XᵀX can flip one of their sampler's decisions
        String[] covariance = {"it-u", "ad", "kt", "laplace"};
        double[][] reference = new double[covariance.length][];
        for (int p : new int[] {1, 7, 64}) {
            Dataset<Row> df = frame(spark, ROWS, p);
            assertThat(dpPca("analyze-gauss").fit(df).release().components().data()).as("analyze-gauss, %d", p)
                    .isEqualTo(gauss.components().data());
            if (p == 64) {
                // many small tasks per job: the passes of the power method and the other samplers at 1 and 7
                assertThat(cov("kt").fit(df).release().matrix().data()).as("kt, 64").isEqualTo(reference[2]);
                continue;
            }
            assertThat(dpPca("private-power").fit(df).release().components().data()).as("private-power, %d", p)
                    .isEqualTo(power.components().data());
            for (int a = 0; a < covariance.length; a++) {
                double[] released = cov(covariance[a]).fit(df).release().matrix().data();
                if (reference[a] == null) {
                    reference[a] = released;
                }
                assertThat(released).as("%s, %d partitions", covariance[a], p).isEqualTo(reference[a]);
            }
        }
    }

    /** Bytes of task results that reached the driver (Spark's resultSize metric) while {@code job} ran. */
    private static long driverBytes(Runnable job) {
        AtomicLong bytes = new AtomicLong();
        SparkListener listener = new SparkListener() {
            @Override
            public void onTaskEnd(SparkListenerTaskEnd end) {
                if (end.taskMetrics() != null) {
                    bytes.addAndGet(end.taskMetrics().resultSize());
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
        return bytes.get();
    }

    @Test
    void theDriverReceivesOneBlockNotOnePerPartition() {
        int d = 200;
        double[][] wide = rows(2000, d, 5);
        DistributedGram g = DistributedGram.unbounded(SparkTestSupport.rdd(spark, wide, 64)
                .map(org.apache.spark.ml.linalg.Vectors::dense), d, "wide rows", false)
                .bounded(Bounding.of(1.0, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN));
        long counting = driverBytes(g::rows);
        long gram = driverBytes(g::explicit);
        long block = (long) d * d * Double.BYTES;
        System.out.printf("driver bytes at P = 64, d = %d: counting %d, XᵀX %d (one d x d block: %d)%n", d, counting,
                gram, block);
        assertThat(counting + gram).isLessThanOrEqualTo(3 * block);
        assertThat(gram).isGreaterThanOrEqualTo(block);   // the block itself did reach the driver
    }
}
