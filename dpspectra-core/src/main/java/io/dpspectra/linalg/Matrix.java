package io.dpspectra.linalg;

import java.util.Arrays;

/**
 * A small dense matrix of doubles stored column-major, the layout BLAS and LAPACK expect.
 *
 * <p>The entry (i, j) lives at {@code data[i + j * rows]}. Matrices are mutable (kernels fill them in
 * place, as EJML's do); methods say in their javadoc whether an argument is modified. Results handed
 * to users (components, released covariances) are defensive copies.
 */
public final class Matrix {
    private final int rows;
    private final int cols;
    private final double[] data;

    /**
     * A rows × cols zero matrix.
     *
     * @param rows the number of rows, ≥ 0
     * @param cols the number of columns, ≥ 0
     * @throws MatrixTooLargeException when rows·cols entries cannot fit in one array
     */
    public Matrix(int rows, int cols) {
        this(rows, cols, new double[checkedSize(rows, cols)]);
    }

    private Matrix(int rows, int cols, double[] data) {
        if (rows < 0 || cols < 0) {
            throw new IllegalArgumentException("matrix dimensions must be >= 0, got " + rows + " x " + cols);
        }
        if (data.length != (long) rows * cols) {
            throw new IllegalArgumentException("column-major array has length " + data.length
                    + " but a " + rows + " x " + cols + " matrix needs " + ((long) rows * cols));
        }
        this.rows = rows;
        this.cols = cols;
        this.data = data;
    }

    private static int checkedSize(int rows, int cols) {
        return MatrixTooLargeException.checkedLength("a matrix", rows, cols);
    }

    /**
     * Wraps (does not copy) a column-major array.
     *
     * @param rows        the number of rows
     * @param cols        the number of columns
     * @param columnMajor rows·cols entries, column by column
     * @return a matrix backed by {@code columnMajor}
     */
    public static Matrix wrapColumnMajor(int rows, int cols, double[] columnMajor) {
        return new Matrix(rows, cols, columnMajor);
    }

    /**
     * Copies a row-major two-dimensional array; every row must have the same length.
     *
     * @param rowArrays the rows, all of one length
     * @return a new matrix
     */
    public static Matrix fromRows(double[][] rowArrays) {
        int r = rowArrays.length;
        int c = r == 0 ? 0 : rowArrays[0].length;
        Matrix m = new Matrix(r, c);
        for (int i = 0; i < r; i++) {
            if (rowArrays[i].length != c) {
                throw new IllegalArgumentException("row " + i + " has " + rowArrays[i].length
                        + " entries, expected " + c);
            }
            for (int j = 0; j < c; j++) {
                m.data[i + j * r] = rowArrays[i][j];
            }
        }
        return m;
    }

    /**
     * A matrix whose columns are copies of the given vectors (all of one length).
     *
     * @param columns the columns, all of one length
     * @return a new matrix
     */
    public static Matrix fromColumns(double[]... columns) {
        int c = columns.length;
        int r = c == 0 ? 0 : columns[0].length;
        Matrix m = new Matrix(r, c);
        for (int j = 0; j < c; j++) {
            if (columns[j].length != r) {
                throw new IllegalArgumentException("column " + j + " has " + columns[j].length
                        + " entries, expected " + r);
            }
            System.arraycopy(columns[j], 0, m.data, j * r, r);
        }
        return m;
    }

    /**
     * The n × n identity.
     *
     * @param n the dimension, ≥ 0
     * @return a new matrix
     */
    public static Matrix identity(int n) {
        Matrix m = new Matrix(n, n);
        for (int i = 0; i < n; i++) {
            m.data[i + i * n] = 1.0;
        }
        return m;
    }

    /**
     * The number of rows.
     *
     * @return the number of rows
     */
    public int rows() {
        return rows;
    }

    /**
     * The number of columns.
     *
     * @return the number of columns
     */
    public int cols() {
        return cols;
    }

    /**
     * Entry (i, j).
     *
     * @param i the row, 0-based
     * @param j the column, 0-based
     * @return the entry
     */
    public double get(int i, int j) {
        return data[i + j * rows];
    }

    /**
     * Sets entry (i, j). Modified: this.
     *
     * @param i the row, 0-based
     * @param j the column, 0-based
     * @param v the new value
     */
    public void set(int i, int j, double v) {
        data[i + j * rows] = v;
    }

    /**
     * Adds {@code v} to entry (i, j). Modified: this.
     *
     * @param i the row, 0-based
     * @param j the column, 0-based
     * @param v the value to add
     */
    public void add(int i, int j, double v) {
        data[i + j * rows] += v;
    }

    /**
     * The backing column-major array (shared, not copied): for kernels in this library.
     *
     * @return the array, column-major
     */
    public double[] data() {
        return data;
    }

    /**
     * A copy of column j.
     *
     * @param j the column, 0-based
     * @return a new array of length rows()
     */
    public double[] column(int j) {
        return Arrays.copyOfRange(data, j * rows, (j + 1) * rows);
    }

    /**
     * A copy of row i.
     *
     * @param i the row, 0-based
     * @return a new array of length cols()
     */
    public double[] row(int i) {
        double[] r = new double[cols];
        for (int j = 0; j < cols; j++) {
            r[j] = data[i + j * rows];
        }
        return r;
    }

    /**
     * Copies {@code v} into column j. Modified: this.
     *
     * @param j the column, 0-based
     * @param v rows() values
     */
    public void setColumn(int j, double[] v) {
        if (v.length != rows) {
            throw new IllegalArgumentException("column needs " + rows + " entries, got " + v.length);
        }
        System.arraycopy(v, 0, data, j * rows, rows);
    }

    /**
     * A deep copy.
     *
     * @return a new matrix with the same entries
     */
    public Matrix copy() {
        return new Matrix(rows, cols, data.clone());
    }

    /**
     * The first {@code k} columns, copied.
     *
     * @param k the number of columns, 0 ≤ k ≤ cols()
     * @return a new rows() × k matrix
     */
    public Matrix leadingColumns(int k) {
        if (k < 0 || k > cols) {
            throw new IllegalArgumentException("k must be in [0, " + cols + "], got " + k);
        }
        return new Matrix(rows, k, Arrays.copyOf(data, rows * k));
    }

    /**
     * The transpose, as a new matrix.
     *
     * @return a new cols() × rows() matrix
     */
    public Matrix transpose() {
        Matrix t = new Matrix(cols, rows);
        for (int j = 0; j < cols; j++) {
            for (int i = 0; i < rows; i++) {
                t.data[j + i * cols] = data[i + j * rows];
            }
        }
        return t;
    }

    /**
     * Row-major copy, one array per row.
     *
     * @return rows() new arrays of length cols()
     */
    public double[][] toRowArrays() {
        double[][] out = new double[rows][];
        for (int i = 0; i < rows; i++) {
            out[i] = row(i);
        }
        return out;
    }

    /**
     * Column-major copy, one array per column.
     *
     * @return cols() new arrays of length rows()
     */
    public double[][] toColumnArrays() {
        double[][] out = new double[cols][];
        for (int j = 0; j < cols; j++) {
            out[j] = column(j);
        }
        return out;
    }

    /**
     * this · other, through BLAS dgemm. Not modified: either operand.
     *
     * @param other a matrix with cols() rows
     * @return a new matrix
     */
    public Matrix times(Matrix other) {
        return Blas.multiply(this, false, other, false);
    }

    /**
     * thisᵀ · other, through BLAS dgemm.
     *
     * @param other a matrix with rows() rows
     * @return a new matrix
     */
    public Matrix transposeTimes(Matrix other) {
        return Blas.multiply(this, true, other, false);
    }

    /**
     * this · v.
     *
     * @param v a vector of length cols()
     * @return a new vector of length rows()
     */
    public double[] times(double[] v) {
        return Blas.multiply(this, false, v);
    }

    /**
     * thisᵀ · v.
     *
     * @param v a vector of length rows()
     * @return a new vector of length cols()
     */
    public double[] transposeTimes(double[] v) {
        return Blas.multiply(this, true, v);
    }

    /**
     * this + other, as a new matrix.
     *
     * @param other a matrix of the same shape
     * @return a new matrix
     */
    public Matrix plus(Matrix other) {
        requireSameShape(other);
        Matrix out = copy();
        for (int i = 0; i < data.length; i++) {
            out.data[i] += other.data[i];
        }
        return out;
    }

    /**
     * this − other, as a new matrix.
     *
     * @param other a matrix of the same shape
     * @return a new matrix
     */
    public Matrix minus(Matrix other) {
        requireSameShape(other);
        Matrix out = copy();
        for (int i = 0; i < data.length; i++) {
            out.data[i] -= other.data[i];
        }
        return out;
    }

    /**
     * a · this, as a new matrix.
     *
     * @param a the factor
     * @return a new matrix
     */
    public Matrix scaled(double a) {
        Matrix out = copy();
        for (int i = 0; i < data.length; i++) {
            out.data[i] *= a;
        }
        return out;
    }

    /**
     * The sum of the diagonal (square matrices only).
     *
     * @return tr(this)
     */
    public double trace() {
        requireSquare();
        double t = 0;
        for (int i = 0; i < rows; i++) {
            t += data[i + i * rows];
        }
        return t;
    }

    /**
     * ‖this‖_F, computed without overflow or underflow.
     *
     * @return the Frobenius norm
     */
    public double frobeniusNorm() {
        return Vectors.norm2(data);
    }

    /**
     * Largest |entry|.
     *
     * @return max |entry|, 0 for an empty matrix
     */
    public double maxAbs() {
        double m = 0;
        for (double v : data) {
            m = Math.max(m, Math.abs(v));
        }
        return m;
    }

    /**
     * ⟨this, other⟩ = tr(thisᵀ other).
     *
     * @param other a matrix of the same shape
     * @return Σ_ij this(i, j)·other(i, j)
     */
    public double frobeniusInner(Matrix other) {
        requireSameShape(other);
        return Vectors.dot(data, other.data);
    }

    /** Replaces this by (this + thisᵀ)/2. Modified: this. */
    public void symmetrizeInPlace() {
        requireSquare();
        for (int j = 0; j < cols; j++) {
            for (int i = j + 1; i < rows; i++) {
                double v = 0.5 * (data[i + j * rows] + data[j + i * rows]);
                data[i + j * rows] = v;
                data[j + i * rows] = v;
            }
        }
    }

    /** Copies the lower triangle onto the upper one (or upper onto lower). Modified: this. */
    public void mirrorLowerToUpper() {
        requireSquare();
        for (int j = 0; j < cols; j++) {
            for (int i = j + 1; i < rows; i++) {
                data[j + i * rows] = data[i + j * rows];
            }
        }
    }

    /** Copies the upper triangle onto the lower one. Modified: this (square only). */
    public void mirrorUpperToLower() {
        requireSquare();
        for (int j = 0; j < cols; j++) {
            for (int i = j + 1; i < rows; i++) {
                data[i + j * rows] = data[j + i * rows];
            }
        }
    }

    /**
     * Whether rows() equals cols().
     *
     * @return true for a square matrix
     */
    public boolean isSquare() {
        return rows == cols;
    }

    /**
     * True if every entry is finite.
     *
     * @return false when an entry is NaN or infinite
     */
    public boolean isFinite() {
        for (double v : data) {
            if (!Double.isFinite(v)) {
                return false;
            }
        }
        return true;
    }

    void requireSquare() {
        if (rows != cols) {
            throw new IllegalArgumentException("expected a square matrix, got " + rows + " x " + cols);
        }
    }

    private void requireSameShape(Matrix other) {
        if (rows != other.rows || cols != other.cols) {
            throw new IllegalArgumentException("shape mismatch: " + rows + " x " + cols + " vs "
                    + other.rows + " x " + other.cols);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Matrix m && m.rows == rows && m.cols == cols && Arrays.equals(m.data, data);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * rows + cols) + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append("Matrix ").append(rows).append(" x ").append(cols);
        if ((long) rows * cols <= 64) {
            for (int i = 0; i < rows; i++) {
                sb.append(i == 0 ? "\n[" : "\n ").append(Arrays.toString(row(i)));
            }
            sb.append(']');
        }
        return sb.toString();
    }
}
