package io.dpspectra.synthetic;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;

/**
 * The stylized POPRES data set of Maunu, Yu &amp; Lerman §5.2: the public 1387 × 20 matrix X of principal-
 * component scores released by Novembre et al. (2008) is lifted to D dimensions, X' = X·G_in with G_in 20 × D,
 * and 1000 outliers O = O₀·G_out with O₀ ~ Unif(−½, ½)^{1000×30} and G_out 30 × D are added; each matrix is
 * thresholded to {−1, 0, 1} ("alleles", then recoded 0, 1, 2) and the two are stacked into Y (2387 × D).
 *
 * <p>Choices where the paper is silent (its promised supplement details are missing): G_in and G_out have
 * iid N(0, 1) entries ("GOE" is defined only for square symmetric matrices); the threshold of each matrix
 * is t = 0.4307·s with s the matrix's own root-mean-square entry (the Gaussian tertile, so the three values are
 * about equally frequent). For fitting, the rows returned here are the recoded values minus the constant 1 of
 * the coding (a data-independent centring, so the {−1, 0, 1} values themselves); the methods then normalise
 * rows to the sphere. Ground truth: the inliers' reference coordinates are the first two columns of X.
 *
 * <p>Cost: O(N·D·30) time, O(N·D) memory (about 190 MB at D = 10,000).
 */
public final class StylizedPopres {
    /** The Gaussian tertile: P(|Z| &lt; 0.4307) = 1/3. */
    static final double TERTILE = 0.4307;
    /** The outlier count and latent dimension of the paper. */
    public static final int OUTLIERS = 1000;
    static final int OUTLIER_RANK = 30;

    /**
     * The generated set.
     *
     * @param rows   N × D values in {−1, 0, 1} (inliers first, then outliers)
     * @param inlier true for the rows that come from X
     * @param scores the 1387 × 2 reference coordinates (PC1, PC2 of Novembre et al.) of the inliers
     * @param liftedBasis an orthonormal D × 2 basis of the span of X's first two columns lifted by G_in
     *                    (the map before thresholding; a reference, not an exact truth after thresholding)
     */
    public record Sample(double[][] rows, boolean[] inlier, double[][] scores, Matrix liftedBasis) {
    }

    private StylizedPopres() {
    }

    /**
     * Generates the stylized POPRES rows from the public score matrix.
     *
     * @param pcs    the public n × 20 score matrix (rows: individuals); only its first two columns are also
     *               returned as reference scores
     * @param d      the lifted dimension D (the paper: 10,000)
     * @param outliers the number of outliers (the paper: 1000)
     * @param random the randomness of G_in, G_out and O₀
     * @return the stacked rows, the inlier mask, the reference scores and the lifted basis
     */
    public static Sample generate(double[][] pcs, int d, int outliers, RandomSource random) {
        int n = pcs.length;
        if (n == 0) {
            throw new IllegalArgumentException("the POPRES score matrix is empty");
        }
        int p = pcs[0].length;
        Matrix gIn = gaussian(p, d, random);
        Matrix x = Matrix.fromRows(pcs);
        Matrix lifted = x.times(gIn); // n × D
        Matrix o0 = new Matrix(outliers, OUTLIER_RANK);
        for (int i = 0; i < o0.data().length; i++) {
            o0.data()[i] = random.nextDouble() - 0.5;
        }
        Matrix out = o0.times(gaussian(OUTLIER_RANK, d, random));
        double[][] rows = new double[n + outliers][];
        boolean[] inlier = new boolean[n + outliers];
        double[][] thrIn = threshold(lifted);
        double[][] thrOut = threshold(out);
        for (int i = 0; i < n; i++) {
            rows[i] = thrIn[i];
            inlier[i] = true;
        }
        for (int i = 0; i < outliers; i++) {
            rows[n + i] = thrOut[i];
        }
        double[][] scores = new double[n][2];
        for (int i = 0; i < n; i++) {
            scores[i][0] = pcs[i][0];
            scores[i][1] = pcs[i][1];
        }
        // span of X's first two columns lifted: G_inᵀ restricted to the first two score directions
        Matrix two = new Matrix(d, 2);
        for (int j = 0; j < d; j++) {
            two.set(j, 0, gIn.get(0, j));
            two.set(j, 1, gIn.get(1, j));
        }
        return new Sample(rows, inlier, scores, io.dpspectra.linalg.Orthonormal.qr(two));
    }

    private static Matrix gaussian(int rows, int cols, RandomSource random) {
        Matrix g = new Matrix(rows, cols);
        for (int i = 0; i < g.data().length; i++) {
            g.data()[i] = random.standardNormal();
        }
        return g;
    }

    /** Entries below −t to −1, above t to +1, else 0, with t = 0.4307 × the matrix's RMS entry. */
    static double[][] threshold(Matrix m) {
        double s = m.frobeniusNorm() / Math.sqrt((double) m.rows() * m.cols());
        double t = TERTILE * s;
        double[][] out = new double[m.rows()][m.cols()];
        double[] a = m.data();
        int rows = m.rows();
        for (int j = 0; j < m.cols(); j++) {
            for (int i = 0; i < rows; i++) {
                double v = a[i + j * rows];
                out[i][j] = v < -t ? -1 : v > t ? 1 : 0;
            }
        }
        return out;
    }
}
