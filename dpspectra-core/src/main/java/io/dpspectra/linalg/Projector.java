package io.dpspectra.linalg;

/**
 * The orthogonal projector P = I − UUᵀ onto the complement of span(U), applied implicitly: it stores
 * the d × i basis U (orthonormal columns) and never forms a d × d matrix. Applying it costs O(d·i).
 */
public final class Projector {
    private final Matrix basis;

    private Projector(Matrix basis) {
        this.basis = basis;
    }

    /**
     * P = I − UUᵀ for a U with orthonormal columns (copied).
     *
     * @param orthonormalColumns U, d × k
     * @return the projector
     */
    public static Projector complementOf(Matrix orthonormalColumns) {
        return new Projector(orthonormalColumns.copy());
    }

    /**
     * The identity on R^d (U has no columns).
     *
     * @param d the dimension
     * @return the projector
     */
    public static Projector identity(int d) {
        return new Projector(new Matrix(d, 0));
    }

    /**
     * The dimension d.
     *
     * @return d
     */
    public int dimension() {
        return basis.rows();
    }

    /**
     * Number of directions removed.
     *
     * @return k, the columns of U
     */
    public int rank() {
        return basis.cols();
    }

    /**
     * A copy of U.
     *
     * @return a new d × k matrix
     */
    public Matrix basis() {
        return basis.copy();
    }

    /**
     * P w as a new vector. Not modified: w.
     *
     * @param w a vector of length d
     * @return a new vector of length d
     */
    public double[] apply(double[] w) {
        double[] out = w.clone();
        applyInPlace(out);
        return out;
    }

    /**
     * w ← P w. Modified: w.
     *
     * @param w a vector of length d
     */
    public void applyInPlace(double[] w) {
        int d = basis.rows();
        if (w.length != d) {
            throw new IllegalArgumentException("vector has length " + w.length + ", projector acts on R^" + d);
        }
        double[] u = basis.data();
        for (int j = 0; j < basis.cols(); j++) {
            int off = j * d;
            double c = 0;
            for (int i = 0; i < d; i++) {
                c += u[off + i] * w[i];
            }
            for (int i = 0; i < d; i++) {
                w[i] -= c * u[off + i];
            }
        }
    }

    /**
     * P M, column by column, as a new matrix. Not modified: m.
     *
     * @param m a d × p matrix
     * @return a new d × p matrix
     */
    public Matrix apply(Matrix m) {
        Matrix out = m.copy();
        double[] col = new double[m.rows()];
        for (int j = 0; j < m.cols(); j++) {
            System.arraycopy(out.data(), j * m.rows(), col, 0, m.rows());
            applyInPlace(col);
            out.setColumn(j, col);
        }
        return out;
    }

    /**
     * A projector that also removes the unit vector {@code v} (assumed orthogonal to U).
     *
     * @param v a unit vector of length d
     * @return a new projector of rank k + 1
     */
    public Projector extendedBy(double[] v) {
        int d = basis.rows();
        int i = basis.cols();
        Matrix u = new Matrix(d, i + 1);
        System.arraycopy(basis.data(), 0, u.data(), 0, d * i);
        u.setColumn(i, v);
        return new Projector(u);
    }
}
