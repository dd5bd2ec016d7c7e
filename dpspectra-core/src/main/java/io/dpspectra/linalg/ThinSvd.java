package io.dpspectra.linalg;

import org.netlib.util.intW;

/**
 * Thin singular value decomposition A = U diag(s) Vᵀ through LAPACK dgesdd.
 *
 * @param u        m × r left singular vectors, r = min(m, n)
 * @param singular singular values, descending
 * @param v        n × r right singular vectors
 */
public record ThinSvd(Matrix u, double[] singular, Matrix v) {

    /**
     * The thin SVD A = U diag(σ) Vᵀ of an m × n matrix. Not modified: a.
     *
     * @param a the matrix
     * @return U (m × r), σ (r values, descending) and V (n × r), r = min(m, n)
     */
    public static ThinSvd of(Matrix a) {
        return of(a, Backend.DEFAULT);
    }

    /**
     * The thin SVD computed by the given backend. Not modified: a.
     *
     * @param a       the matrix
     * @param backend the LAPACK to use
     * @return U (m × r), σ (r values, descending) and V (n × r), r = min(m, n)
     */
    public static ThinSvd of(Matrix a, Backend backend) {
        int m = a.rows();
        int n = a.cols();
        int r = Math.min(m, n);
        if (r == 0) {
            return new ThinSvd(new Matrix(m, 0), new double[0], new Matrix(n, 0));
        }
        if (!a.isFinite()) {
            throw new IllegalArgumentException("matrix has a NaN or infinite entry; cannot compute its SVD");
        }
        double[] work = a.data().clone();
        double[] s = new double[r];
        double[] u = new double[MatrixTooLargeException.checkedLength("the left singular vectors", m, r)];
        double[] vt = new double[MatrixTooLargeException.checkedLength("the right singular vectors", r, n)];
        int[] iwork = new int[8 * r];
        intW info = new intW(0);
        double[] wq = new double[1];
        backend.lapack().dgesdd("S", m, n, work, m, s, u, m, vt, r, wq, -1, iwork, info);
        int lwork = Math.max(1, (int) wq[0]);
        backend.lapack().dgesdd("S", m, n, work, m, s, u, m, vt, r, new double[lwork], lwork, iwork, info);
        if (info.val != 0) {
            throw new ArithmeticException("LAPACK dgesdd failed with info = " + info.val);
        }
        Matrix vtM = Matrix.wrapColumnMajor(r, n, vt);
        return new ThinSvd(Matrix.wrapColumnMajor(m, r, u), s, vtM.transpose());
    }
}
