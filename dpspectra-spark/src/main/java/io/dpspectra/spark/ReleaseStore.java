package io.dpspectra.spark;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import java.util.List;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWriter;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/**
 * Saves and loads a model's release: Spark's params metadata under {@code path/metadata}, and the release
 * (algorithm, one or two matrices, a vector of values, the guarantee) as one Parquet row under
 * {@code path/data}. The release alone is saved; diagnostics stay with the run that made them.
 */
final class ReleaseStore {
    private static final StructType SCHEMA = new StructType()
            .add("algorithm", DataTypes.StringType, false)
            .add("rows", DataTypes.IntegerType, false)
            .add("cols", DataTypes.IntegerType, false)
            .add("matrix", DataTypes.createArrayType(DataTypes.DoubleType, false), false)
            .add("values", DataTypes.createArrayType(DataTypes.DoubleType, false), true)
            .add("vectorCols", DataTypes.IntegerType, true)
            .add("vectors", DataTypes.createArrayType(DataTypes.DoubleType, false), true)
            .add("mechanism", DataTypes.StringType, false)
            .add("epsilon", DataTypes.DoubleType, false)
            .add("delta", DataTypes.DoubleType, false)
            .add("neighbouring", DataTypes.StringType, false)
            .add("privacyUnit", DataTypes.StringType, false)
            .add("sensitivity", DataTypes.StringType, false)
            .add("reference", DataTypes.StringType, false)
            // what the release ran (PrivacyProfile's text form); absent from releases saved before it was kept
            .add("profile", DataTypes.StringType, true);

    /**
     * What is saved: a matrix, optional values (explained variance or eigenvalues), optional second matrix
     * (eigenvectors) with the same number of rows, and the guarantee.
     */
    record Release(String algorithm, Matrix matrix, double[] values, Matrix vectors, PrivacyGuarantee guarantee) {
    }

    private ReleaseStore() {
    }

    static MLWriter writer(Params instance, Release release) {
        return new MLWriter() {
            @Override
            public void saveImpl(String path) {
                DefaultParamsWriter.saveMetadata(instance, path, sparkSession());
                PrivacyGuarantee g = release.guarantee();
                Row row = RowFactory.create(release.algorithm(), release.matrix().rows(), release.matrix().cols(),
                        release.matrix().data(), release.values(),
                        release.vectors() == null ? null : release.vectors().cols(),
                        release.vectors() == null ? null : release.vectors().data(),
                        g.mechanism(), g.epsilon(), g.delta(), g.neighbouring().name(), g.privacyUnit(),
                        g.sensitivity(), g.reference(), g.profile().encode());
                sparkSession().createDataFrame(List.of(row), SCHEMA).repartition(1).write().parquet(path + "/data");
            }
        };
    }

    /**
     * Reads the release saved at {@code path} by a model of class {@code className}, and returns the model
     * that {@code build} makes from it (given the saved uid), with the saved params set on it.
     */
    static <M extends Params> M load(SparkSession spark, String path, String className,
                                     java.util.function.BiFunction<String, Release, M> build) {
        DefaultParamsReader.Metadata metadata = DefaultParamsReader.loadMetadata(path, spark, className);
        Row r = spark.read().parquet(path + "/data").first();
        int rows = r.getInt(1);
        Matrix matrix = Matrix.wrapColumnMajor(rows, r.getInt(2), doubles(r, 3));
        double[] values = r.isNullAt(4) ? null : doubles(r, 4);
        Matrix vectors = r.isNullAt(5) ? null : Matrix.wrapColumnMajor(rows, r.getInt(5), doubles(r, 6));
        PrivacyParams params = PrivacyParams.of(r.getDouble(8), r.getDouble(9));
        io.dpspectra.privacy.PrivacyProfile profile = r.size() > 14 && !r.isNullAt(14)
                ? io.dpspectra.privacy.PrivacyProfile.decode(r.getString(14))
                : io.dpspectra.privacy.PrivacyProfile.of(params);
        PrivacyGuarantee g = new PrivacyGuarantee(r.getString(7), params, Neighbouring.valueOf(r.getString(10)),
                r.getString(11), r.getString(12), r.getString(13), profile);
        M model = build.apply(metadata.uid(), new Release(r.getString(0), matrix, values, vectors, g));
        metadata.getAndSetParams(model, Option.empty());
        return model;
    }

    private static double[] doubles(Row r, int i) {
        List<Double> list = r.getList(i);
        double[] out = new double[list.size()];
        for (int j = 0; j < out.length; j++) {
            out[j] = list.get(j);
        }
        return out;
    }
}
