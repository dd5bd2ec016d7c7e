package io.dpspectra.spark;

import static io.dpspectra.spark.SparkTestSupport.frame;
import static io.dpspectra.spark.SparkTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.result.PrivateSubspace;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.TaskContext;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A task that fails and is retried does not change the release: Spark runs in {@code local[2,2]} (each
 * task may fail once) and partition 1 throws on the first attempt of every job. The retried partition
 * reports last, so the partials are merged in a different order than in the fault-free run; the
 * order-free sum of canonical blocks keeps XᵀX, and so the release, bit-identical.
 */
class FaultToleranceSparkTest {
    private static final double[][] ROWS = rows(1200, 6, 21);
    /** Executors run in this JVM in local mode, so the injected failures can be counted here. */
    static final AtomicInteger INJECTED = new AtomicInteger();
    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.session("local[2,2]");
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    /** The rows in 5 partitions, partition 1 failing on its first attempt in every job. */
    private static Dataset<Row> failingOnce() {
        return spark.createDataFrame(SparkTestSupport.rdd(spark, ROWS, 5).mapPartitionsWithIndex(
                (Integer index, Iterator<double[]> it) -> {
                    if (index == 1 && TaskContext.get().attemptNumber() == 0) {
                        INJECTED.incrementAndGet();
                        throw new IllegalStateException("injected failure of partition 1, first attempt");
                    }
                    return it;
                }, true).map(a -> RowFactory.create(Vectors.dense(a))), SparkTestSupport.SCHEMA);
    }

    private static PrivateSubspace fit(String algorithm, Dataset<Row> data) {
        return new DpPca().setAlgorithm(algorithm).setK(2).setEpsilon(1).setDelta(1e-6).setClipNorm(1).setSeed(17)
                .fit(data).release();
    }

    @Test
    void aRetriedPartitionGivesTheFaultFreeRelease() {
        for (String algorithm : new String[] {"analyze-gauss", "private-power"}) {
            PrivateSubspace clean = fit(algorithm, frame(spark, ROWS, 5));
            int before = INJECTED.get();
            PrivateSubspace retried = fit(algorithm, failingOnce());
            assertThat(INJECTED.get() - before).as("failures injected for " + algorithm).isPositive();
            assertThat(retried.components().data()).as(algorithm).containsExactly(clean.components().data());
            assertThat(retried.diagnostics().get("rows")).isEqualTo(1200L);   // counted once, not twice
        }
    }
}
