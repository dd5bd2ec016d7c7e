package io.dpspectra.linalg;

import org.netlib.util.intW;

/**
 * Thin QR factorisation: an orthonormal basis of the column space of a tall matrix.
 *
 * <p>Signs are fixed so that diag(R) ≥ 0, which makes Q unique for full-rank input.
 */
public final class Orthonormal {
    private Orthonormal() {
    }

    /**
     * The thin Q (d × p, orthonormal columns) of {@code y} (d × p, d ≥ p). Not modified: y.
     *
     * @param y d × p, d ≥ p
     * @return a new d × p matrix with orthonormal columns
     */
    public static Matrix qr(Matrix y) {
        return qr(y, Backend.DEFAULT);
    }

    /**
     * The thin Q of {@code y}, computed by the given backend. Not modified: y.
     *
     * @param y       d × p, d ≥ p
     * @param backend the LAPACK to use
     * @return a new d × p matrix with orthonormal columns
     */
    public static Matrix qr(Matrix y, Backend backend) {
        int d = y.rows();
        int p = y.cols();
        if (p > d) {
            throw new IllegalArgumentException("thin QR needs rows >= cols, got " + d + " x " + p);
        }
        if (p == 0) {
            return new Matrix(d, 0);
        }
        double[] a = y.data().clone();
        double[] tau = new double[p];
        intW info = new intW(0);
        double[] wq = new double[1];
        backend.lapack().dgeqrf(d, p, a, d, tau, wq, -1, info);
        int lwork = Math.max(p, (int) wq[0]);
        backend.lapack().dgeqrf(d, p, a, d, tau, new double[lwork], lwork, info);
        if (info.val != 0) {
            throw new ArithmeticException("LAPACK dgeqrf failed with info = " + info.val);
        }
        double[] rDiag = new double[p];
        for (int j = 0; j < p; j++) {
            rDiag[j] = a[j + j * d];
        }
        backend.lapack().dorgqr(d, p, p, a, d, tau, wq, -1, info);
        lwork = Math.max(p, (int) wq[0]);
        backend.lapack().dorgqr(d, p, p, a, d, tau, new double[lwork], lwork, info);
        if (info.val != 0) {
            throw new ArithmeticException("LAPACK dorgqr failed with info = " + info.val);
        }
        for (int j = 0; j < p; j++) {
            if (rDiag[j] < 0) {
                for (int i = 0; i < d; i++) {
                    a[i + j * d] = -a[i + j * d];
                }
            }
        }
        return Matrix.wrapColumnMajor(d, p, a);
    }
}
