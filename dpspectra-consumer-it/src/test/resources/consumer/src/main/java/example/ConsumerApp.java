package example;

import io.dpspectra.spark.DpPca;
import io.dpspectra.spark.DpPcaModel;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/** A user's Spark application: starts a SparkContext in local[1] and fits a private PCA with DpPca. */
public final class ConsumerApp {
    private ConsumerApp() {
    }

    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().master("local[1]").appName("dpspectra consumer")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
        try {
            // 400 rows in R^3 along one direction, inside the unit ball
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                double t = ((i % 40) - 19.5) / 20.0;
                double wobble = ((i % 7) - 3) / 30.0;
                rows.add(RowFactory.create(Vectors.dense(0.6 * t, 0.6 * t + wobble, 0.1 * wobble)));
            }
            StructType schema = new StructType().add("features", SQLDataTypes.VectorType());
            Dataset<Row> df = spark.createDataFrame(rows, schema);
            DpPcaModel model = new DpPca().setK(1).setEpsilon(2).setDelta(1e-6).setClipNorm(1).setSeed(11).fit(df);
            long transformed = model.transform(df).count();
            double[] pc1 = model.components().column(0);
            System.out.println("fitted " + model.release().algorithm() + ": " + model.components().rows() + " x "
                    + model.components().cols() + " components, PC1 = [" + pc1[0] + ", " + pc1[1] + ", " + pc1[2]
                    + "], " + transformed + " rows transformed");
            System.out.println("guarantee: " + model.release().guarantee().orElseThrow());
            System.out.println("jackson-databind on the class path: "
                    + com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION);
        } finally {
            spark.stop();
        }
    }
}
