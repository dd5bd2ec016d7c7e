package io.dpspectra.spark;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.privacy.ComposedGuarantee;
import io.dpspectra.release.Preprocessing;
import java.util.List;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructType;

/**
 * A fitted private release as a Spark {@link Model}: {@code transform} projects the input vector column
 * onto the released basis (y = Bᵀx, B of shape d × k; y = Bᵀ(x − m) when the fit subtracted a privately
 * released mean m). Projection is post-processing of the release, so transforming any data spends no
 * budget. The model carries the release's composed guarantee ({@link #guarantee()}), its public
 * preprocessing ({@link #preprocessing()}: the centring, the released mean, the row bound and where it came
 * from) and the fit's notes ({@link #notes()}, e.g. an input column computed by a stage fitted without
 * privacy); saving writes all of them with the release (no diagnostics).
 *
 * @param <M> the concrete model
 */
public abstract class DpModel<M extends DpModel<M>> extends Model<M> implements MLWritable {
    private static final long serialVersionUID = 1L;

    private final String uid;
    private final Param<String> inputCol;
    private final Param<String> outputCol;
    private final transient Provenance provenance;

    /**
     * What a fit made besides the estimator's own result, public and saved with the model.
     *
     * @param guarantee     the whole release's guarantee: its parts (private bound, private mean, estimator)
     *                      and their composition
     * @param preprocessing the public preprocessing the rows went through before the estimator
     * @param notes         warnings of the fit that bear on the guarantee (e.g. a fitted stage before it)
     */
    public record Provenance(ComposedGuarantee guarantee, Preprocessing preprocessing, List<String> notes) {
        /**
         * Copies the notes.
         *
         * @param guarantee     the guarantee
         * @param preprocessing the preprocessing
         * @param notes         the notes
         */
        public Provenance {
            java.util.Objects.requireNonNull(guarantee, "guarantee");
            java.util.Objects.requireNonNull(preprocessing, "preprocessing");
            notes = List.copyOf(notes);
        }
    }

    /**
     * A model of the release described by {@code provenance}.
     *
     * @param uid        the uid
     * @param provenance the guarantee, preprocessing and notes
     */
    protected DpModel(String uid, Provenance provenance) {
        this.uid = uid;
        this.provenance = provenance;
        inputCol = new Param<>(this, "inputCol", "the vector column to project");
        outputCol = new Param<>(this, "outputCol", "the vector column of projections");
        setDefault(inputCol, "features");
        setDefault(outputCol, "pcaFeatures");
    }

    @Override
    public String uid() {
        return uid;
    }

    /**
     * The whole release's guarantee: the estimator's own, or the basic composition of the private bound, the
     * private mean and the estimator.
     *
     * @return the composed guarantee
     */
    public ComposedGuarantee guarantee() {
        return provenance.guarantee();
    }

    /**
     * The public preprocessing of the rows before the estimator: centring, released mean, row bound and origin.
     *
     * @return the preprocessing
     */
    public Preprocessing preprocessing() {
        return provenance.preprocessing();
    }

    /**
     * The fit's warnings that bear on the guarantee, e.g. an input column computed by a stage fitted on data
     * without privacy.
     *
     * @return the notes, empty when there is none
     */
    public List<String> notes() {
        return provenance.notes();
    }

    Provenance provenance() {
        return provenance;
    }

    /** @return the param */
    public Param<String> inputCol() {
        return inputCol;
    }

    /** @return the param */
    public Param<String> outputCol() {
        return outputCol;
    }

    /**
     * @param value the vector column to project
     * @return this
     */
    @SuppressWarnings("unchecked")
    public M setInputCol(String value) {
        set(inputCol, value);
        return (M) this;
    }

    /**
     * @param value the column of projections
     * @return this
     */
    @SuppressWarnings("unchecked")
    public M setOutputCol(String value) {
        set(outputCol, value);
        return (M) this;
    }

    /** @return the input column */
    public String getInputCol() {
        return getOrDefault(inputCol);
    }

    /** @return the output column */
    public String getOutputCol() {
        return getOrDefault(outputCol);
    }

    /** The d × k basis that {@link #transform} projects onto. */
    abstract Matrix basis();

    @Override
    public Dataset<Row> transform(Dataset<?> data) {
        transformSchema(data.schema(), true);
        Matrix b = basis();
        int d = b.rows();
        int k = b.cols();
        double[] columnMajor = b.data().clone();
        double[] mean = provenance.preprocessing().mean() == null ? null : provenance.preprocessing().mean().clone();
        UserDefinedFunction project = functions.udf((UDF1<Vector, Vector>) v -> {
            if (v == null) {
                return null;
            }
            if (v.size() != d) {
                throw new IllegalArgumentException("a vector has " + v.size() + " values but the model was fitted on "
                        + d + "; transform vectors of the fitted width");
            }
            double[] x = v.toArray();
            if (mean != null) {
                x = x.clone();
                for (int j = 0; j < d; j++) {
                    x[j] -= mean[j];
                }
            }
            return Vectors.dense(Matrix.wrapColumnMajor(d, k, columnMajor).transposeTimes(x));
        }, SQLDataTypes.VectorType());
        return data.withColumn(getOrDefault(outputCol), project.apply(data.col(getOrDefault(inputCol))));
    }

    @Override
    public StructType transformSchema(StructType schema) {
        return appendOutput(schema, getOrDefault(inputCol), getOrDefault(outputCol));
    }

    /** The schema with the output vector column added, after checking the input column is a vector. */
    static StructType appendOutput(StructType schema, String in, String out) {
        List<String> names = List.of(schema.fieldNames());
        if (!names.contains(in)) {
            throw new IllegalArgumentException("input column '" + in + "' is not in the DataFrame (columns: "
                    + String.join(", ", names) + "); call setInputCol(...) with the vector column");
        }
        if (!schema.apply(in).dataType().equals(SQLDataTypes.VectorType())) {
            throw new IllegalArgumentException("input column '" + in + "' has type " + schema.apply(in).dataType()
                    .simpleString() + ", expected a vector; assemble numeric columns with VectorAssembler first");
        }
        if (names.contains(out)) {
            throw new IllegalArgumentException("output column '" + out + "' already exists; call setOutputCol(...) "
                    + "with a new name");
        }
        return schema.add(out, SQLDataTypes.VectorType(), true);
    }
}
