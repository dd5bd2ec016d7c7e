package io.dpspectra.linalg;

/**
 * Accumulates the Gram matrix XᵀX (d × d) of rows streamed in blocks, never holding more than one
 * block of rows.
 *
 * <p>Rows are buffered into a row-major block of {@code blockRows × d}; a full block is folded into
 * the lower triangle of the accumulator with dsyrk (the row-major block is, to BLAS, the column-major
 * d × b matrix Xᵦᵀ, so C += Xᵦᵀ Xᵦ is dsyrk("L", "N")). {@link #result()} mirrors to a full symmetric
 * matrix. On the pure-Java backend the same update is done by {@code GramKernel} (blocked,
 * register-tiled, multithreaded), because netlib's Java dsyrk is unblocked.
 *
 * <p>Cost: n·d²/2 multiply-adds in total; memory d² doubles, plus blockRows·d once rows are added
 * one at a time.
 */
public final class Gram {
    /** Default rows per block: large enough for BLAS-3 efficiency, small enough to stay in cache. */
    public static final int DEFAULT_BLOCK_ROWS = 256;

    private final int d;
    private final Backend backend;
    private final int blockRows;
    private final double[] lower;   // column-major d × d, lower triangle valid
    private double[] block;         // row-major blockRows × d, allocated on the first add(row)
    private int buffered;
    private long rowsSeen;

    /**
     * An accumulator of XᵀX for rows of width d, with the default block size and backend.
     *
     * @param d the row width, ≥ 1
     * @throws MatrixTooLargeException when a d × d matrix cannot exist
     */
    public Gram(int d) {
        this(d, DEFAULT_BLOCK_ROWS, Backend.DEFAULT);
    }

    /**
     * An accumulator of XᵀX for rows of width d that buffers {@code blockRows} rows per BLAS call.
     *
     * @param d         the row width, ≥ 1
     * @param blockRows the rows per block, ≥ 1
     * @param backend   the BLAS to use
     * @throws MatrixTooLargeException when a d × d matrix cannot exist
     */
    public Gram(int d, int blockRows, Backend backend) {
        if (d < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, got " + d);
        }
        if (blockRows < 1) {
            throw new IllegalArgumentException("blockRows must be >= 1, got " + blockRows);
        }
        this.d = d;
        this.blockRows = blockRows;
        this.backend = backend;
        // fail early, with the sizes, if the matrix or the row buffer could never be allocated
        MatrixTooLargeException.checkedLength("the row buffer", blockRows, d);
        this.lower = new double[MatrixTooLargeException.checkedLength("the d x d matrix XᵀX", d, d)];
    }

    /**
     * XᵀX of a whole in-memory matrix (rows × d).
     *
     * @param x the rows, n × d. Not modified.
     * @return a new d × d symmetric matrix
     */
    public static Matrix of(Matrix x) {
        Gram g = new Gram(x.cols());
        double[] row = new double[x.cols()];
        for (int i = 0; i < x.rows(); i++) {
            for (int j = 0; j < x.cols(); j++) {
                row[j] = x.get(i, j);
            }
            g.add(row);
        }
        return g.result();
    }

    /**
     * The row width d.
     *
     * @return d
     */
    public int dimension() {
        return d;
    }

    /**
     * The number of rows added so far.
     *
     * @return the count, ≥ 0
     */
    public long rowCount() {
        return rowsSeen;
    }

    /**
     * Adds one row (copied). Not modified: row.
     *
     * @param row a row of length d
     */
    public void add(double[] row) {
        if (row.length != d) {
            throw new IllegalArgumentException("row has " + row.length + " entries, expected " + d);
        }
        if (block == null) {
            block = new double[blockRows * d];   // callers that only use addBlock never need it
        }
        System.arraycopy(row, 0, block, buffered * d, d);
        buffered++;
        rowsSeen++;
        if (buffered == blockRows) {
            flush();
        }
    }

    /**
     * Adds {@code count} rows stored row-major in {@code rows} starting at 0. Not modified: rows.
     *
     * @param rows  at least count·d values
     * @param count the number of rows
     */
    public void addBlock(double[] rows, int count) {
        addBlock(rows, 0, count);
    }

    /**
     * Adds rows [from, from + count) of the row-major {@code rows}. Not modified: rows.
     *
     * @param rows  row-major rows of length d
     * @param from  the first row
     * @param count the number of rows
     */
    public void addBlock(double[] rows, int from, int count) {
        if (from < 0 || (long) (from + count) * d > rows.length) {
            throw new IllegalArgumentException("block holds " + rows.length / d + " rows, asked for rows " + from + " to "
                    + (from + count));
        }
        flush();
        if (count > 0) {
            syrk(rows, from, count);
            rowsSeen += count;
        }
    }

    /**
     * Adds the XᵀX accumulated by {@code other} (same d) to this one: partial Grams of disjoint parts of
     * the rows, summed in an order the caller fixes (floating-point sums depend on it). Not modified: other.
     *
     * @param other another accumulator of the same width
     */
    public void addGram(Gram other) {
        if (other.d != d) {
            throw new IllegalArgumentException("cannot add a " + other.d + " x " + other.d + " Gram to a " + d + " x " + d
                    + " one");
        }
        flush();
        other.flush();
        for (int j = 0; j < d; j++) {
            int col = j * d;
            for (int i = j; i < d; i++) {
                lower[col + i] += other.lower[col + i];
            }
        }
        rowsSeen += other.rowsSeen;
    }

    private void flush() {
        if (buffered > 0) {
            syrk(block, 0, buffered);
            buffered = 0;
        }
    }

    /** Native backend: dsyrk; pure-Java backend: this package's blocked, multithreaded kernel. */
    private void syrk(double[] rows, int from, int count) {
        if (backend.isNative()) {
            backend.blas().dsyrk("L", "N", d, count, 1.0, rows, from * d, d, 1.0, lower, 0, d);
        } else {
            GramKernel.syrkLower(rows, from, count, d, lower);
        }
    }

    /**
     * The full symmetric XᵀX of every row added so far (a new matrix).
     *
     * @return a new d × d matrix
     */
    public Matrix result() {
        flush();
        Matrix m = Matrix.wrapColumnMajor(d, d, lower.clone());
        m.mirrorLowerToUpper();
        return m;
    }
}
