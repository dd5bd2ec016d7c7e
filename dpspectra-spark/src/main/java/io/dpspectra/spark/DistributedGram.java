package io.dpspectra.spark;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.Clipping;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.GramStatistic;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.PrivateMean;
import io.dpspectra.data.PrivateQuantile;
import io.dpspectra.data.RowGramOperator;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.ShiftedRows;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricOperator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The distributed part of every release: the sufficient statistic XᵀX of the bounded rows of a vector
 * column, and nothing else. Each partition bounds its rows with core's {@link Clipping} and sums them
 * with core's {@link GramPass} (blocked dsyrk) or {@link RowGramOperator} (Xᵀ(X·W)); one
 * {@code treeAggregate} combines the partition blocks in a fixed order ({@link OrderedSum}). The result
 * is a core {@link GramStatistic}, from which core's algorithms draw all noise, once, on the driver.
 *
 * <p>Faults: a task that fails and is retried recomputes its partition's block from the partition's rows;
 * Spark counts each partition's result once, and the fixed summation order makes the statistic, and so
 * the release, bit-identical to a run without the failure (for rows whose partitioning is deterministic,
 * as it is for files and parallelised collections).
 *
 * <p>Privacy: the statistic is a deterministic function of the rows, each bounded by the user's bound
 * before it is added; the bound is declared as user-given, never derived from the data.
 */
final class DistributedGram {
    private final JavaRDD<Vector> vectors;
    private final int d;
    private final Bounding bounding;
    private final String column;
    private final java.util.function.LongSupplier counter;
    private static final String TASK_DATA_ERROR = InvalidDataException.class.getName() + ": ";
    /** What Spark's CSV reader says (mode FAILFAST) of a line that does not parse into the header's columns. */
    private static final String MALFORMED_CSV = "Malformed records are detected in record parsing";

    private DistributedGram(JavaRDD<Vector> vectors, java.util.function.LongSupplier counter, int d, Bounding bounding,
                            String column) {
        this.vectors = vectors;
        this.counter = counter;
        this.d = d;
        this.bounding = bounding;
        this.column = column;
    }

    /**
     * How each row is bounded before it is summed, on the executors, with core's clipping: to
     * {@code inputBound} by {@code policy} (clip onto it, or refuse a row above it); then, when {@code mean}
     * is not null, minus {@code mean} and clipped to {@code bound} (which such rows satisfy by construction
     * when bound = inputBound + ‖mean‖). The same chain as the CLI's preprocessing.
     */
    record Bounding(double inputBound, DataBounds.Policy policy, double[] mean, double bound)
            implements java.io.Serializable {
        /** Rows bounded to {@code bound} by {@code policy}, nothing else. */
        static Bounding of(double bound, DataBounds.Policy policy) {
            return new Bounding(bound, policy, null, bound);
        }

        ClippedRows apply(RowSource rows) {
            ClippedRows first = policy == DataBounds.Policy.CLIP ? rows.clipL2(inputBound) : rows.requireL2(inputBound);
            return mean == null ? first : ShiftedRows.of(first, mean).clipL2(bound);
        }

        /** The bound of the rows summed, as it is declared to the algorithms (user-given or public). */
        DataBounds declared() {
            return new DataBounds(DataBounds.Norm.L2, bound, DataBounds.Origin.USER_GIVEN,
                    mean == null ? policy : DataBounds.Policy.CLIP);
        }
    }

    /**
     * The vector column {@code inputCol} of {@code data}, bounded to L2 norm ≤ {@code bound} by
     * {@code policy} (clip onto the bound, or reject a row above it).
     */
    static DistributedGram of(Dataset<?> data, String inputCol, double bound, DataBounds.Policy policy) {
        Objects.requireNonNull(data, "dataset");
        Dataset<Row> column = data.select(inputCol);
        // the Dataset counts without deserialising the vectors (a cached DataFrame counts from its cache)
        return of(column.toJavaRDD().map((Row r) -> (Vector) r.get(0)), column::count, "column '" + inputCol + "'",
                Bounding.of(bound, policy));
    }

    /**
     * The rows {@code vectors} (named {@code name} in messages), with d taken from the first row; not yet
     * bounded: {@link #rowNormHistogram} and {@link #boundedSum} read them as they are, and
     * {@link #bounded} gives the statistic of the bounded rows.
     */
    static DistributedGram unbounded(JavaRDD<Vector> vectors, String name) {
        return of(vectors, vectors::count, name, null);
    }

    /** The rows {@code vectors} of known width {@code d}, not yet bounded (see {@link #unbounded(JavaRDD, String)}). */
    static DistributedGram unbounded(JavaRDD<Vector> vectors, int d, String name) {
        return new DistributedGram(vectors, vectors::count, d, null, name);
    }

    private static DistributedGram of(JavaRDD<Vector> vectors, java.util.function.LongSupplier counter, String name,
                                      Bounding bounding) {
        List<Vector> first = sparkJob(() -> vectors.take(1));
        if (first.isEmpty()) {
            throw new InvalidDataException(name + " has no rows; provide at least one row");
        }
        if (first.get(0) == null) {
            throw new InvalidDataException("row 1 of " + name + " is null; drop or impute missing rows first");
        }
        return new DistributedGram(vectors, counter, first.get(0).size(), bounding, name);
    }

    /** The same rows, bounded by {@code b} before they are summed. */
    DistributedGram bounded(Bounding b) {
        return new DistributedGram(vectors, counter, d, java.util.Objects.requireNonNull(b, "bounding"), column);
    }

    /**
     * Runs a Spark action, rethrowing a data error raised in a task ({@link InvalidDataException}, e.g. a
     * NaN or a row over the bound) as itself rather than wrapped in Spark's job failure.
     */
    static <T> T sparkJob(java.util.function.Supplier<T> action) {
        try {
            return action.get();
        } catch (Exception e) {   // SparkException is checked, though Scala throws it undeclared
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof InvalidDataException data) {
                    throw new InvalidDataException(data.getMessage(), e);
                }
                if (t.getMessage() != null && t.getMessage().contains(MALFORMED_CSV)) {
                    throw new InvalidDataException("a line of the input does not split into the columns of its first "
                            + "line (a ragged row, or a quote that is not closed); fix that line", e);
                }
                // a failed job reports its task's exception only in its message
                String m = t.getMessage();
                int at = m == null ? -1 : m.indexOf(TASK_DATA_ERROR);
                if (at >= 0) {
                    String rest = m.substring(at + TASK_DATA_ERROR.length());
                    int end = rest.indexOf('\n');
                    throw new InvalidDataException(end < 0 ? rest : rest.substring(0, end), e);
                }
            }
            throw e;
        }
    }

    /**
     * The statistic as core's lazy {@link GramStatistic}: the explicit XᵀX (one job, run only if the
     * algorithm asks for it), products Xᵀ(X·W) (one job each), or the bounded rows streamed to the driver.
     * Counting the rows is one job, run now. Cache the input when an algorithm makes several passes (the
     * power method, k-DP-Ojas) and the rows are expensive to recompute.
     */
    GramStatistic statistic() {
        Bounding b = requireBounding();
        long n = sparkJob(counter::getAsLong);
        return GramStatistic.lazy(d, n, b.declared(), () -> {
            Explicit e = explicit();
            if (e.rows() != n) {
                throw new IllegalStateException(column + " had " + n + " rows when counted but " + e.rows()
                        + " when summed; the input must not change during a fit");
            }
            return e.gram();
        }, new Products(),
                () -> b.apply(streamed()), description());
    }

    int dimension() {
        return d;
    }

    private Bounding requireBounding() {
        if (bounding == null) {
            throw new IllegalStateException(column + " is not bounded yet; call bounded(...) first");
        }
        return bounding;
    }

    /**
     * The histogram of the rows' L2 norms over {@code grid} (as they are, unbounded), by core's
     * {@link PrivateQuantile#rowNormHistogram} on each partition, summed (exact counts) by one
     * treeAggregate: the statistic of a private row-norm quantile, whose noise the driver draws.
     */
    long[] rowNormHistogram(double[] grid) {
        int dim = d;
        String col = column;
        double[] g = grid.clone();
        JavaRDD<long[]> parts = vectors.mapPartitionsWithIndex((Integer index, Iterator<Vector> it) ->
                List.of(PrivateQuantile.rowNormHistogram(new PartitionRows(it, dim, "partition " + index + " of "
                        + col), g)).iterator(), true);
        return sparkJob(() -> parts.treeAggregate(new long[g.length + 1], DistributedGram::addCounts,
                DistributedGram::addCounts, 2));
    }

    private static long[] addCounts(long[] a, long[] b) {
        long[] out = a.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] += b[i];
        }
        return out;
    }

    /**
     * The sum and number of the rows bounded by {@code b}, by core's {@link PrivateMean#sum} on each
     * partition, combined in a fixed order ({@link OrderedSum}): the statistic of a private mean, whose
     * noise the driver draws.
     */
    PrivateMean.Sum boundedSum(Bounding b) {
        int dim = d;
        String col = column;
        JavaRDD<OrderedSum> blocks = vectors.mapPartitionsWithIndex((Integer index, Iterator<Vector> it) -> {
            ClippedRows rows = b.apply(new PartitionRows(it, dim, "partition " + index + " of " + col));
            PrivateMean.Sum s = PrivateMean.sum(rows);
            return List.of(OrderedSum.of(index, s.sum(), s.rows(), Math.max(0, rows.clippedRows()))).iterator();
        }, true);
        OrderedSum.Total total = aggregate(blocks, vectors.getNumPartitions());
        return new PrivateMean.Sum(total.values(), total.rows());
    }

    /** Result of {@link #explicit()}: XᵀX, the rows summed, and the rows clipped (a non-private diagnostic). */
    record Explicit(Matrix gram, long rows, long clippedRows) {
    }

    /** XᵀX as an explicit d × d matrix: one Spark job. */
    Explicit explicit() {
        int dim = d;
        Bounding b = requireBounding();
        String col = column;
        int partitions = vectors.getNumPartitions();
        JavaRDD<OrderedSum> blocks = vectors.mapPartitionsWithIndex((Integer index, Iterator<Vector> it) -> {
            if (!it.hasNext()) {
                return List.of(OrderedSum.of(index, new double[dim * dim], 0, 0)).iterator();
            }
            ClippedRows rows = b.apply(new PartitionRows(it, dim, "partition " + index + " of " + col));
            GramPass pass = GramPass.of(rows);
            return List.of(OrderedSum.of(index, pass.gram().data(), pass.rows(), Math.max(0, rows.clippedRows())))
                    .iterator();
        }, true);
        OrderedSum.Total total = aggregate(blocks, partitions);
        Matrix gram = Matrix.wrapColumnMajor(dim, dim, total.values());
        return new Explicit(gram, total.rows(), total.clipped());
    }

    /**
     * The rows streamed to the driver with {@code toLocalIterator}, one partition at a time, unbounded (the
     * caller bounds them with core's clipping on the driver): for sequential algorithms (k-DP-Ojas) that
     * must see the rows in order. Each pass is a Spark job per partition; the driver holds one partition.
     */
    RowSource streamed() {
        return new RowSource() {
            @Override
            public int dimension() {
                return d;
            }

            @Override
            public io.dpspectra.data.RowCursor open() {
                return new PartitionRows(sparkJob(vectors::toLocalIterator), d, describe()).open();
            }

            @Override
            public String describe() {
                return column + " streamed to the driver";
            }
        };
    }

    private String description() {
        return "XᵀX of " + column + " (summed across " + vectors.getNumPartitions() + " partitions)";
    }

    private static OrderedSum.Total aggregate(JavaRDD<OrderedSum> blocks, int partitions) {
        OrderedSum sum = sparkJob(() -> blocks.treeAggregate(new OrderedSum(), OrderedSum::merge, OrderedSum::merge, 2));
        return sum.total(partitions);
    }

    /** Xᵀ(X·W) with W shipped to the executors in the task closure (d × p doubles). */
    private final class Products implements SymmetricOperator {
        @Override
        public int dimension() {
            return d;
        }

        @Override
        public Matrix times(Matrix w) {
            if (w.rows() != d) {
                throw new IllegalArgumentException("operand has " + w.rows() + " rows, expected d = " + d);
            }
            int dim = d;
            int cols = w.cols();
            double[] wData = w.data().clone();
            Bounding b = requireBounding();
            String col = column;
            JavaRDD<OrderedSum> blocks = vectors.mapPartitionsWithIndex((Integer index, Iterator<Vector> it) -> {
                if (!it.hasNext()) {
                    return List.of(OrderedSum.of(index, new double[dim * cols], 0, 0)).iterator();
                }
                ClippedRows rows = b.apply(new PartitionRows(it, dim, "partition " + index + " of " + col));
                RowGramOperator op = RowGramOperator.of(rows);
                Matrix y = op.times(Matrix.wrapColumnMajor(dim, cols, wData));
                return List.of(OrderedSum.of(index, y.data(), op.lastRowCount(), Math.max(0, rows.clippedRows())))
                        .iterator();
            }, true);
            return Matrix.wrapColumnMajor(d, cols, aggregate(blocks, vectors.getNumPartitions()).values());
        }

        @Override
        public String describe() {
            return description() + " (implicit)";
        }
    }
}
