package io.dpspectra.spark;

import io.dpspectra.cli.ExternalInputs;
import io.dpspectra.data.CsvRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.InvalidDataException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;

/**
 * INPUT of {@link DpPcaJob} read by Spark: a CSV file (or directory of CSV parts) with the CLI's
 * {@code --header} and {@code --columns} meaning, or Parquet (numeric columns, or one vector column).
 * The rows become the cluster-backed statistic of {@link DistributedGram}, bounded by the user's
 * {@code --clip-norm} or {@code --norm-bound}.
 */
final class SparkInput implements ExternalInputs.Opener {
    private final SparkSession spark;
    private final String[] args;

    /** {@code args}: the job's command line, from which INPUT is taken as typed (a URI keeps its "//"). */
    SparkInput(SparkSession spark, String[] args) {
        this.spark = spark;
        this.args = args.clone();
    }

    @Override
    public ExternalInputs.Source open(String input, List<String> columns, CsvRows.Header header, DataBounds bounds) {
        String raw = asTyped(input);
        boolean csv = isCsv(raw);
        Dataset<Row> data;
        boolean hasHeader = true;
        try {
            if (csv) {
                hasHeader = switch (header) {
                    case PRESENT -> true;
                    case ABSENT -> false;
                    case AUTO -> firstLineHasText(raw);
                };
                data = spark.read().option("header", hasHeader).csv(raw);
            } else {
                data = spark.read().parquet(raw);
            }
        } catch (RuntimeException e) {
            if (e.getClass().getName().equals("org.apache.spark.sql.AnalysisException")) {
                throw new InvalidDataException("INPUT " + raw + " cannot be read: " + e.getMessage(), e);
            }
            throw e;
        }
        List<StructField> fields = select(data, columns, raw);
        Dataset<Row> selected = data.select(fields.stream().map(f -> data.col("`" + f.name() + "`"))
                .toArray(org.apache.spark.sql.Column[]::new));
        List<String> names = new ArrayList<>();
        for (int j = 0; j < fields.size(); j++) {
            names.add(csv && !hasHeader ? "x" + (j + 1) : fields.get(j).name());
        }
        JavaRDD<Vector> vectors;
        if (fields.size() == 1 && fields.get(0).dataType().equals(SQLDataTypes.VectorType())) {
            vectors = selected.toJavaRDD().map(r -> (Vector) r.get(0));
            names = null;
        } else {
            String[] colNames = names.toArray(new String[0]);
            vectors = selected.toJavaRDD().map(r -> Vectors.dense(numbers(r, colNames)));
        }
        DistributedGram rows = DistributedGram.of(vectors, "INPUT " + raw, bounds.l2Bound(), bounds.policy());
        if (names == null) {
            names = new ArrayList<>();
            for (int j = 1; j <= rows.dimension(); j++) {
                names.add("x" + j);
            }
        }
        return new ExternalInputs.Source(rows.statistic(), names);
    }

    private String asTyped(String input) {
        for (String a : args) {
            try {
                if (java.nio.file.Path.of(a).toString().equals(input)) {
                    return a;
                }
            } catch (java.nio.file.InvalidPathException e) {
                // not a path: not INPUT
            }
        }
        return input;
    }

    private static boolean isCsv(String raw) {
        String s = raw.toLowerCase(Locale.ROOT);
        return s.endsWith(".csv") || s.endsWith(".csv.gz") || s.endsWith(".txt");
    }

    /** --header auto: the first line is a header if any cell is not a number (as the CLI decides). */
    private boolean firstLineHasText(String raw) {
        List<String> first = spark.read().textFile(raw).takeAsList(1);
        if (first.isEmpty()) {
            throw new InvalidDataException("INPUT " + raw + " is empty; provide a file with at least one row of numbers");
        }
        for (String cell : first.get(0).replace("\uFEFF", "").split(",", -1)) {
            try {
                Double.parseDouble(cell.trim());
            } catch (NumberFormatException e) {
                return true;
            }
        }
        return false;
    }

    /** The --columns selection (names, or 1-based indices), or every column; each numeric (or one vector). */
    private static List<StructField> select(Dataset<Row> data, List<String> columns, String raw) {
        StructField[] all = data.schema().fields();
        List<StructField> out = new ArrayList<>();
        if (columns == null || columns.isEmpty()) {
            out.addAll(List.of(all));
        } else {
            for (String c : columns) {
                StructField f = null;
                for (StructField g : all) {
                    if (g.name().equals(c)) {
                        f = g;
                    }
                }
                if (f == null && c.matches("\\d+")) {
                    int i = Integer.parseInt(c);
                    if (i >= 1 && i <= all.length) {
                        f = all[i - 1];
                    }
                }
                if (f == null) {
                    throw new IllegalArgumentException("--columns names '" + c + "', which is not a column of " + raw
                            + " (columns: " + String.join(", ", data.columns()) + "; or a 1-based index up to "
                            + all.length + ")");
                }
                out.add(f);
            }
        }
        boolean oneVector = out.size() == 1 && out.get(0).dataType().equals(SQLDataTypes.VectorType());
        for (StructField f : out) {
            DataType t = f.dataType();
            boolean ok = oneVector || t instanceof NumericType || t.typeName().equals("string");
            if (!ok) {
                throw new IllegalArgumentException("column '" + f.name() + "' of " + raw + " has type " + t.simpleString()
                        + "; select numeric columns (or one vector column) with --columns");
            }
        }
        return out;
    }

    /** The row's cells as numbers; an empty or non-numeric cell is an error naming the column. */
    private static double[] numbers(Row r, String[] names) {
        double[] x = new double[r.length()];
        for (int j = 0; j < x.length; j++) {
            Object v = r.get(j);
            if (v == null) {
                throw new InvalidDataException("a row has an empty cell in column '" + names[j] + "'; remove or "
                        + "impute missing values first");
            }
            if (v instanceof Number n) {
                x[j] = n.doubleValue();
            } else {
                try {
                    x[j] = Double.parseDouble(v.toString().trim());
                } catch (NumberFormatException e) {
                    throw new InvalidDataException("a row has '" + v + "' in column '" + names[j] + "', which is not a "
                            + "number; every selected cell must be numeric");
                }
            }
        }
        return x;
    }
}
