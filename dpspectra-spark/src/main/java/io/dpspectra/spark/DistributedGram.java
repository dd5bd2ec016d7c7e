package io.dpspectra.spark;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.Clipping;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.GramStatistic;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.PrivateBoundedMean;
import io.dpspectra.data.PrivateQuantile;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.BlockGramProduct;
import io.dpspectra.linalg.Gram;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.RowBlocks;
import io.dpspectra.linalg.SymmetricOperator;
import io.dpspectra.release.Bounding;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;

/**
 * The distributed part of every release: the exact statistics of the rows of a vector column (the
 * row-norm histogram, the sum of the bounded rows, XᵀX or products Xᵀ(X·W) of the bounded rows), and
 * nothing else. Each partition bounds its rows with core's {@link Clipping} and folds them, at their
 * global row numbers, into core's canonical blocks ({@link Gram}, {@link RowBlocks}: a fixed number of
 * rows per block, each block folded alone, the blocks summed in an order-free way); the partitions'
 * partials are merged on the executors ({@link CombineTree}), and the driver receives the finished
 * statistic only: one d × d block for XᵀX whatever the number of partitions. The result is the CLI's
 * statistic bit for bit, for any partitioning of the same rows in the same order, and core's algorithms
 * draw all noise from it, once, on the driver.
 *
 * <p>Row numbers: the first pass over the rows records each partition's row count (any pass: the count
 * job, the histogram or the sum), and the partitions' first rows follow from it. A later pass that finds
 * another count in a partition stops: the input changed during the fit.
 *
 * <p>Faults: a task that fails and is retried recomputes its partition's partial from the partition's
 * rows; Spark counts each partition's result once, and the order-free merge makes the statistic, and so
 * the release, bit-identical to a run without the failure (for rows whose partitioning is deterministic,
 * as it is for files and parallelised collections).
 *
 * <p>Privacy: the statistic is a deterministic function of the rows, each bounded by the user's bound
 * before it is added; the bound is declared as user-given, never derived from the data.
 */
final class DistributedGram {
    /** The rows: {@link Vector}s, or {@link RowChunk}s (from a job's reader). */
    private final JavaRDD<Object> vectors;
    private final Bounding bounding;
    private final String column;
    /** What the passes learned of the rows, shared by every view of the same rows. */
    private final Shared shared;
    private static final String TASK_DATA_ERROR = InvalidDataException.class.getName() + ": ";
    /** What Spark's CSV reader says (mode FAILFAST) of a line that does not parse into the header's columns. */
    private static final String MALFORMED_CSV = "Malformed records are detected in record parsing";

    /** The rows' width and each partition's row count, once a pass has counted them (driver side). */
    private static final class Shared {
        private int d;
        private long[] perPartition;
        /** Whether the rows were persisted here (then {@link #unpersist} releases them). */
        private boolean persisted;
        /**
         * For rows in chunks: inspects, on the driver, the notes of the partitions' last chunks (in partition
         * order) after the first pass, before anything else reads a statistic; throws the input's first problem.
         */
        private java.util.function.Consumer<List<java.io.Serializable>> check;
    }

    private DistributedGram(JavaRDD<Object> vectors, Shared shared, Bounding bounding, String column) {
        this.vectors = vectors;
        this.shared = shared;
        this.bounding = bounding;
        this.column = column;
    }

    /**
     * The vector column {@code inputCol} of {@code data} (named {@code name} in messages), not yet bounded. Its width is taken from the column's
     * metadata when it has one (e.g. written by VectorAssembler), else from the first row of the first pass.
     * The vectors are persisted ({@link #persisted}) unless {@code data} is cached already.
     */
    static DistributedGram column(Dataset<?> data, String inputCol, String name) {
        Objects.requireNonNull(data, "dataset");
        Dataset<Row> column = data.select(inputCol);
        int d = org.apache.spark.ml.attribute.AttributeGroup.fromStructField(column.schema().apply(inputCol)).size();
        JavaRDD<Vector> vectors = column.toJavaRDD().map((Row r) -> (Vector) r.get(0));
        boolean cached = !data.storageLevel().equals(StorageLevel.NONE());
        return unbounded(vectors, d, name, !cached);
    }

    /**
     * The rows {@code vectors} (named {@code name} in messages) of width {@code d} (or -1: the first row's),
     * not yet bounded: {@link #rowNormHistogram} and {@link #boundedSum} read them as they are, and
     * {@link #bounded} gives the statistic of the bounded rows. With {@code persist}, the rows are persisted
     * (serialized, in memory and on disk) as the first pass reads them, so that every later pass of a release
     * reads them from there instead of reading, parsing and mapping the input again; {@link #unpersist}
     * releases them.
     */
    static DistributedGram unbounded(JavaRDD<Vector> vectors, int d, String name, boolean persist) {
        return of(vectors, d, name, persist ? StorageLevel.MEMORY_AND_DISK_SER() : null, null);
    }

    /**
     * Rows in chunks of width {@code d} (a job's reader: {@link RowChunk}), named {@code name} in messages, not yet
     * bounded. The chunks are persisted as they are (in memory, spilled to disk when memory runs short: they are
     * plain arrays, which serializing would only copy) by the first pass, which is the count of the rows: it hands
     * the notes of the partitions' last chunks, in partition order, to {@code check} on the driver, which throws
     * the input's first problem before any other pass, and so before any noise.
     */
    static DistributedGram chunks(JavaRDD<RowChunk> chunks, int d, String name,
            java.util.function.Consumer<List<java.io.Serializable>> check) {
        return of(chunks, d, name, StorageLevel.MEMORY_AND_DISK(), Objects.requireNonNull(check, "check"));
    }

    @SuppressWarnings("unchecked")
    private static DistributedGram of(JavaRDD<?> elements, int d, String name, StorageLevel level,
            java.util.function.Consumer<List<java.io.Serializable>> check) {
        Shared shared = new Shared();
        shared.d = d;
        shared.check = check;
        JavaRDD<Object> rows = (JavaRDD<Object>) elements;
        if (level != null && elements.getStorageLevel().equals(StorageLevel.NONE())) {
            rows = rows.persist(level);
            shared.persisted = true;
        }
        return new DistributedGram(rows, shared, null, name);
    }

    /** Releases the rows persisted by {@link #unbounded}, if they were; the statistics computed stay valid. */
    void unpersist() {
        synchronized (shared) {
            if (shared.persisted) {
                vectors.unpersist(false);
                shared.persisted = false;
            }
        }
    }

    /** Whether the rows are persisted by this object (and read from there after the first pass). */
    boolean persisted() {
        synchronized (shared) {
            return shared.persisted;
        }
    }

    /** The same rows, bounded by {@code b} before they are summed. */
    DistributedGram bounded(Bounding b) {
        return new DistributedGram(vectors, shared, Objects.requireNonNull(b, "bounding"), column);
    }

    /** How the bounded rows declare their bound to the algorithms (given, from a schema, or released). */
    private static DataBounds declared(Bounding b) {
        return new DataBounds(DataBounds.Norm.L2, b.bound(), b.origin(), b.mean() == null ? b.policy()
                : DataBounds.Policy.CLIP);
    }

    /**
     * Runs a Spark action, rethrowing a data error raised in a task ({@link InvalidDataException}, e.g. a
     * NaN or a row over the bound) as itself rather than wrapped in Spark's job failure, and a failure of
     * the cluster (an executor out of memory, lost workers) as a {@link ClusterFailure} that
     * names the cause and the fix.
     */
    static <T> T sparkJob(java.util.function.Supplier<T> action) {
        try {
            return action.get();
        } catch (Exception e) {   // SparkException is checked, though Scala throws it undeclared
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof InvalidDataException data) {
                    throw new InvalidDataException(data, e);   // the task's exception itself: its words and its hint
                }
            }
            for (Throwable t = e; t != null; t = t.getCause()) {
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
            RuntimeException cluster = SparkFailures.classify(e);
            if (cluster != null) {
                throw cluster;
            }
            throw e;
        } catch (OutOfMemoryError e) {
            throw new ClusterFailure("the driver ran out of memory (" + e.getMessage() + ")",
                    "give the driver more memory (spark-submit --driver-memory, or spark.driver.memory); it holds "
                            + "one d x d matrix of doubles and the algorithm's work on it", e);
        }
    }

    /**
     * The statistic as core's lazy {@link GramStatistic}: the explicit XᵀX (one job, run only if the
     * algorithm asks for it), products Xᵀ(X·W) (one job each), or the bounded rows streamed to the driver.
     * Counting the rows of each partition is one job, run now unless an earlier pass counted them. Cache
     * the input when an algorithm makes several passes (the power method, k-DP-Ojas) and the rows are
     * expensive to recompute.
     */
    GramStatistic statistic() {
        Bounding b = requireBounding();
        long n = rows();
        return GramStatistic.lazy(dimension(), n, declared(b), () -> explicit().gram(), new Products(),
                () -> b.apply(streamed()), description());
    }

    /** The rows' width d: known from the start, or found by the first pass (which counts the rows too). */
    int dimension() {
        synchronized (shared) {
            if (shared.d < 0) {
                partitionCounts();
            }
            return shared.d;
        }
    }

    /** The number of rows: the sum of the partitions' counts (a job, unless a pass counted them). */
    long rows() {
        long n = 0;
        for (long c : partitionCounts()) {
            n += c;
        }
        return n;
    }

    /**
     * Each partition's row count: counted by an earlier pass, or now, in one pass that also learns d from the
     * first row when it is not known yet (a row of another width, or a null row, is an error naming it). With
     * persisted rows, this pass is the one that reads the input and persists them.
     */
    private long[] partitionCounts() {
        synchronized (shared) {
            if (shared.perPartition == null) {
                int partitions = vectors.getNumPartitions();
                int known = shared.d;
                String col = column;
                List<Counted> counted = sparkJob(() -> vectors.mapPartitionsWithIndex((Integer index, Iterator<Object> it) -> {
                    long c = 0;
                    int width = known;
                    java.io.Serializable note = null;
                    while (it.hasNext()) {
                        Object o = it.next();
                        if (o instanceof RowChunk chunk) {
                            if (chunk.rows() > 0 && chunk.width() != width) {
                                throw new IllegalStateException("a chunk of rows of " + chunk.width() + " values in "
                                        + "partition " + index + " of " + col + ", whose rows have " + width);
                            }
                            c += chunk.rows();
                            note = chunk.note() != null ? chunk.note() : note;
                            continue;
                        }
                        Vector v = (Vector) o;
                        c++;
                        if (v == null) {
                            throw new InvalidDataException("row " + c + " of partition " + index + " of " + col
                                    + " is null; drop or impute missing rows first");
                        }
                        if (width < 0) {
                            width = v.size();
                        } else if (v.size() != width) {
                            throw new InvalidDataException("row " + c + " of partition " + index + " of " + col + " has "
                                    + v.size() + " values but " + (known < 0 ? "the partition's first row has "
                                    : "the column has ") + width + "; every vector needs the same size");
                        }
                    }
                    return List.of(new Counted(index, c, width, note)).iterator();
                }, true).collect());
                long[] per = new long[partitions];
                int d = known;
                List<Counted> inOrder = counted.stream().sorted(java.util.Comparator.comparingInt(Counted::index))
                        .toList();
                if (shared.check != null) {
                    shared.check.accept(inOrder.stream().map(Counted::note).filter(Objects::nonNull).toList());
                }
                for (Counted c : inOrder) {
                    per[c.index()] = c.rows();
                }
                for (Counted c : inOrder) {
                    if (c.rows() == 0) {
                        continue;
                    }
                    if (d < 0) {
                        d = c.width();
                    } else if (c.width() != d) {
                        throw new InvalidDataException("partition " + c.index() + " of " + column + " has rows of "
                                + c.width() + " values but earlier rows have " + d + "; every vector needs the same size");
                    }
                }
                if (java.util.Arrays.stream(per).sum() == 0) {
                    throw new InvalidDataException(column + " has no rows; provide at least one row");
                }
                shared.d = d;
                shared.perPartition = per;
            }
            return shared.perPartition;
        }
    }

    /** A partition's row count and width, and its reader's note (rows in chunks). */
    private record Counted(int index, long rows, int width, java.io.Serializable note) implements java.io.Serializable {
    }

    private void recordCounts(long[] per) {
        synchronized (shared) {
            if (shared.perPartition == null) {
                shared.perPartition = per.clone();
            } else if (!java.util.Arrays.equals(shared.perPartition, per)) {
                throw changed();
            }
        }
    }

    private InvalidDataException changed() {
        return new InvalidDataException(column + " had other row counts per partition in two passes; the input "
                + "(and its partitioning) must not change during a fit");
    }

    /** The global number of each partition's first row. */
    private long[] firstRows() {
        long[] per = partitionCounts();
        long[] first = new long[per.length];
        for (int p = 1; p < per.length; p++) {
            first[p] = first[p - 1] + per[p - 1];
        }
        return first;
    }

    private Bounding requireBounding() {
        if (bounding == null) {
            throw new IllegalStateException(column + " is not bounded yet; call bounded(...) first");
        }
        return bounding;
    }

    /**
     * The histogram of the rows' L2 norms over {@code grid} (as they are, unbounded), by core's
     * {@link PrivateQuantile#rowNormHistogram} on each partition, summed (exact counts) on the executors:
     * the statistic of a private row-norm quantile, whose noise the driver draws. Counts the partitions'
     * rows on the way.
     */
    long[] rowNormHistogram(double[] grid) {
        synchronized (shared) {
            if (shared.check != null) {
                partitionCounts();   // the reader's problems are found by the count, before any statistic
            }
        }
        int dim = dimension();
        String col = column;
        double[] g = grid.clone();
        int partitions = vectors.getNumPartitions();
        JavaRDD<long[]> parts = vectors.mapPartitionsWithIndex((Integer index, Iterator<Object> it) -> {
            long[] hist = PrivateQuantile.rowNormHistogram(new PartitionRows(it, dim, "partition " + index + " of "
                    + col), g);
            // the histogram, then this partition's row count (the histogram's last entry) at its index
            long[] out = new long[g.length + 1 + partitions];
            System.arraycopy(hist, 0, out, 0, hist.length);
            out[g.length + 1 + index] = hist[g.length];
            return List.of(out).iterator();
        }, true);
        long[] total = sparkJob(() -> CombineTree.combine(parts, DistributedGram::addCounts, x -> x,
                new long[g.length + 1 + partitions]));
        recordCounts(java.util.Arrays.copyOfRange(total, g.length + 1, total.length));
        return java.util.Arrays.copyOf(total, g.length + 1);
    }

    private static long[] addCounts(long[] a, long[] b) {
        long[] out = a.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] += b[i];
        }
        return out;
    }

    /**
     * The sum and number of the rows bounded by {@code b}, by core's canonical column sums
     * ({@link RowBlocks#columnSums}, as {@link PrivateBoundedMean#sum} sums local rows): the statistic of a
     * private mean, whose noise the driver draws.
     */
    PrivateBoundedMean.Sum boundedSum(Bounding b) {
        int dim = dimension();
        Folded<double[]> total = fold(b, RowBlocks.DEFAULT_BLOCK_ROWS, () -> new RowBlocks(dim, RowBlocks.columnSums(dim)),
                (blocks, first, rows, from, count) -> blocks.add(first, rows, from, count), (x, y) -> {
                    x.merge(y);
                    return x;
                }, RowBlocks::result);
        return new PrivateBoundedMean.Sum(total.value(), total.rows());
    }

    /** Result of {@link #explicit()}: XᵀX, the rows summed, and the rows clipped (a non-private diagnostic). */
    record Explicit(Matrix gram, long rows, long clippedRows) {
    }

    /** XᵀX as an explicit d × d matrix: one Spark job (two, if the rows were not counted yet). */
    Explicit explicit() {
        int dim = dimension();
        Folded<double[]> total = fold(requireBounding(), Gram.blockRows(dim), () -> new Gram(dim),
                (gram, first, rows, from, count) -> gram.addAt(first, rows, from, count), (x, y) -> {
                    x.addGram(y);
                    return x;
                }, g -> g.result().data());
        return new Explicit(Matrix.wrapColumnMajor(dim, dim, total.value()), total.rows(), total.clipped());
    }

    /**
     * Adds rows to a partial: rows [from, from + count) of {@code rows} (row-major), which are rows first,
     * first + 1, … (numbered from the fold's first row).
     */
    @FunctionalInterface
    private interface Adder<T> extends java.io.Serializable {
        void add(T partial, long first, double[] rows, int from, int count);
    }

    /** The finished value of a fold, with the rows folded and the rows clipped. */
    private record Folded<R>(R value, long rows, long clipped) implements java.io.Serializable {
    }

    /** A partition's partial with its row and clipped-row counts, merged in the {@link CombineTree}. */
    private record Part<T>(T value, long rows, long clipped) implements java.io.Serializable {
    }

    /**
     * One pass: each partition's rows, bounded by {@code b}, added at their global row numbers into a new
     * partial (read in chunks that end on the canonical block boundaries, every {@code blockRows} rows, so
     * that only the blocks split between partitions are copied); the partials merged on the executors; the
     * root finished there.
     */
    private <T extends java.io.Serializable, R> Folded<R> fold(Bounding b, int blockRows,
            org.apache.spark.api.java.function.Function0<T> zero, Adder<T> adder,
            org.apache.spark.api.java.function.Function2<T, T, T> merge,
            org.apache.spark.api.java.function.Function<T, R> finish) {
        return fold(b, blockRows, 0, Long.MAX_VALUE, zero, adder, merge, finish);
    }

    /**
     * One pass over the rows [lo, hi) only (numbered from lo in the partial, so that its canonical blocks are
     * the range's): a partition that holds none of them is not read; one that holds some reads its rows (and
     * checks their count) and adds those in the range.
     */
    private <T extends java.io.Serializable, R> Folded<R> fold(Bounding b, int blockRows, long lo, long hi,
            org.apache.spark.api.java.function.Function0<T> zero, Adder<T> adder,
            org.apache.spark.api.java.function.Function2<T, T, T> merge,
            org.apache.spark.api.java.function.Function<T, R> finish) {
        int dim = dimension();
        String col = column;
        long[] first = firstRows();
        long[] expected = partitionCounts().clone();
        JavaRDD<Part<T>> parts = vectors.mapPartitionsWithIndex((Integer index, Iterator<Object> it) -> {
            T partial = zero.call();
            long start = first[index];
            if (start >= hi || start + expected[index] <= lo) {
                return List.of(new Part<>(partial, 0, 0)).iterator();
            }
            ClippedRows rows = b.apply(new PartitionRows(it, dim, "partition " + index + " of " + col));
            long at = start;
            long added = 0;
            double[] chunk = new double[blockRows * dim];
            try (RowCursor cursor = rows.open()) {
                int want = (int) (blockRows - Math.floorMod(at - lo, blockRows));
                int filled;
                while ((filled = cursor.nextBlock(chunk, want, dim)) > 0) {
                    long from = Math.max(at, lo);
                    long to = Math.min(at + filled, hi);
                    if (from < to) {
                        adder.add(partial, from - lo, chunk, (int) (from - at), (int) (to - from));
                        added += to - from;
                    }
                    at += filled;
                    want = blockRows;
                }
            }
            long read = at - start;
            if (read != expected[index]) {
                throw new IllegalStateException("partition " + index + " of " + col + " had " + expected[index]
                        + " rows when counted but " + read + " now; the input must not change during a fit");
            }
            return List.of(new Part<>(partial, added, Math.max(0, rows.clippedRows()))).iterator();
        }, true);
        T empty;
        try {
            empty = zero.call();
        } catch (Exception e) {
            throw new IllegalStateException("cannot make an empty partial", e);
        }
        return sparkJob(() -> CombineTree.combine(parts, (x, y) -> new Part<>(merge.call(x.value(), y.value()),
                x.rows() + y.rows(), x.clipped() + y.clipped()),
                p -> new Folded<>(finish.call(p.value()), p.rows(), p.clipped()), new Part<>(empty, 0, 0)));
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
                return DistributedGram.this.dimension();
            }

            @Override
            public io.dpspectra.data.RowCursor open() {
                return new PartitionRows(sparkJob(vectors::toLocalIterator), dimension(), describe()).open();
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

    /**
     * Xᵀ(X·W) with W shipped to the executors in the task closure (d × p doubles), over all rows (one pass) or
     * over a range of them (a pass over the partitions that hold it); d × p numbers come back to the driver.
     */
    private final class Products implements SymmetricOperator, GramStatistic.RangeProducts, GramStatistic.RowCheck {
        /**
         * One pass that bounds every row on the executors, as a fold does, and adds nothing: a row the bounding
         * refuses (or a non-finite one) fails here, before the first noise, and no row travels to the driver.
         */
        @Override
        public long checkRows() {
            Folded<long[]> read = fold(requireBounding(), RowBlocks.DEFAULT_BLOCK_ROWS, () -> new long[1],
                    (seen, first, rows, at, count) -> seen[0] += count, (x, y) -> {
                        x[0] += y[0];
                        return x;
                    }, x -> x);
            return read.rows();
        }

        @Override
        public int dimension() {
            return DistributedGram.this.dimension();
        }

        @Override
        public Matrix times(Matrix w) {
            return times(w, 0, Long.MAX_VALUE);
        }

        @Override
        public Matrix times(Matrix w, long from, long to) {
            if (w.rows() != dimension()) {
                throw new IllegalArgumentException("operand has " + w.rows() + " rows, expected d = " + dimension());
            }
            long n = rows();
            if (from < 0 || from > to || to != Long.MAX_VALUE && to > n) {
                throw new IllegalArgumentException("rows " + from + " to " + to + " of " + n);
            }
            int dim = dimension();
            RowBlocks.Leaf leaf = BlockGramProduct.leaf(w);
            Folded<double[]> total = fold(requireBounding(), leaf.blockRows(), from, to, () -> new RowBlocks(dim, leaf),
                    (blocks, first, rows, at, count) -> blocks.add(first, rows, at, count), (x, y) -> {
                        x.merge(y);
                        return x;
                    }, RowBlocks::result);
            return Matrix.wrapColumnMajor(dim, w.cols(), total.value());
        }

        @Override
        public String describe() {
            return description() + " (implicit)";
        }
    }
}
