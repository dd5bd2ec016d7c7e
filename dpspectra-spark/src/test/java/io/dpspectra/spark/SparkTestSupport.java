package io.dpspectra.spark;

import io.dpspectra.noise.RandomSource;
import java.util.Arrays;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/** A quiet local SparkSession, test rows, and DataFrames of them with a known partitioning. */
final class SparkTestSupport {
    static final StructType SCHEMA = new StructType().add("features", SQLDataTypes.VectorType(), false);

    private SparkTestSupport() {
    }

    /** One session per test class: {@code master} is local[2] or local[2,2] (tasks may fail once). */
    static SparkSession session(String master) {
        return SparkSession.builder().master(master).appName("dpspectra-test")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "2")
                .getOrCreate();
    }

    /**
     * n rows of width d with a dominant first direction; entries scaled so that about half the rows exceed
     * norm 1 and are clipped.
     */
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

    /** The rows as a DataFrame in exactly {@code partitions} slices (slice i = rows [i·n/P, (i+1)·n/P)). */
    static Dataset<Row> frame(SparkSession spark, double[][] rows, int partitions) {
        return spark.createDataFrame(rdd(spark, rows, partitions).map(a -> RowFactory.create(Vectors.dense(a))), SCHEMA);
    }

    static JavaRDD<double[]> rdd(SparkSession spark, double[][] rows, int partitions) {
        return JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(Arrays.asList(rows), partitions);
    }
}
