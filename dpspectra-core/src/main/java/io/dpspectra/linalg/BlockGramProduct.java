package io.dpspectra.linalg;

/**
 * Y ← Y + Bᵀ(B·W) for a block B of b data rows: one block of the implicit product (XᵀX)·W that the
 * row-based power methods need, computed with two dgemm calls and never forming the d × d matrix XᵀX.
 *
 * <p>Cost: 4·b·d·p flops and a b × p scratch matrix per block.
 */
public final class BlockGramProduct {
    private final int d;
    private final int p;
    private final Backend backend;
    private double[] scratch = new double[0];

    /**
     * The default number of rows per block for width d: a block of about 256 KB (32 rows at d = 1000), so
     * that the second dgemm re-reads the block from L2 cache. Measured on the 1e6 × 1000 streaming
     * benchmark: 32-row blocks ran 1.3× faster than 256-row blocks (docs/benchmarks/power-method.md).
     *
     * @param d the row width, ≥ 1
     * @return the number of rows per block, ≥ 1
     */
    public static int defaultBlockRows(int d) {
        return (int) Math.max(8, Math.min(4096, (256L * 1024) / (8L * Math.max(1, d))));
    }

    /**
     * For rows of width d and W, Y of shape d × p.
     *
     * @param d the row width, ≥ 1
     * @param p the number of columns of W and Y, ≥ 1
     */
    public BlockGramProduct(int d, int p) {
        this(d, p, Backend.DEFAULT);
    }

    /**
     * For rows of width d and W, Y of shape d × p, computed by the given backend.
     *
     * @param d       the row width, ≥ 1
     * @param p       the number of columns of W and Y, ≥ 1
     * @param backend the BLAS to use
     */
    public BlockGramProduct(int d, int p, Backend backend) {
        if (d < 1 || p < 1) {
            throw new IllegalArgumentException("d and p must be >= 1, got d = " + d + ", p = " + p);
        }
        this.d = d;
        this.p = p;
        this.backend = backend;
    }

    /**
     * Adds Bᵀ(B·W) to {@code y}, where B is the {@code count} × d row-major block {@code rows}.
     * Modified: y. Not modified: rows, w.
     *
     * @param rows  the block, row-major, at least count·d values
     * @param count the number of rows in the block
     * @param w     W, d × p
     * @param y     Y, d × p, accumulated into
     */
    public void accumulate(double[] rows, int count, Matrix w, Matrix y) {
        accumulate(rows, 0, count, w, y);
    }

    /**
     * Adds Bᵀ(B·W) to {@code y}, where B is rows [from, from + count) of the row-major {@code rows}.
     * Modified: y. Not modified: rows, w.
     *
     * @param rows  the rows, row-major, width d
     * @param from  the first row of B in {@code rows}
     * @param count B's number of rows
     * @param w     W, d × p
     * @param y     Y, d × p, accumulated into
     */
    public void accumulate(double[] rows, int from, int count, Matrix w, Matrix y) {
        if (w.rows() != d || w.cols() != p || y.rows() != d || y.cols() != p) {
            throw new IllegalArgumentException("expected W and Y of shape " + d + " x " + p + ", got " + w.rows()
                    + " x " + w.cols() + " and " + y.rows() + " x " + y.cols());
        }
        if (from < 0 || (long) (from + count) * d > rows.length) {
            throw new IllegalArgumentException("block holds " + rows.length / d + " rows, asked for rows " + from
                    + " to " + (from + count));
        }
        if (count <= 0) {
            return;
        }
        if (scratch.length < count * p) {
            scratch = new double[MatrixTooLargeException.checkedLength("the product block", count, p)];
        }
        // The row-major block is, to BLAS, the column-major d × count matrix Bᵀ (leading dimension d).
        // Z = B·W = (Bᵀ)ᵀ·W : count × p
        backend.blas().dgemm("T", "N", count, p, d, 1.0, rows, from * d, d, w.data(), 0, d, 0.0, scratch, 0, count);
        // Y += Bᵀ·Z : d × p
        backend.blas().dgemm("N", "N", d, p, count, 1.0, rows, from * d, d, scratch, 0, count, 1.0, y.data(), 0, d);
    }

    /**
     * Bᵀ(B·W) of a block of rows, for {@link RowBlocks}: a function of the block's rows alone, so that products
     * Xᵀ(X·W) summed over canonical blocks are the same bits however the rows are partitioned. A dense block
     * is taken in sub-blocks of {@link #defaultBlockRows(int)} rows, in order, each folded in with two dgemm
     * calls; a sparse block (at most one entry in 16 non-zero) row by row over each row's
     * non-zeros, z = xᵀW then Y += x·z (2·nnz·p flops a row instead of 4·d·p: wide sparse rows, such as
     * one-hot or bag-of-words features, cost what their non-zeros cost).
     *
     * @param w W, d × p (copied)
     * @return the leaf
     */
    public static RowBlocks.Leaf leaf(Matrix w) {
        return new ProductLeaf(w.rows(), w.cols(), w.data().clone());
    }

    /** A block with at most one entry in this many non-zero is folded by the sparse kernel. */
    static final int SPARSE_DENSITY = 16;

    private static final class ProductLeaf implements RowBlocks.Leaf {
        private static final long serialVersionUID = 1L;
        private final int d;
        private final int p;
        private final double[] w;

        ProductLeaf(int d, int p, double[] w) {
            this.d = d;
            this.p = p;
            this.w = w;
        }

        @Override
        public int length() {
            return d * p;
        }

        @Override
        public void apply(double[] rows, int from, int count, double[] out) {
            java.util.Arrays.fill(out, 0, d * p, 0.0);
            if (isSparse(rows, from, count)) {
                sparse(rows, from, count, out);
                return;
            }
            BlockGramProduct kernel = new BlockGramProduct(d, p);
            Matrix wm = Matrix.wrapColumnMajor(d, p, w);
            Matrix y = Matrix.wrapColumnMajor(d, p, out);
            int step = defaultBlockRows(d);
            for (int r = from; r < from + count; r += step) {
                kernel.accumulate(rows, r, Math.min(step, from + count - r), wm, y);
            }
        }

        /**
         * Whether at most one entry in {@link #SPARSE_DENSITY} of the rows is non-zero; the count stops as soon as
         * it is over (a dense block is told after about a sixteenth of its entries, not after all of them).
         */
        private boolean isSparse(double[] rows, int from, int count) {
            long cells = (long) count * d;
            long nonzero = 0;
            int i = from * d;
            int end = (from + count) * d;
            while (i < end) {
                for (int stop = Math.min(end, i + 4096); i < stop; i++) {
                    if (rows[i] != 0) {
                        nonzero++;
                    }
                }
                if (nonzero * SPARSE_DENSITY > cells) {
                    return false;
                }
            }
            return true;
        }

        /** Y += x(xᵀW) for each row x, over its non-zeros in column order. */
        private void sparse(double[] rows, int from, int count, double[] out) {
            int[] index = new int[d];
            double[] value = new double[d];
            double[] z = new double[p];
            for (int r = from; r < from + count; r++) {
                int base = r * d;
                int m = 0;
                for (int j = 0; j < d; j++) {
                    double v = rows[base + j];
                    if (v != 0) {
                        index[m] = j;
                        value[m++] = v;
                    }
                }
                for (int c = 0; c < p; c++) {
                    int col = c * d;
                    double sum = 0;
                    for (int e = 0; e < m; e++) {
                        sum += value[e] * w[col + index[e]];
                    }
                    z[c] = sum;
                }
                for (int c = 0; c < p; c++) {
                    int col = c * d;
                    double zc = z[c];
                    for (int e = 0; e < m; e++) {
                        out[col + index[e]] += value[e] * zc;
                    }
                }
            }
        }
    }
}
