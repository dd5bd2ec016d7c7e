package io.dpspectra.linalg;

import java.io.Serializable;

/**
 * Accumulates the Gram matrix XᵀX (d × d) of rows streamed in any pieces, with a result that depends on
 * the rows and their order only: the same bits for a file read row by row, a file read on several
 * threads, or the same rows spread over the partitions of a cluster job and combined in any order.
 *
 * <p>Definition of the result ({@link RowBlocks}): the rows, numbered from 0, are cut into blocks of
 * {@link #blockRows(int)} rows; the XᵀX of each block is one dsyrk into a zeroed matrix (the
 * row-major block is, to BLAS, the column-major d × b matrix Xᵦᵀ, so it is dsyrk("L", "N")); the block
 * matrices are summed in a {@link ReproducibleSum}, exactly up to 2⁻⁶⁴ of the largest block entry and
 * independent of the order, and rounded once. On the pure-Java backend the dsyrk is done by
 * {@code GramKernel} (blocked, register-tiled, multithreaded over output tiles), because netlib's Java
 * dsyrk is unblocked; results agree bit for bit between two machines that use the same backend.
 *
 * <p>Rows are given in order from row 0 ({@link #add}, {@link #addBlock}), or at their position in
 * the data set ({@link #addAt}), by one or several {@code Gram}s that {@link #addGram} then joins.
 *
 * <p>Cost: n·d²/2 multiply-adds, plus about 25 integer operations per entry of the lower triangle per
 * block of rows; memory about 1.6 times d² doubles for the sum, a d × d scratch per thread, and one
 * block of rows for every block split between pieces given separately.
 */
public final class Gram implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * Rows per canonical block for rows of width d: about 2²¹ numbers (16 MB) per block, between 256 and 8192
     * rows (8192 up to d = 256, 1024 at d = 2048, 256 from d = 8192). A function of d alone, so every reader
     * of the same rows cuts the same blocks. Large blocks keep the order-free additions rare: each costs
     * about 25 integer operations per entry of the triangle, against the block's R multiply-adds per entry
     * (2 to 5 % of the pass at d = 100 to 400 with R = 8192 and 5242; measured in docs/benchmarks/csv.md).
     *
     * @param d the width of the rows
     * @return rows per block
     */
    public static int blockRows(int d) {
        return Math.max(RowBlocks.DEFAULT_BLOCK_ROWS, Math.min(8192, (1 << 21) / Math.max(1, d)));
    }

    /** Width of the rows. */
    private final int d;
    /** The canonical blocks' packed lower triangles, summed order-free. */
    private final RowBlocks blocks;
    private transient double[] buffer;   // row-major, for add(row); allocated on first use
    /** Rows held in the buffer. */
    private int buffered;
    /** The position of the next row given by add / addBlock. */
    private long next;

    /**
     * No rows yet, of width {@code d}, with the default backend.
     *
     * @param d the width of the rows
     */
    public Gram(int d) {
        this(d, Backend.DEFAULT);
    }

    /**
     * No rows yet, of width {@code d}, products by {@code backend}.
     *
     * @param d       the width of the rows
     * @param backend the linear-algebra backend of the blocks' products
     */
    public Gram(int d, Backend backend) {
        if (d < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, got " + d);
        }
        this.d = d;
        // fail early, with the sizes, if the matrix could never be allocated
        MatrixTooLargeException.checkedLength("the d x d matrix XᵀX", d, d);
        this.blocks = new RowBlocks(d, new SyrkLeaf(d, backend == Backend.PURE_JAVA));
    }

    /**
     * XᵀX of a whole in-memory matrix (rows × d).
     *
     * @param x the rows
     * @return XᵀX
     */
    public static Matrix of(Matrix x) {
        int d = x.cols();
        Gram g = new Gram(d);
        int r = blockRows(d);
        double[] block = new double[MatrixTooLargeException.checkedLength("a block of rows", r, d)];
        for (int start = 0; start < x.rows(); start += r) {
            int count = Math.min(r, x.rows() - start);
            for (int i = 0; i < count; i++) {
                for (int j = 0; j < d; j++) {
                    block[i * d + j] = x.get(start + i, j);
                }
            }
            g.addBlock(block, count);
        }
        return g.result();
    }

    /**
     * Width of the rows.
     *
     * @return d
     */
    public int dimension() {
        return d;
    }

    /**
     * Rows per canonical block ({@link #blockRows(int)} of d): give rows in multiples of it to copy none.
     *
     * @return rows per block
     */
    public int blockRows() {
        return blocks.blockRows();
    }

    /**
     * Rows added so far (to this Gram and every Gram added into it).
     *
     * @return the number of rows
     */
    public long rowCount() {
        return blocks.rowCount() + buffered;
    }

    /**
     * Adds one row (copied), at the position after the rows added before it. Not modified: row.
     *
     * @param row the row, of length d
     */
    public void add(double[] row) {
        if (row.length != d) {
            throw new IllegalArgumentException("row has " + row.length + " entries, expected " + d);
        }
        if (buffer == null) {
            buffer = new double[blocks.blockRows() * d];   // callers that only use addBlock never need it
        }
        System.arraycopy(row, 0, buffer, buffered * d, d);
        buffered++;
        if (buffered == blocks.blockRows()) {
            flush();
        }
    }

    /**
     * Adds {@code count} rows stored row-major in {@code rows} starting at 0. Not modified: rows.
     *
     * @param rows  the rows, row-major
     * @param count the number of rows
     */
    public void addBlock(double[] rows, int count) {
        addBlock(rows, 0, count);
    }

    /**
     * Adds rows [from, from + count) of the row-major {@code rows}, after the rows added before. Not modified: rows.
     *
     * @param rows  the rows, row-major
     * @param from  the first row given
     * @param count the number of rows given
     */
    public void addBlock(double[] rows, int from, int count) {
        if (from < 0 || count < 0 || (long) (from + count) * d > rows.length) {
            throw new IllegalArgumentException("block holds " + rows.length / d + " rows, asked for rows " + from + " to "
                    + (from + count));
        }
        flush();
        blocks.add(next, rows, from, count);
        next += count;
    }

    /**
     * Adds rows [from, from + count) of the row-major {@code rows}, which are rows [firstRow, firstRow +
     * count) of the data set. Rows given this way and rows given with {@link #add}/{@link #addBlock} (which
     * count from row 0) must not overlap. Thread-safe with other calls of this method. Not modified: rows.
     *
     * @param firstRow the data set's number of the first row given
     * @param rows     the rows, row-major
     * @param from     the first row of {@code rows} given
     * @param count    the number of rows given
     */
    public void addAt(long firstRow, double[] rows, int from, int count) {
        blocks.add(firstRow, rows, from, count);
    }

    /**
     * Adds the rows held by {@code other} (same d; other rows of the same data set, given at their
     * positions) into this Gram. The order in which Grams are added does not change the result. Not
     * modified: other.
     *
     * @param other a Gram of the same width holding other rows
     */
    public void addGram(Gram other) {
        if (other.d != d) {
            throw new IllegalArgumentException("cannot add a " + other.d + " x " + other.d + " Gram to a " + d + " x " + d
                    + " one");
        }
        flush();
        other.flush();
        blocks.merge(other.blocks);
    }

    private void flush() {
        if (buffered > 0) {
            blocks.add(next, buffer, 0, buffered);
            next += buffered;
            buffered = 0;
        }
    }

    /**
     * The full symmetric XᵀX of every row added so far (a new matrix).
     *
     * @return XᵀX
     * @throws IllegalStateException if the rows added are not rows 0 to n − 1, each once
     */
    public Matrix result() {
        flush();
        return unpack(blocks.result(), d);
    }

    /** The lower triangle packed column by column (as {@link SyrkLeaf} writes it) as a full symmetric matrix. */
    static Matrix unpack(double[] packed, int d) {
        double[] full = new double[d * d];
        int at = 0;
        for (int j = 0; j < d; j++) {
            for (int i = j; i < d; i++) {
                double v = packed[at++];
                full[j * d + i] = v;
                full[i * d + j] = v;
            }
        }
        return Matrix.wrapColumnMajor(d, d, full);
    }

    /** XᵀX of one block of rows: a dsyrk into a zeroed matrix, its lower triangle packed column by column. */
    private static final class SyrkLeaf implements RowBlocks.Leaf {
        private static final long serialVersionUID = 1L;
        private final int d;
        private final boolean pureJava;
        private transient ThreadLocal<double[]> scratch;

        SyrkLeaf(int d, boolean pureJava) {
            this.d = d;
            this.pureJava = pureJava;
        }

        @Override
        public int length() {
            return d * (d + 1) / 2;
        }

        @Override
        public int blockRows() {
            return Gram.blockRows(d);
        }

        @Override
        public void apply(double[] rows, int from, int count, double[] out) {
            double[] lower = lowerScratch();
            Backend backend = pureJava ? Backend.PURE_JAVA : Backend.DEFAULT;
            if (backend.isNative()) {
                backend.blas().dsyrk("L", "N", d, count, 1.0, rows, from * d, d, 0.0, lower, 0, d);
            } else {
                java.util.Arrays.fill(lower, 0.0);
                GramKernel.syrkLower(rows, from, count, d, lower);
            }
            int at = 0;
            for (int j = 0; j < d; j++) {
                System.arraycopy(lower, j * d + j, out, at, d - j);
                at += d - j;
            }
        }

        private double[] lowerScratch() {
            synchronized (this) {
                if (scratch == null) {
                    scratch = ThreadLocal.withInitial(() -> new double[d * d]);
                }
            }
            return scratch.get();
        }
    }
}
