package io.dpspectra.spark;

import io.dpspectra.noise.RandomSource;
import org.apache.spark.sql.SparkSession;

/** A quiet local SparkSession and test rows for the job's tests. */
final class SparkTestSupport {
    private SparkTestSupport() {
    }

    /** One session per test class on {@code master}, bound to 127.0.0.1, without its web UI. */
    static SparkSession session(String master) {
        return SparkSession.builder().master(master).appName("dpspectra-job-test")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "2")
                .getOrCreate();
    }

    /** n rows of width d with a dominant first direction, drawn from {@code seed}. */
    static double[][] rows(int n, int d, long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        double[][] x = new double[n][d];
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                row[j] = r.standardNormal() * (j == 0 ? 0.8 : 0.3);
            }
        }
        return x;
    }
}
