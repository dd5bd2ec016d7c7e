package io.dpspectra.release;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.RowSource;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * The {@link StatisticSource} of rows read on this machine (a file, rows in memory): each statistic is one
 * pass over the rows, in their order, with core's clipping; the estimator reads the bounded rows themselves.
 */
public final class RowStatistics implements StatisticSource {
    private final RowSource rows;
    private final List<String> names;
    private final UnaryOperator<RowSource> estimatorPass;
    private final LongSupplier clampedCells;
    private ClippedRows firstStage;
    private DataBounds.Policy policy;

    private RowStatistics(RowSource rows, List<String> names, UnaryOperator<RowSource> estimatorPass,
                          LongSupplier clampedCells) {
        this.rows = Objects.requireNonNull(rows, "rows");
        this.names = List.copyOf(names);
        if (this.names.size() != rows.dimension()) {
            throw new IllegalArgumentException(rows.dimension() + " columns but " + this.names.size() + " names");
        }
        this.estimatorPass = estimatorPass;
        this.clampedCells = clampedCells;
    }

    /**
     * The statistics of {@code rows}.
     *
     * @param rows  the rows as read, each one contribution
     * @param names the names of the d features
     * @return the source
     */
    public static RowStatistics of(RowSource rows, List<String> names) {
        return new RowStatistics(rows, names, UnaryOperator.identity(), null);
    }

    /**
     * The same statistics, with the estimator's passes read through {@code view} (e.g. a progress bar); the
     * preprocessing's passes read the rows directly.
     *
     * @param view a view of the rows as read that yields the same rows
     * @return a new source
     */
    public RowStatistics estimatorPass(UnaryOperator<RowSource> view) {
        return new RowStatistics(rows, names, view, clampedCells);
    }

    /**
     * The same statistics, reporting the cells a schema clamped (a curator's fact) from {@code count} (−1:
     * none counted yet).
     *
     * @param count the count after the last pass
     * @return a new source
     */
    public RowStatistics clampedCells(LongSupplier count) {
        return new RowStatistics(rows, names, estimatorPass, count);
    }

    @Override
    public int dimension() {
        return rows.dimension();
    }

    @Override
    public List<String> featureNames() {
        return names;
    }

    @Override
    public String describe() {
        return rows.describe();
    }

    /** n as the rows declare it (a binary file's header, rows in memory), else one pass. */
    @Override
    public long rowCount() {
        return rows.knownSize().orElseGet(StatisticSource.super::rowCount);
    }

    @Override
    public NormHistogram normHistogram(double[] grid) {
        return NormHistogram.of(rows, grid);
    }

    @Override
    public BoundedSum boundedSum(Bounding bounding) {
        return BoundedSum.of(bounding.first(rows));
    }

    @Override
    public ClippedRows bounded(Bounding bounding) {
        RowSource read = estimatorPass.apply(rows);
        firstStage = bounding.first(read);
        policy = bounding.policy();
        return bounding.centre(firstStage);
    }

    @Override
    public Diagnostics curatorFacts() {
        Diagnostics.Builder d = Diagnostics.builder();
        if (firstStage != null && firstStage.clippedRows() >= 0 && policy == DataBounds.Policy.CLIP) {
            d.put("clippedRows", firstStage.clippedRows());
        }
        if (clampedCells != null && clampedCells.getAsLong() >= 0) {
            d.put("clampedCells", clampedCells.getAsLong());
        }
        return d.build();
    }
}
