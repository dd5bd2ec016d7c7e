package io.dpspectra.robust;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.noise.RandomSource;

/**
 * Non-private PCA start for the Grassmannian descents: the top-r eigenvectors of XᵀX, exactly (through
 * the D × D matrix) when D ≤ {@value GrassmannDescent#DENSE_INIT_MAX_DIMENSION}, otherwise by block subspace
 * iteration Y ← Xᵀ(XV) that never forms D × D.
 *
 * <p>Reference: papers/private-robust-pca-grassmannian.txt §3.1 (Theorem 1, PCA initialisation).
 *
 * <p>Cost: O(N D² + D³) exact; O(I·N·D·r) for I = {@value #SUBSPACE_ITERATIONS} block iterations.
 */
public final class Pca {
    static final int SUBSPACE_ITERATIONS = 200;

    private Pca() {
    }

    /**
     * The top-r eigenvectors of XᵀX of the rows (not private).
     *
     * @param x the rows (N × D). Not modified.
     * @param r the number of eigenvectors, 1 ≤ r ≤ D
     * @return a new D × r matrix with orthonormal columns
     */
    public static Matrix top(double[][] x, int r) {
        int d = x[0].length;
        if (d <= GrassmannDescent.DENSE_INIT_MAX_DIMENSION) {
            Matrix g = new Matrix(d, d);
            double[] gd = g.data();
            for (double[] row : x) {
                for (int j = 0; j < d; j++) {
                    double a = row[j];
                    if (a != 0) {
                        for (int i = j; i < d; i++) {
                            gd[i + j * d] += a * row[i];
                        }
                    }
                }
            }
            return SymmetricEigen.top(g, r).vectors();
        }
        // a fixed public start: the result depends on the data only
        RandomSource start = RandomSource.seededForReproducibility(0x5EEDL);
        Matrix v = new Matrix(d, r);
        for (int i = 0; i < d * r; i++) {
            v.data()[i] = start.standardNormal();
        }
        v = Orthonormal.qr(v);
        for (int it = 0; it < SUBSPACE_ITERATIONS; it++) {
            v = Orthonormal.qr(gramTimes(x, v));
        }
        return v;
    }

    /** XᵀX V, one pass over the rows. */
    static Matrix gramTimes(double[][] x, Matrix v) {
        int d = v.rows();
        int r = v.cols();
        double[] vd = v.data();
        double[] out = new double[d * r];
        double[] y = new double[r];
        for (double[] row : x) {
            for (int c = 0; c < r; c++) {
                double s = 0;
                for (int j = 0; j < d; j++) {
                    s += row[j] * vd[c * d + j];
                }
                y[c] = s;
            }
            for (int c = 0; c < r; c++) {
                double w = y[c];
                for (int j = 0; j < d; j++) {
                    out[c * d + j] += row[j] * w;
                }
            }
        }
        return Matrix.wrapColumnMajor(d, r, out);
    }
}
