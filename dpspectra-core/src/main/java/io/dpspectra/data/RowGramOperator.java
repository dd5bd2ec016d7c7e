package io.dpspectra.data;

import io.dpspectra.linalg.MatrixTooLargeException;
import io.dpspectra.linalg.BlockGramProduct;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricOperator;
import java.util.Objects;

/**
 * The symmetric operator A = XᵀX of the rows of a {@link RowSource}, applied as Xᵀ(X·W) in one streamed
 * pass per product and never formed: blocks of rows come from {@link RowCursor#nextBlock} and each block
 * is folded in with two dgemm calls ({@link BlockGramProduct}). Over a {@link GramStatistic} each product
 * is the statistic's own (a distributed pass, say).
 *
 * <p>Cost per {@link #times}: one pass, 4·n·d·p flops; memory one block of rows plus O(d·p).
 */
public final class RowGramOperator implements SymmetricOperator {
    private final RowSource rows;
    private final int blockRows;
    private long passes;
    private long lastRowCount = -1;

    private RowGramOperator(RowSource rows, int blockRows) {
        this.rows = rows;
        this.blockRows = blockRows;
    }

    /**
     * XᵀX of {@code rows}, read in blocks of {@link BlockGramProduct#defaultBlockRows(int)} rows.
     *
     * @param rows the rows (read once per product)
     * @return the operator
     */
    public static RowGramOperator of(RowSource rows) {
        return of(rows, BlockGramProduct.defaultBlockRows(rows.dimension()));
    }

    /**
     * XᵀX of {@code rows}, read in blocks of {@code blockRows} rows.
     *
     * @param rows      the rows (read once per product)
     * @param blockRows the rows per block, ≥ 1
     * @return the operator
     */
    public static RowGramOperator of(RowSource rows, int blockRows) {
        Objects.requireNonNull(rows, "rows");
        if (blockRows < 1) {
            throw new IllegalArgumentException("blockRows must be >= 1, got " + blockRows);
        }
        return new RowGramOperator(rows, blockRows);
    }

    @Override
    public int dimension() {
        return rows.dimension();
    }

    @Override
    public String describe() {
        return "X^T X of " + rows.describe() + " (implicit)";
    }

    /**
     * Passes made so far (one per product).
     *
     * @return the number of passes
     */
    public long passes() {
        return passes;
    }

    /**
     * Rows read by the last pass, −1 before the first.
     *
     * @return the count, or −1
     */
    public long lastRowCount() {
        return lastRowCount;
    }

    @Override
    public Matrix times(Matrix w) {
        int d = rows.dimension();
        if (w.rows() != d) {
            throw new IllegalArgumentException("operand has " + w.rows() + " rows, expected d = " + d);
        }
        var statistic = GramStatistic.behind(rows);
        if (statistic.isPresent()) {
            Matrix y = statistic.get().operator().times(w);
            passes++;
            lastRowCount = statistic.get().rows();
            return y;
        }
        int p = w.cols();
        Matrix y = new Matrix(d, p);
        BlockGramProduct kernel = new BlockGramProduct(d, p);
        int rowsPerBlock = (int) Math.max(1, Math.min(blockRows, MatrixTooLargeException.MAX_ARRAY_LENGTH / d));
        double[] block = new double[MatrixTooLargeException.checkedLength("the row buffer", rowsPerBlock, d)];
        long n = 0;
        try (RowCursor cursor = rows.open()) {
            int filled;
            while ((filled = cursor.nextBlock(block, rowsPerBlock, d)) > 0) {
                kernel.accumulate(block, filled, w, y);
                n += filled;
            }
        }
        if (n == 0) {
            throw new InvalidDataException(rows.describe() + " has no rows; provide at least one data row");
        }
        passes++;
        lastRowCount = n;
        return y;
    }
}
