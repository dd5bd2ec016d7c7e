package io.dpspectra.linalg;

import org.netlib.util.intW;

/**
 * Eigen-decomposition of a real symmetric matrix through LAPACK dsyevr: all pairs, or only the top k.
 *
 * @param values  eigenvalues in descending order
 * @param vectors d × m matrix whose column j is the unit eigenvector of {@code values[j]}
 */
public record SymmetricEigen(double[] values, Matrix vectors) {

    /**
     * All eigenpairs of the symmetric matrix {@code a} (only its lower triangle is read). Not modified: a.
     *
     * @param a a d × d symmetric matrix
     * @return the d eigenvalues, descending, and their eigenvectors
     */
    public static SymmetricEigen of(Matrix a) {
        return top(a, a.rows());
    }

    /**
     * All eigenpairs, computed by the given backend.
     *
     * @param a       a d × d symmetric matrix. Not modified.
     * @param backend the LAPACK to use
     * @return the d eigenvalues, descending, and their eigenvectors
     */
    public static SymmetricEigen of(Matrix a, Backend backend) {
        return top(a, a.rows(), backend);
    }

    /**
     * The k largest eigenpairs, 1 ≤ k ≤ d. Not modified: a.
     *
     * @param a a d × d symmetric matrix (lower triangle read)
     * @param k the number of eigenpairs
     * @return the k largest eigenvalues, descending, and their d × k eigenvectors
     */
    public static SymmetricEigen top(Matrix a, int k) {
        return top(a, k, Backend.DEFAULT);
    }

    /**
     * The k largest eigenpairs, 1 ≤ k ≤ d, computed by the given backend. Not modified: a.
     *
     * @param a       a d × d symmetric matrix (lower triangle read)
     * @param k       the number of eigenpairs
     * @param backend the LAPACK to use
     * @return the k largest eigenvalues, descending, and their d × k eigenvectors
     */
    public static SymmetricEigen top(Matrix a, int k, Backend backend) {
        a.requireSquare();
        int n = a.rows();
        if (n == 0) {
            return new SymmetricEigen(new double[0], new Matrix(0, 0));
        }
        if (k < 1 || k > n) {
            throw new IllegalArgumentException("k must be in [1, " + n + "], got " + k);
        }
        if (!a.isFinite()) {
            throw new IllegalArgumentException("matrix has a NaN or infinite entry; cannot eigendecompose");
        }
        double[] work = a.data().clone();
        boolean all = k == n;
        double[] w = new double[n];
        double[] z = new double[MatrixTooLargeException.checkedLength("the eigenvector block", n, k)];
        int[] isuppz = new int[2 * n];
        intW m = new intW(0);
        intW info = new intW(0);
        // workspace query
        double[] wq = new double[1];
        int[] iq = new int[1];
        backend.lapack().dsyevr("V", all ? "A" : "I", "L", n, work, n, 0.0, 0.0, n - k + 1, n, 0.0, m, w, z, n,
                isuppz, wq, -1, iq, -1, info);
        int lwork = Math.max(1, (int) wq[0]);
        int liwork = Math.max(1, iq[0]);
        backend.lapack().dsyevr("V", all ? "A" : "I", "L", n, work, n, 0.0, 0.0, n - k + 1, n, 0.0, m, w, z, n,
                isuppz, new double[lwork], lwork, new int[liwork], liwork, info);
        if (info.val != 0) {
            throw new ArithmeticException("LAPACK dsyevr failed with info = " + info.val);
        }
        int found = m.val;
        // LAPACK returns ascending order: reverse to descending.
        double[] values = new double[found];
        Matrix vectors = new Matrix(n, found);
        double[] vd = vectors.data();
        for (int j = 0; j < found; j++) {
            int src = found - 1 - j;
            values[j] = w[src];
            System.arraycopy(z, src * n, vd, j * n, n);
        }
        return new SymmetricEigen(values, vectors);
    }
}
