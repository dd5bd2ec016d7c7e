package io.dpspectra.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Spark's failures of the cluster become a cause and a fix; data errors and bugs stay what they are. */
class SparkFailuresTest {
    @Test
    void clusterFailuresNameTheCauseAndTheFixInsteadOfABug() {
        String trace = "\n\tat org.apache.spark.scheduler.DAGScheduler.failJobAndIndependentStages(DAGScheduler.scala:2935)"
                .repeat(60);
        RuntimeException oom = SparkFailures.classify(new org.apache.spark.SparkException("Job aborted due to stage "
                + "failure: Task 3 in stage 2.0 failed 4 times, most recent failure: Lost task 3.3 in stage 2.0 (TID 11) "
                + "(127.0.0.1 executor 1): java.lang.OutOfMemoryError: Java heap space" + trace));
        assertThat(oom).isInstanceOf(ClusterFailure.class);
        assertThat(oom.getMessage()).contains("an executor ran out of memory").contains("Java heap space")
                .hasSizeLessThan(500);
        assertThat(((ClusterFailure) oom).fix()).contains("--executor-memory");
        RuntimeException lost = SparkFailures.classify(new org.apache.spark.SparkException("Job aborted due to stage "
                + "failure: Task 0 in stage 3.0 failed 4 times, most recent failure: Lost task 0.3 in stage 3.0 (TID 9) "
                + "(127.0.0.1 executor 2): ExecutorLostFailure (executor 2 exited caused by one of the running tasks) "
                + "Reason: Remote RPC client disassociated." + trace));
        assertThat(lost.getMessage()).contains("lost executors");
        assertThat(((ClusterFailure) lost).fix()).contains("workers' logs");
        RuntimeException changed = SparkFailures.classify(new org.apache.spark.SparkException("Job aborted: "
                + "java.lang.IllegalStateException: partition 2 of INPUT had 10 rows when counted but 12 now; the input "
                + "must not change during a fit" + trace));
        assertThat(changed).isInstanceOf(io.dpspectra.data.InvalidDataException.class);
        assertThat(changed.getMessage()).startsWith("partition 2 of INPUT had 10 rows");
        // a bug stays a bug
        assertThat(SparkFailures.classify(new org.apache.spark.SparkException("Job aborted: "
                + "java.lang.NullPointerException" + trace))).isNull();
    }
}
