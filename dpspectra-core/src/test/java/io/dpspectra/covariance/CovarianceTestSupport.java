package io.dpspectra.covariance;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;

/** Rows and exact Gram matrices for the covariance tests. */
final class CovarianceTestSupport {
    private CovarianceTestSupport() {
    }

    /** n rows of dimension d, each scaled to L2 norm ≤ bound (uniform radius fraction). */
    static double[][] rowsInBall(int n, int d, double bound, long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        double[][] rows = new double[n][d];
        for (double[] x : rows) {
            double s = 0;
            for (int i = 0; i < d; i++) {
                x[i] = r.standardNormal();
                s += x[i] * x[i];
            }
            double scale = bound * r.nextDouble() / Math.sqrt(s);
            for (int i = 0; i < d; i++) {
                x[i] *= scale;
            }
        }
        return rows;
    }

    static Matrix gram(double[][] rows) {
        int d = rows[0].length;
        Matrix g = new Matrix(d, d);
        for (double[] x : rows) {
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    g.add(i, j, x[i] * x[j]);
                }
            }
        }
        return g;
    }

    static boolean isSymmetric(Matrix m) {
        for (int i = 0; i < m.rows(); i++) {
            for (int j = 0; j < i; j++) {
                if (m.get(i, j) != m.get(j, i)) {
                    return false;
                }
            }
        }
        return true;
    }
}
