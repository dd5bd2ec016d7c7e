package io.dpspectra.data;

import io.dpspectra.linalg.BlockGramProduct;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.RowBlocks;
import io.dpspectra.linalg.SymmetricOperator;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The sufficient statistic XᵀX of bounded rows that were read elsewhere (for example summed across the
 * partitions of a Spark job), standing in for the rows themselves. An algorithm that only needs XᵀX gets
 * it through {@link GramPass} (the explicit d × d matrix) or {@link RowGramOperator} (products Xᵀ(X·W)),
 * so every Gram-based algorithm of this library runs unchanged from a statistic: the caller computes the
 * statistic, and the algorithm draws its noise and spends its budget as it does on rows.
 *
 * <p>Privacy: the statistic must be the exact sum of the outer products of rows that satisfy
 * {@link #bounds()} (each row clipped or checked by {@link Clipping} before it was added). The bound is
 * what the algorithms calibrate to, so, as for any {@link RowSource}, it must come from the user or a
 * private estimate, never from the data. An algorithm that streams rows (Oja-type) reads the rows the
 * statistic was built with, when it was given a way to stream them ({@link #lazy}); otherwise
 * {@link #open()} refuses.
 */
public final class GramStatistic implements RowSource {
    private final int d;
    private final Supplier<Matrix> gram;
    private Matrix computed;
    private final SymmetricOperator operator;
    private final Supplier<RowSource> boundedRows;
    private final long rows;
    private final DataBounds bounds;
    private final String description;

    private GramStatistic(int d, Supplier<Matrix> gram, SymmetricOperator operator, Supplier<RowSource> boundedRows,
                          long rows, DataBounds bounds, String description) {
        if (rows < 1) {
            throw new InvalidDataException(description + " has no rows; provide at least one data row");
        }
        this.d = d;
        this.gram = gram;
        this.operator = operator;
        this.boundedRows = boundedRows;
        this.rows = rows;
        this.bounds = Objects.requireNonNull(bounds, "bounds");
        this.description = Objects.requireNonNull(description, "description");
    }

    /**
     * The explicit XᵀX (d × d, symmetric; not copied, do not modify it) of {@code rows} rows that satisfy
     * {@code bounds}.
     *
     * @param gram        XᵀX, d × d
     * @param rows        the number of rows summed
     * @param bounds      the bound every summed row satisfies
     * @param description what the statistic is, for messages and the release
     * @return the statistic
     */
    public static GramStatistic of(Matrix gram, long rows, DataBounds bounds, String description) {
        Objects.requireNonNull(gram, "gram");
        if (!gram.isSquare() || !gram.isFinite()) {
            throw new IllegalArgumentException("a Gram statistic must be square and finite, got " + gram.rows()
                    + " x " + gram.cols());
        }
        return new GramStatistic(gram.rows(), () -> gram, SymmetricOperator.dense(gram), null, rows, bounds,
                description);
    }

    /**
     * The implicit XᵀX of {@code rows} rows that satisfy {@code bounds}, available only as products
     * Xᵀ(X·W) (one distributed pass each, say): for the power methods, which never form XᵀX.
     *
     * @param xtx         the operator X ↦ XᵀX·W
     * @param rows        the number of rows summed
     * @param bounds      the bound every summed row satisfies
     * @param description what the statistic is, for messages and the release
     * @return the statistic
     */
    public static GramStatistic implicit(SymmetricOperator xtx, long rows, DataBounds bounds, String description) {
        Objects.requireNonNull(xtx, "xtx");
        return new GramStatistic(xtx.dimension(), null, xtx, null, rows, bounds, description);
    }

    /**
     * A statistic computed only when an algorithm asks for it, in the shape it asks for: the explicit
     * XᵀX ({@code gram}, computed at most once), products Xᵀ(X·W) ({@code products}), or the rows
     * themselves in a fixed order, each already bounded by {@code bounds} ({@code boundedRows}, for
     * streaming algorithms). A cluster job offers all three, so that every algorithm can run from it.
     *
     * @param d           the row width
     * @param rows        the number of rows
     * @param bounds      the bound every row satisfies
     * @param gram        computes XᵀX (called at most once)
     * @param products    the operator W ↦ XᵀX·W
     * @param boundedRows gives the bounded rows in a fixed order
     * @param description what the statistic is, for messages and the release
     * @return the statistic
     */
    public static GramStatistic lazy(int d, long rows, DataBounds bounds, Supplier<Matrix> gram,
                                     SymmetricOperator products, Supplier<RowSource> boundedRows, String description) {
        Objects.requireNonNull(gram, "gram");
        Objects.requireNonNull(products, "products");
        Objects.requireNonNull(boundedRows, "boundedRows");
        return new GramStatistic(d, gram, products, boundedRows, rows, bounds, description);
    }

    /**
     * Products over a range of the rows, for algorithms that use each row in one step only (the streaming
     * power method): what a {@code products} operator of {@link #lazy} offers when it can restrict its pass
     * to some rows (a cluster job reading only the partitions that hold them, say).
     */
    public interface RangeProducts {
        /**
         * The sum over rows [from, to) of x(xᵀW), in canonical blocks of the range's rows
         * ({@link RowBlocks} numbering row {@code from} as 0, each block folded by
         * {@link BlockGramProduct#leaf}): the same bits as {@link #rangeProduct} on the same rows.
         *
         * @param w    W, d × p
         * @param from the first row (0-based, in the rows' order)
         * @param to   one past the last row, at most the number of rows
         * @return the d × p product
         */
        Matrix times(Matrix w, long from, long to);
    }

    /**
     * A pass that reads every bounded row where the rows lie and brings none of them here: what a
     * {@code products} operator of {@link #lazy} offers when it can (a cluster job reading its partitions on
     * the executors). It checks each row as reading the rows here would (the bound's refusals, non-finite
     * values) without shipping the rows, so a release can fail fast on a bad row before its first noise.
     */
    public interface RowCheck {
        /**
         * Reads every bounded row once where it lies, raising the error that reading it here would raise.
         *
         * @return the number of rows read
         */
        long checkRows();
    }

    /**
     * The row check of the statistic behind {@code rows}, when its products operator offers one (see
     * {@link RowCheck}); empty for rows that are read here.
     *
     * @param rows the rows an algorithm was given
     * @return the row check, or empty
     */
    public static Optional<RowCheck> rowCheck(RowSource rows) {
        return behind(rows).filter(g -> g.operator instanceof RowCheck).map(g -> (RowCheck) g.operator);
    }

    /**
     * The range products of the statistic behind {@code rows}, when its products operator offers them (see
     * {@link RangeProducts}); empty for rows that are read here.
     *
     * @param rows the rows an algorithm was given
     * @return the range products, or empty
     */
    public static Optional<RangeProducts> rangeProducts(RowSource rows) {
        return behind(rows).filter(g -> g.operator instanceof RangeProducts).map(g -> (RangeProducts) g.operator);
    }

    /**
     * The sum over the next {@code count} rows of {@code cursor} of x(xᵀW), in canonical blocks of those rows
     * ({@link RowBlocks} numbering the first as 0, each block folded by {@link BlockGramProduct#leaf}): the
     * local form of {@link RangeProducts#times}, bit for bit, whatever {@code buffer}'s size: rows are read
     * into it at most {@code buffer.length / d} at a time (a block's worth, {@link RowBlocks#DEFAULT_BLOCK_ROWS}
     * rows, copies none; fewer are kept until their block is complete).
     *
     * @param cursor the rows, positioned at the range's first row
     * @param count  the rows in the range
     * @param w      W, d × p
     * @param buffer scratch for at least one row
     * @return the d × p product, or null when the rows ended first (then fewer than count rows were read)
     */
    public static Matrix rangeProduct(RowCursor cursor, long count, Matrix w, double[] buffer) {
        int d = w.rows();
        RowBlocks sum = new RowBlocks(d, BlockGramProduct.leaf(w));
        int blockRows = sum.blockRows();
        int chunk = buffer.length / d;
        if (chunk < 1) {
            throw new IllegalArgumentException("the buffer holds " + buffer.length + " values, less than a row of " + d);
        }
        long at = 0;
        while (at < count) {
            int want = (int) Math.min(Math.min(chunk, blockRows - at % blockRows), count - at);
            int got = cursor.nextBlock(buffer, want, d);
            if (got == 0) {
                return null;
            }
            sum.add(at, buffer, 0, got);
            at += got;
        }
        return Matrix.wrapColumnMajor(d, w.cols(), sum.result());
    }

    /** The statistic behind {@code source}: the source itself, or the statistic under a {@link ClippedRows}
     * whose bound it already satisfies (clipping bounded rows again is the identity). */
    static Optional<GramStatistic> behind(RowSource source) {
        if (source instanceof GramStatistic g) {
            return Optional.of(g);
        }
        if (source instanceof ClippedRows c && c.source() instanceof GramStatistic g
                && g.bounds.norm() == c.clipping().norm() && g.bounds.bound() <= c.clipping().bound()) {
            return Optional.of(g);
        }
        return Optional.empty();
    }

    /** The explicit XᵀX as a {@link GramPass}; an error if this statistic is implicit. */
    GramPass pass() {
        if (gram == null) {
            throw new UnsupportedOperationException(description + " holds XᵀX only as products Xᵀ(X·W); this "
                    + "algorithm needs the explicit d x d matrix, so compute the explicit statistic instead");
        }
        synchronized (this) {
            if (computed == null) {
                Matrix g = gram.get();
                if (g.rows() != d || g.cols() != d || !g.isFinite()) {
                    throw new IllegalStateException(description + " produced a " + g.rows() + " x " + g.cols()
                            + " matrix (or a non-finite one), expected " + d + " x " + d);
                }
                computed = g;
            }
        }
        return new GramPass(computed.copy(), rows);
    }

    /** XᵀX as an operator. */
    SymmetricOperator operator() {
        return operator;
    }

    /**
     * The number of rows summed.
     *
     * @return n
     */
    public long rows() {
        return rows;
    }

    @Override
    public int dimension() {
        return d;
    }

    @Override
    public RowCursor open() {
        if (boundedRows != null) {
            return boundedRows.get().open();
        }
        throw new UnsupportedOperationException(description + " holds only the sufficient statistic XᵀX, not "
                + "the rows; this algorithm reads rows one by one, so give it the rows themselves");
    }

    @Override
    public OptionalLong knownSize() {
        return OptionalLong.of(rows);
    }

    @Override
    public Optional<DataBounds> bounds() {
        return Optional.of(bounds);
    }

    @Override
    public String describe() {
        return description;
    }
}
