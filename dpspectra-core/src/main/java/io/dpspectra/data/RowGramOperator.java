package io.dpspectra.data;

import io.dpspectra.linalg.Backend;
import io.dpspectra.linalg.BlockGramProduct;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.RowBlocks;
import io.dpspectra.linalg.SymmetricOperator;
import java.util.Objects;

/**
 * The symmetric operator A = XᵀX of the rows of a {@link RowSource}, applied as Xᵀ(X·W) in one streamed
 * pass per product and never formed: blocks of rows come from {@link RowCursor#nextBlock}, each
 * canonical block of {@link RowBlocks#DEFAULT_BLOCK_ROWS} rows is folded with two dgemm calls per sub-block
 * ({@link BlockGramProduct#leaf}), and the blocks are summed so that the product depends on the rows and
 * their order only. Over a {@link GramStatistic} each product is the statistic's own (a distributed pass,
 * say).
 *
 * <p>Cost per {@link #times}: one pass, 4·n·d·p flops; memory one block of rows plus O(d·p).
 */
public final class RowGramOperator implements SymmetricOperator {
    private final RowSource rows;
    private long passes;
    private long lastRowCount = -1;

    private RowGramOperator(RowSource rows) {
        this.rows = rows;
    }

    /**
     * XᵀX of {@code rows}.
     *
     * @param rows the rows, read once per product
     * @return the operator
     */
    public static RowGramOperator of(RowSource rows) {
        Objects.requireNonNull(rows, "rows");
        return new RowGramOperator(rows);
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
     * @return the number of rows
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
        // canonical blocks of rows (RowBlocks), read whole so that none is copied: the same bits as the
        // products of a cluster job over the same rows, whatever its partitioning
        RowBlocks sum = new RowBlocks(d, BlockGramProduct.leaf(w));
        long n = 0;
        int foldThreads = Backend.DEFAULT.threads();   // the products' dgemm
        try (RowCursor cursor = rows.open();
             ReadAhead blocks = ReadAhead.start(cursor, d, sum.blockRows(), rows.knownSize(), foldThreads)) {
            int filled;
            while ((filled = blocks.next()) > 0) {
                sum.add(n, blocks.values(), 0, filled);
                n += filled;
            }
        }
        if (n == 0) {
            throw new InvalidDataException(rows.describe() + " has no rows; provide at least one data row");
        }
        passes++;
        lastRowCount = n;
        return Matrix.wrapColumnMajor(d, p, sum.result());
    }
}
