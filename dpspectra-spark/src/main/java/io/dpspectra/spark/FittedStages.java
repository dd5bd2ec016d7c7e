package io.dpspectra.spark;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.ml.Model;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.ScalaUDF;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Finds the fitted stages that the input column was computed by: a {@link Model} of Spark ML (a
 * {@code StandardScalerModel} with its mean, a {@code PCAModel}, an {@code Imputer}'s fill values…) was
 * fitted on data WITHOUT privacy, and its constants, read from the rows, reach the release through every
 * row it transforms. The privacy guarantee of a release on such a column holds for the transformed rows,
 * not for the rows the stage was fitted on. Found in the analysed query plan: the expressions that compute
 * the column, followed down through the columns they read, and among them the user-defined functions whose
 * code belongs to a {@link Model} class. A fitted stage that computes with plain SQL expressions instead (an
 * {@code ImputerModel}'s fill values as literals) is not found.
 */
final class FittedStages {
    private FittedStages() {
    }

    /**
     * A note for each fitted stage that computes {@code column} of {@code data}, naming it and what it
     * means for the guarantee; none when the column comes from the data or from unfitted transformers
     * (VectorAssembler), or when the plan cannot be read.
     */
    static List<String> notes(Dataset<?> data, String column) {
        Set<String> models = new LinkedHashSet<>();
        try {
            if (data instanceof org.apache.spark.sql.classic.Dataset<?> classic) {
                // the analysed plan (the optimiser may fold a projection of local rows into new local rows)
                LogicalPlan plan = classic.queryExecution().analyzed();
                Set<ExprId> needed = new HashSet<>();
                for (Attribute a : CollectionConverters.asJava(plan.output())) {
                    if (a.name().equals(column)) {
                        needed.add(a.exprId());
                    }
                }
                collect(plan, needed, models);
            }
        } catch (RuntimeException | LinkageError e) {
            return List.of(); // a plan this code cannot read: no note, never a failed fit
        }
        List<String> notes = new ArrayList<>();
        for (String m : models) {
            notes.add("input column '" + column + "' is computed by " + m + ", a stage fitted on data without "
                    + "privacy: its constants (e.g. a mean or a scale) were read from the rows and are not covered "
                    + "by this release's guarantee, which holds only for the transformed rows; fit such stages on "
                    + "public data, use public constants, or let this estimator centre and bound privately "
                    + "(setCenter(\"private\"), setClipNorm(\"private:0.9\"))");
        }
        return notes;
    }

    /** The fitted stages among the expressions of {@code plan} and below that compute the columns {@code needed}. */
    private static void collect(LogicalPlan plan, Set<ExprId> needed, Set<String> models) {
        for (Expression e : CollectionConverters.asJava(plan.expressions())) {
            if (e instanceof NamedExpression named && !(e instanceof Attribute) && needed.contains(named.exprId())) {
                collect(e, models);
                for (Attribute read : CollectionConverters.asJava(e.references().toSeq())) {
                    needed.add(read.exprId());
                }
            }
        }
        for (LogicalPlan child : CollectionConverters.asJava(plan.children())) {
            collect(child, needed, models);
        }
    }

    private static void collect(Expression e, Set<String> models) {
        if (e instanceof ScalaUDF udf) {
            String model = definingModel(udf.function());
            if (model != null) {
                models.add(model);
            }
        }
        for (Expression child : CollectionConverters.asJava(e.children())) {
            collect(child, models);
        }
    }

    /** The {@link Model} class whose code {@code function} is (a lambda or anonymous class in it), or null. */
    private static String definingModel(Object function) {
        String name = function.getClass().getName();
        int dollar = name.indexOf('$');
        String outer = dollar < 0 ? name : name.substring(0, dollar);
        try {
            Class<?> c = Class.forName(outer, false, function.getClass().getClassLoader());
            return Model.class.isAssignableFrom(c) ? c.getName() : null;
        } catch (ClassNotFoundException e) {
            return null;
        }
    }
}
