package io.dpspectra.spark;

import io.dpspectra.data.DataBounds;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.privacy.ComposedGuarantee;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.release.Centring;
import io.dpspectra.release.Preprocessing;
import java.util.ArrayList;
import java.util.Arrays;
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
 * (algorithm, one or two matrices, a vector of values, the whole release's guarantee with its parts, the
 * public preprocessing, the fit's notes) as one Parquet row under {@code path/data}. The release alone is
 * saved; diagnostics stay with the run that made them. A model saved before the parts, the preprocessing and
 * the notes were saved loads as one mechanism's release on rows bounded by a given bound, uncentred.
 */
final class ReleaseStore {
    private static final StructType GUARANTEE = new StructType()
            .add("mechanism", DataTypes.StringType, false)
            .add("epsilon", DataTypes.DoubleType, false)
            .add("delta", DataTypes.DoubleType, false)
            .add("neighbouring", DataTypes.StringType, false)
            .add("privacyUnit", DataTypes.StringType, false)
            .add("sensitivity", DataTypes.StringType, false)
            .add("reference", DataTypes.StringType, false)
            // what the part ran (PrivacyProfile's text form); absent from releases saved before it was kept
            .add("profile", DataTypes.StringType, true);
    private static final StructType SCHEMA = new StructType()
            .add("algorithm", DataTypes.StringType, false)
            .add("rows", DataTypes.IntegerType, false)
            .add("cols", DataTypes.IntegerType, false)
            .add("matrix", DataTypes.createArrayType(DataTypes.DoubleType, false), false)
            .add("values", DataTypes.createArrayType(DataTypes.DoubleType, false), true)
            .add("vectorCols", DataTypes.IntegerType, true)
            .add("vectors", DataTypes.createArrayType(DataTypes.DoubleType, false), true)
            // the whole release's guarantee (the composition when there are several parts)
            .add("mechanism", DataTypes.StringType, false)
            .add("epsilon", DataTypes.DoubleType, false)
            .add("delta", DataTypes.DoubleType, false)
            .add("neighbouring", DataTypes.StringType, false)
            .add("privacyUnit", DataTypes.StringType, false)
            .add("sensitivity", DataTypes.StringType, false)
            .add("reference", DataTypes.StringType, false)
            // its parts, the estimator last, and the public preprocessing
            .add("parts", DataTypes.createArrayType(GUARANTEE, false), true)
            .add("center", DataTypes.StringType, true)
            .add("centerShare", DataTypes.DoubleType, true)
            .add("mean", DataTypes.createArrayType(DataTypes.DoubleType, false), true)
            .add("inputBound", DataTypes.DoubleType, true)
            .add("bound", DataTypes.DoubleType, true)
            .add("boundOrigin", DataTypes.StringType, true)
            .add("policy", DataTypes.StringType, true)
            .add("features", DataTypes.createArrayType(DataTypes.StringType, false), true)
            .add("notes", DataTypes.createArrayType(DataTypes.StringType, false), true)
            // what the whole release ran (PrivacyProfile's text form); absent from releases saved before it was kept
            .add("profile", DataTypes.StringType, true);

    /**
     * What is saved: a matrix, optional values (explained variance or eigenvalues), optional second matrix
     * (eigenvectors) with the same number of rows, and the guarantee, preprocessing and notes.
     */
    record Release(String algorithm, Matrix matrix, double[] values, Matrix vectors, DpModel.Provenance provenance) {
    }

    private ReleaseStore() {
    }

    static MLWriter writer(Params instance, Release release) {
        return new MLWriter() {
            @Override
            public void saveImpl(String path) {
                DefaultParamsWriter.saveMetadata(instance, path, sparkSession());
                ComposedGuarantee g = release.provenance().guarantee();
                Preprocessing p = release.provenance().preprocessing();
                List<Object> values = new ArrayList<>(List.of(release.algorithm(), release.matrix().rows(),
                        release.matrix().cols(), release.matrix().data()));
                values.add(release.values());
                values.add(release.vectors() == null ? null : release.vectors().cols());
                values.add(release.vectors() == null ? null : release.vectors().data());
                values.addAll(guarantee(g.overall()));
                List<Row> parts = new ArrayList<>();
                for (PrivacyGuarantee part : g.parts()) {
                    List<Object> v = new ArrayList<>(guarantee(part));
                    v.add(part.profile().encode());
                    parts.add(RowFactory.create(v.toArray()));
                }
                values.add(parts);
                values.add(p.centring().label());
                values.add(p.centring().share());
                values.add(p.mean());
                values.add(p.inputBound());
                values.add(p.bound());
                values.add(p.boundOrigin());
                values.add(p.policy().name());
                values.add(p.features());
                values.add(release.provenance().notes());
                values.add(g.overall().profile().encode());
                Row row = RowFactory.create(values.toArray());
                sparkSession().createDataFrame(List.of(row), SCHEMA).repartition(1).write().parquet(path + "/data");
            }
        };
    }

    private static List<Object> guarantee(PrivacyGuarantee g) {
        return Arrays.asList(g.mechanism(), g.epsilon(), g.delta(), g.neighbouring().name(), g.privacyUnit(),
                g.sensitivity(), g.reference());
    }

    private static PrivacyGuarantee guarantee(Row r, int at, String profile) {
        PrivacyParams params = PrivacyParams.of(r.getDouble(at + 1), r.getDouble(at + 2));
        return new PrivacyGuarantee(r.getString(at), params, Neighbouring.valueOf(r.getString(at + 3)),
                r.getString(at + 4), r.getString(at + 5), r.getString(at + 6),
                profile == null ? io.dpspectra.privacy.PrivacyProfile.of(params)
                        : io.dpspectra.privacy.PrivacyProfile.decode(profile));
    }

    /** The profile saved in {@code field} of {@code r}, or null (a release saved before profiles were kept). */
    private static String profile(Row r, String field) {
        List<String> names = List.of(r.schema().fieldNames());
        return names.contains(field) && !r.isNullAt(r.fieldIndex(field)) ? r.getString(r.fieldIndex(field)) : null;
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
        PrivacyGuarantee overall = guarantee(r, 7, profile(r, "profile"));
        DpModel.Provenance provenance;
        if (List.of(r.schema().fieldNames()).contains("parts")) {
            List<PrivacyGuarantee> parts = new ArrayList<>();
            for (Row part : r.<Row>getList(r.fieldIndex("parts"))) {
                parts.add(guarantee(part, 0, profile(part, "profile")));
            }
            ComposedGuarantee g = parts.size() == 1 ? ComposedGuarantee.single(parts.get(0))
                    : new ComposedGuarantee(overall, parts, ComposedGuarantee.Rule.BASIC);
            String center = r.getString(r.fieldIndex("center"));
            Centring centring = switch (center) {
                case "private" -> Centring.privateMean(r.getDouble(r.fieldIndex("centerShare")));
                case "public" -> Centring.PUBLIC;
                default -> Centring.NONE;
            };
            int mean = r.fieldIndex("mean");
            provenance = new DpModel.Provenance(g, new Preprocessing(null, centring, r.isNullAt(mean) ? null
                    : doubles(r, mean), r.getDouble(r.fieldIndex("inputBound")), r.getDouble(r.fieldIndex("bound")),
                    r.getString(r.fieldIndex("boundOrigin")), DataBounds.Policy.valueOf(r.getString(r.fieldIndex(
                    "policy"))), r.<String>getList(r.fieldIndex("features"))), r.<String>getList(r.fieldIndex("notes")));
        } else {
            provenance = new DpModel.Provenance(ComposedGuarantee.single(overall), new Preprocessing(null,
                    Centring.NONE, null, Double.NaN, Double.NaN, "user-given (clipNorm), saved before bounds were "
                    + "recorded", DataBounds.Policy.CLIP, features(rows)), List.of());
        }
        M model = build.apply(metadata.uid(), new Release(r.getString(0), matrix, values, vectors, provenance));
        metadata.getAndSetParams(model, Option.empty());
        return model;
    }

    private static List<String> features(int d) {
        List<String> names = new ArrayList<>();
        for (int j = 1; j <= d; j++) {
            names.add("x" + j);
        }
        return names;
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
