package io.dpspectra.synthetic;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.noise.RandomSource;

/**
 * The haystack model of Lerman, McCoy, Tropp &amp; Zhang (2015) as Maunu, Yu &amp; Lerman use it: round(αN)
 * inliers x = V*z with z ~ N(0, I_r/r) on a Haar-random r-dimensional subspace span(V*), and N − round(αN)
 * outliers x ~ N(0, I_D/D) in the ambient space, with no additive inlier noise; every point is normalised
 * to the unit sphere and the rows are shuffled.
 *
 * <p>Reference: papers/private-robust-pca-grassmannian.txt §5.1 ("haystack model, with Gaussian inliers and
 * outliers ... scaled to the sphere"); Lerman et al. 2015, §1.1.
 *
 * <p>Cost: O(N·D·r) time and O(N·D) memory (the rows are kept: the descents need random access).
 */
public final class Haystack {
    /** A generated set: unit rows, the true D × r basis and which rows are inliers. */
    public record Sample(double[][] rows, Matrix truth, boolean[] inlier) {
        /**
         * The number of inliers.
         *
         * @return the number of rows marked inlier
         */
        public int inliers() {
            int c = 0;
            for (boolean b : inlier) {
                c += b ? 1 : 0;
            }
            return c;
        }
    }

    private Haystack() {
    }

    /**
     * N rows in R^D, subspace dimension r (1 ≤ r &lt; D), inlier ratio α ∈ (0, 1].
     *
     * @param n           the number of rows N, ≥ 1
     * @param d           the ambient dimension D
     * @param r           the subspace dimension
     * @param inlierRatio α, the fraction of inliers (round(αN) rows)
     * @param random      the randomness of the subspace, the points and the shuffle
     * @return the shuffled unit rows, the true D × r basis and the inlier mask
     */
    public static Sample generate(int n, int d, int r, double inlierRatio, RandomSource random) {
        if (n < 1 || d < 2 || r < 1 || r >= d) {
            throw new IllegalArgumentException("the haystack model needs N >= 1, D >= 2 and 1 <= r < D, got N = " + n
                    + ", D = " + d + ", r = " + r);
        }
        if (!(inlierRatio > 0 && inlierRatio <= 1)) {
            throw new IllegalArgumentException("inlier ratio must be in (0, 1], got " + inlierRatio);
        }
        Matrix g = new Matrix(d, r);
        for (int i = 0; i < d * r; i++) {
            g.data()[i] = random.standardNormal();
        }
        Matrix truth = Orthonormal.qr(g);
        int nIn = (int) Math.round(inlierRatio * n);
        double[][] rows = new double[n][];
        boolean[] inlier = new boolean[n];
        for (int i = 0; i < n; i++) {
            double[] x = new double[d];
            if (i < nIn) {
                for (int c = 0; c < r; c++) {
                    double z = random.standardNormal();
                    for (int j = 0; j < d; j++) {
                        x[j] += truth.get(j, c) * z;
                    }
                }
            } else {
                for (int j = 0; j < d; j++) {
                    x[j] = random.standardNormal();
                }
            }
            normalise(x);
            rows[i] = x;
            inlier[i] = i < nIn;
        }
        // Fisher–Yates shuffle of rows and labels together
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            double[] t = rows[i];
            rows[i] = rows[j];
            rows[j] = t;
            boolean b = inlier[i];
            inlier[i] = inlier[j];
            inlier[j] = b;
        }
        return new Sample(rows, truth, inlier);
    }

    static void normalise(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v * v;
        }
        double norm = Math.sqrt(s);
        if (norm > 0) {
            for (int j = 0; j < x.length; j++) {
                x[j] /= norm;
            }
        }
    }
}
