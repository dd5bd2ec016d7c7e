package io.dpspectra.linalg;

import java.util.Arrays;

/**
 * A sparse symmetric d × d matrix in compressed sparse row (CSR) form, as a {@link SymmetricOperator}
 * whose product A·X costs O(nnz·p) — the input sparsity the private power method of
 * papers/noisy-power-method.txt (§1.2, "nearly linear in the number of nonzero entries") relies on.
 *
 * <p>Both triangles are stored (a symmetric pair (i, j), (j, i) is two non-zeros), columns are sorted
 * within each row and duplicates are summed. {@link Builder#build()} rejects a matrix that is not
 * symmetric. Readers: {@code io.dpspectra.data.MatrixMarketReader} and
 * {@code io.dpspectra.data.EdgeListReader}.
 *
 * <p>Cost: {@link #times} does 2·nnz·p flops plus two d × p transposes (the block is gathered
 * row-major so that the inner loop over the p columns is contiguous); memory 12·nnz + 4·d bytes.
 */
public final class CsrMatrix implements SymmetricOperator {
    private final int d;
    private final int[] rowStart;   // length d + 1
    private final int[] columns;    // length nnz, sorted within a row
    private final double[] values;  // length nnz

    private CsrMatrix(int d, int[] rowStart, int[] columns, double[] values) {
        this.d = d;
        this.rowStart = rowStart;
        this.columns = columns;
        this.values = values;
    }

    /**
     * A builder for a d × d matrix.
     *
     * @param d the dimension, ≥ 1
     * @return a new builder with no entries
     */
    public static Builder builder(int d) {
        return new Builder(d);
    }

    /**
     * The sparse form of a dense symmetric matrix (exact zeros are dropped). Not modified: a.
     *
     * @param a a d × d symmetric matrix
     * @return the sparse matrix
     */
    public static CsrMatrix fromDense(Matrix a) {
        if (!a.isSquare()) {
            throw new IllegalArgumentException("expected a square matrix, got " + a.rows() + " x " + a.cols());
        }
        Builder b = builder(a.rows());
        for (int j = 0; j < a.cols(); j++) {
            for (int i = 0; i < a.rows(); i++) {
                double v = a.get(i, j);
                if (v != 0) {
                    b.add(i, j, v);
                }
            }
        }
        return b.build();
    }

    @Override
    public int dimension() {
        return d;
    }

    @Override
    public long nonZeros() {
        return values.length;
    }

    @Override
    public String describe() {
        return "sparse symmetric matrix (d = " + d + ", nnz = " + values.length + ")";
    }

    /**
     * A(i, j) (binary search in row i).
     *
     * @param i the row
     * @param j the column
     * @return the entry, 0 when it is not stored
     */
    public double get(int i, int j) {
        checkIndex(i, j);
        int pos = Arrays.binarySearch(columns, rowStart[i], rowStart[i + 1], j);
        return pos >= 0 ? values[pos] : 0.0;
    }

    /**
     * The largest |entry|.
     *
     * @return max |A(i, j)|, 0 for an empty matrix
     */
    public double maxAbs() {
        double m = 0;
        for (double v : values) {
            m = Math.max(m, Math.abs(v));
        }
        return m;
    }

    /**
     * The dense d × d copy (for small matrices: tests, coherence).
     *
     * @return a new d × d matrix
     */
    public Matrix toDense() {
        Matrix m = new Matrix(d, d);
        for (int i = 0; i < d; i++) {
            for (int q = rowStart[i]; q < rowStart[i + 1]; q++) {
                m.set(i, columns[q], values[q]);
            }
        }
        return m;
    }

    @Override
    public Matrix times(Matrix x) {
        if (x.rows() != d) {
            throw new IllegalArgumentException("operand has " + x.rows() + " rows, expected d = " + d);
        }
        int p = x.cols();
        double[] xc = x.data();
        double[] y = new double[MatrixTooLargeException.checkedLength("the product block", d, p)];
        if (p == 1) {
            for (int i = 0; i < d; i++) {
                double s = 0;
                for (int q = rowStart[i]; q < rowStart[i + 1]; q++) {
                    s += values[q] * xc[columns[q]];
                }
                y[i] = s;
            }
            return Matrix.wrapColumnMajor(d, 1, y);
        }
        double[] xr = new double[d * p];                   // X row-major
        for (int c = 0; c < p; c++) {
            int off = c * d;
            for (int i = 0; i < d; i++) {
                xr[i * p + c] = xc[off + i];
            }
        }
        double[] acc = new double[p];
        for (int i = 0; i < d; i++) {
            Arrays.fill(acc, 0.0);
            for (int q = rowStart[i]; q < rowStart[i + 1]; q++) {
                double v = values[q];
                int base = columns[q] * p;
                for (int c = 0; c < p; c++) {
                    acc[c] += v * xr[base + c];
                }
            }
            for (int c = 0; c < p; c++) {
                y[i + c * d] = acc[c];
            }
        }
        return Matrix.wrapColumnMajor(d, p, y);
    }

    private void checkIndex(int i, int j) {
        if (i < 0 || i >= d || j < 0 || j >= d) {
            throw new IndexOutOfBoundsException("index (" + i + ", " + j + ") outside a " + d + " x " + d
                    + " matrix");
        }
    }

    /**
     * Collects coordinate entries (i, j, v), 0-based, in any order; duplicates are summed. Entries given
     * once for a symmetric pair must be mirrored by the caller ({@link #addSymmetric}).
     */
    public static final class Builder {
        private final int d;
        private int[] rows = new int[16];
        private int[] cols = new int[16];
        private double[] vals = new double[16];
        private int size;

        private Builder(int d) {
            if (d < 1) {
                throw new IllegalArgumentException("dimension d must be >= 1, got " + d);
            }
            this.d = d;
        }

        /**
         * The dimension d of the matrix being built.
         *
         * @return d
         */
        public int dimension() {
            return d;
        }

        /**
         * Number of entries added so far (before duplicates are summed).
         *
         * @return the number of entries stored so far
         */
        public int size() {
            return size;
        }

        /**
         * Adds v at (i, j).
         *
         * @param i the row, 0 ≤ i &lt; d
         * @param j the column, 0 ≤ j &lt; d
         * @param v the value, finite (added to any earlier value at (i, j))
         * @return this builder
         */
        public Builder add(int i, int j, double v) {
            if (i < 0 || i >= d || j < 0 || j >= d) {
                throw new IndexOutOfBoundsException("entry (" + i + ", " + j + ") outside a " + d + " x " + d
                        + " matrix (indices are 0-based here)");
            }
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("entry (" + i + ", " + j + ") is " + v + "; values must be finite");
            }
            if (size == rows.length) {
                int cap = Math.max(16, (int) Math.min(Integer.MAX_VALUE - 8, 2L * size));
                if (cap <= size) {
                    throw new IllegalStateException("too many entries for one CSR matrix (" + size + ")");
                }
                rows = Arrays.copyOf(rows, cap);
                cols = Arrays.copyOf(cols, cap);
                vals = Arrays.copyOf(vals, cap);
            }
            rows[size] = i;
            cols[size] = j;
            vals[size] = v;
            size++;
            return this;
        }

        /**
         * Adds v at (i, j) and, if i ≠ j, at (j, i).
         *
         * @param i the row, 0 ≤ i &lt; d
         * @param j the column, 0 ≤ j &lt; d
         * @param v the value, finite
         * @return this builder
         */
        public Builder addSymmetric(int i, int j, double v) {
            add(i, j, v);
            if (i != j) {
                add(j, i, v);
            }
            return this;
        }

        /**
         * The CSR matrix. Throws {@link IllegalArgumentException} naming the first asymmetric pair if
         * A(i, j) ≠ A(j, i) beyond 1e-12 relative to the largest entry.
         *
         * @return the symmetric sparse matrix, duplicates summed
         */
        public CsrMatrix build() {
            int[] start = new int[d + 1];
            for (int t = 0; t < size; t++) {
                start[rows[t] + 1]++;
            }
            for (int i = 0; i < d; i++) {
                start[i + 1] += start[i];
            }
            int[] fill = Arrays.copyOf(start, d);
            int[] c = new int[size];
            double[] v = new double[size];
            for (int t = 0; t < size; t++) {
                int pos = fill[rows[t]]++;
                c[pos] = cols[t];
                v[pos] = vals[t];
            }
            // sort each row by column, sum duplicates, compact
            int[] outStart = new int[d + 1];
            int w = 0;
            for (int i = 0; i < d; i++) {
                int lo = start[i];
                int hi = start[i + 1];
                sortSegment(c, v, lo, hi);
                outStart[i] = w;
                for (int q = lo; q < hi; q++) {
                    if (w > outStart[i] && c[w - 1] == c[q]) {
                        v[w - 1] += v[q];
                    } else {
                        c[w] = c[q];
                        v[w] = v[q];
                        w++;
                    }
                }
            }
            outStart[d] = w;
            CsrMatrix m = new CsrMatrix(d, outStart, Arrays.copyOf(c, w), Arrays.copyOf(v, w));
            m.requireSymmetric();
            return m;
        }

        /** Shell sort of (c, v) on c over [lo, hi). */
        private static void sortSegment(int[] c, double[] v, int lo, int hi) {
            int n = hi - lo;
            int gap = 1;
            while (gap < n / 3) {
                gap = 3 * gap + 1;
            }
            for (; gap >= 1; gap /= 3) {
                for (int a = lo + gap; a < hi; a++) {
                    int ck = c[a];
                    double vk = v[a];
                    int b = a;
                    while (b - gap >= lo && c[b - gap] > ck) {
                        c[b] = c[b - gap];
                        v[b] = v[b - gap];
                        b -= gap;
                    }
                    c[b] = ck;
                    v[b] = vk;
                }
            }
        }
    }

    private void requireSymmetric() {
        double tol = 1e-12 * maxAbs();
        for (int i = 0; i < d; i++) {
            for (int q = rowStart[i]; q < rowStart[i + 1]; q++) {
                int j = columns[q];
                if (j == i) {
                    continue;
                }
                double mirror = get(j, i);
                if (Math.abs(mirror - values[q]) > tol) {
                    throw new IllegalArgumentException("matrix is not symmetric: entry (" + (i + 1) + ", " + (j + 1)
                            + ") = " + values[q] + " but (" + (j + 1) + ", " + (i + 1) + ") = " + mirror
                            + " (1-based); the power methods need a symmetric matrix — give both entries, or "
                            + "store one triangle as a MatrixMarket 'symmetric' file");
                }
            }
        }
    }
}
