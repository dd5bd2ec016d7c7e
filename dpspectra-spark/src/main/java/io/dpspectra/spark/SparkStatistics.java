package io.dpspectra.spark;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.GramStatistic;
import io.dpspectra.data.PrivateBoundedMean;
import io.dpspectra.release.BoundedSum;
import io.dpspectra.release.Bounding;
import io.dpspectra.release.NormHistogram;
import io.dpspectra.release.StatisticSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.attribute.Attribute;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;

/**
 * Rows that lie in a Spark cluster as core's {@link StatisticSource}: the exact statistics a release reads
 * (the row-norm histogram, the bounded sum, and XᵀX or products Xᵀ(XW) of the bounded rows) are computed on
 * the executors, in core's canonical blocks, and merged there; core's {@link io.dpspectra.release.Preprocessor}
 * and algorithms then draw every noise once, on the driver. The estimators ({@link DpPca},
 * {@link DpCovariance}) and the Spark job read their input through it.
 *
 * <p>Read once: the first pass reads the input (parsing and mapping each row once) and persists the rows
 * (serialized, in memory and on disk) while it counts them; every later pass of the release (the bounded sum,
 * XᵀX, each product of the power method, each stream of a streaming algorithm) reads the persisted rows.
 * {@link #close()} releases them. Input that is already cached is not persisted again.
 *
 * <p>Privacy: nothing here is private by itself; each statistic sums contributions of one row each, bounded
 * before they are added by the public chain of {@link Bounding}. Errors that depend on the rows (a null row,
 * rows of different widths, no rows) are raised by the first pass, before any noise is drawn.
 */
public final class SparkStatistics implements SparkSource {
    private final DistributedGram rows;
    private final List<String> names;
    private final String description;
    private ClippedRows declared;

    private SparkStatistics(DistributedGram rows, List<String> names, String description) {
        this.rows = rows;
        this.names = names == null ? null : List.copyOf(names);
        this.description = description;
    }

    /**
     * The vector column {@code inputCol} of {@code data}; the features are named by the column's ML attributes
     * when it has them (VectorAssembler writes them), else x1, x2, ….
     *
     * @param data     the rows
     * @param inputCol the vector column
     * @return the source, to be closed after the release
     */
    public static SparkStatistics of(Dataset<?> data, String inputCol) {
        return of(data, inputCol, "column '" + inputCol + "'");
    }

    /**
     * The vector column {@code inputCol} of {@code data}, named {@code description} in messages (see
     * {@link #of(Dataset, String)}).
     *
     * @param data        the rows
     * @param inputCol    the vector column
     * @param description the input's name in messages
     * @return the source, to be closed after the release
     */
    public static SparkStatistics of(Dataset<?> data, String inputCol, String description) {
        Objects.requireNonNull(inputCol, "inputCol");
        List<String> names = attributeNames(data, inputCol);
        return new SparkStatistics(DistributedGram.column(data, inputCol, description), names, description);
    }

    /** The names of the vector column's features from its ML attributes, or null when it has none (or unnamed ones). */
    static List<String> attributeNames(Dataset<?> data, String inputCol) {
        AttributeGroup group = AttributeGroup.fromStructField(data.schema().apply(inputCol));
        if (!group.attributes().isDefined()) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (Attribute a : group.attributes().get()) {
            if (a.name().isEmpty()) {
                return null;
            }
            names.add(a.name().get());
        }
        return names;
    }

    /** The names x1, ..., xd. */
    static List<String> generatedNames(int d) {
        List<String> generated = new ArrayList<>();
        for (int j = 1; j <= d; j++) {
            generated.add("x" + j);
        }
        return generated;
    }

    /**
     * Rows already parsed and mapped (a job's input).
     *
     * @param vectors     the rows, in a deterministic partitioning and order
     * @param d           their width
     * @param names       the d feature names
     * @param description the input's name in messages
     * @return the source, to be closed after the release
     */
    public static SparkStatistics of(JavaRDD<Vector> vectors, int d, List<String> names, String description) {
        if (names.size() != d) {
            throw new IllegalArgumentException(names.size() + " names for " + d + " features");
        }
        return new SparkStatistics(DistributedGram.unbounded(vectors, d, description, true), names, description);
    }

    /**
     * Rows read in chunks by a job's own reader ({@link RowChunk}): persisted as plain arrays by the first pass,
     * the row count, after which {@code check} receives, on the driver and in partition order, the notes of the
     * partitions' last chunks, and throws the input's first problem (before any statistic is released).
     *
     * @param chunks      the rows, in a deterministic partitioning and order
     * @param d           their width
     * @param names       the d feature names
     * @param description the input's name in messages
     * @param check       inspects the readers' notes; throws the input's first problem
     * @return the source, to be closed after the release
     */
    public static SparkStatistics ofChunks(JavaRDD<RowChunk> chunks, int d, List<String> names, String description,
            java.util.function.Consumer<List<java.io.Serializable>> check) {
        if (names.size() != d) {
            throw new IllegalArgumentException(names.size() + " names for " + d + " features");
        }
        return new SparkStatistics(DistributedGram.chunks(chunks, d, description, check), names, description);
    }

    @Override
    public int dimension() {
        return rows.dimension();
    }

    @Override
    public List<String> featureNames() {
        return names != null ? names : generatedNames(dimension());
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public NormHistogram normHistogram(double[] grid) {
        return new NormHistogram(grid, rows.rowNormHistogram(grid));
    }

    @Override
    public BoundedSum boundedSum(Bounding bounding) {
        PrivateBoundedMean.Sum sum = rows.boundedSum(bounding);
        return new BoundedSum(sum.sum(), sum.rows());
    }

    /**
     * The sufficient statistic of the rows bounded by {@code bounding} on the executors, as core's lazy
     * {@link GramStatistic} (explicit XᵀX, products Xᵀ(XW), or the rows streamed to the driver), declaring the
     * final bound; each is computed when the algorithm asks for it.
     *
     * @param bounding the whole chain
     * @return the statistic
     */
    public GramStatistic statistic(Bounding bounding) {
        return rows.bounded(bounding).statistic();
    }

    @Override
    public ClippedRows bounded(Bounding bounding) {
        declared = bounding.declare(statistic(bounding));
        return declared;
    }

    /** The number of rows: the first pass, which reads the input and persists the rows for the later passes. */
    @Override
    public long rowCount() {
        return rows();
    }

    /**
     * The number of rows (a pass, unless an earlier pass counted them).
     *
     * @return n
     */
    @Override
    public long rows() {
        return rows.rows();
    }

    @Override
    public Diagnostics curatorFacts() {
        return declared != null && declared.clippedRows() >= 0 && declared.policy() == DataBounds.Policy.CLIP
                ? Diagnostics.builder().put("clippedRows", declared.clippedRows()).build() : Diagnostics.empty();
    }

    /** Releases the persisted rows (the statistics already computed stay valid). */
    @Override
    public void close() {
        rows.unpersist();
    }
}
