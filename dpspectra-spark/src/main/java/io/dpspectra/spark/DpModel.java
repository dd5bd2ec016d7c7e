package io.dpspectra.spark;

import io.dpspectra.linalg.Matrix;
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
 * onto the released basis (y = Bᵀx, B of shape d × k). Projection is post-processing of the release, so
 * transforming any data spends no budget. Saving writes the release alone (no diagnostics).
 *
 * @param <M> the concrete model
 */
public abstract class DpModel<M extends DpModel<M>> extends Model<M> implements MLWritable {
    private static final long serialVersionUID = 1L;

    private final String uid;
    private final Param<String> inputCol;
    private final Param<String> outputCol;

    protected DpModel(String uid) {
        this.uid = uid;
        inputCol = new Param<>(this, "inputCol", "the vector column to project");
        outputCol = new Param<>(this, "outputCol", "the vector column of projections");
        setDefault(inputCol, "features");
        setDefault(outputCol, "pcaFeatures");
    }

    @Override
    public String uid() {
        return uid;
    }

    public Param<String> inputCol() {
        return inputCol;
    }

    public Param<String> outputCol() {
        return outputCol;
    }

    @SuppressWarnings("unchecked")
    public M setInputCol(String value) {
        set(inputCol, value);
        return (M) this;
    }

    @SuppressWarnings("unchecked")
    public M setOutputCol(String value) {
        set(outputCol, value);
        return (M) this;
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
        UserDefinedFunction project = functions.udf((UDF1<Vector, Vector>) v -> {
            if (v == null) {
                return null;
            }
            if (v.size() != d) {
                throw new IllegalArgumentException("a vector has " + v.size() + " values but the model was fitted on "
                        + d + "; transform vectors of the fitted width");
            }
            return Vectors.dense(Matrix.wrapColumnMajor(d, k, columnMajor).transposeTimes(v.toArray()));
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
