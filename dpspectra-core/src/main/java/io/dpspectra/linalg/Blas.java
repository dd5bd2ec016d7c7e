package io.dpspectra.linalg;

/** Package-private BLAS wrappers shared by {@link Matrix} and the kernels. */
final class Blas {
    private Blas() {
    }

    static Matrix multiply(Matrix a, boolean transA, Matrix b, boolean transB) {
        return multiply(Backend.DEFAULT, a, transA, b, transB);
    }

    static Matrix multiply(Backend be, Matrix a, boolean transA, Matrix b, boolean transB) {
        int m = transA ? a.cols() : a.rows();
        int k = transA ? a.rows() : a.cols();
        int kb = transB ? b.cols() : b.rows();
        int n = transB ? b.rows() : b.cols();
        if (k != kb) {
            throw new IllegalArgumentException("inner dimensions differ: " + k + " vs " + kb);
        }
        Matrix c = new Matrix(m, n);
        if (m == 0 || n == 0 || k == 0) {
            return c;
        }
        be.blas().dgemm(transA ? "T" : "N", transB ? "T" : "N", m, n, k, 1.0, a.data(), Math.max(1, a.rows()),
                b.data(), Math.max(1, b.rows()), 0.0, c.data(), Math.max(1, m));
        return c;
    }

    static double[] multiply(Matrix a, boolean transA, double[] x) {
        int m = transA ? a.cols() : a.rows();
        int n = transA ? a.rows() : a.cols();
        if (x.length != n) {
            throw new IllegalArgumentException("vector has length " + x.length + ", expected " + n);
        }
        double[] y = new double[m];
        if (m == 0 || n == 0) {
            return y;
        }
        Backend.DEFAULT.blas().dgemv(transA ? "T" : "N", a.rows(), a.cols(), 1.0, a.data(), Math.max(1, a.rows()),
                x, 1, 0.0, y, 1);
        return y;
    }
}
