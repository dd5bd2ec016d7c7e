package io.dpspectra.synthetic;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import java.util.Objects;

/**
 * Amin et al.'s synthetic data (Algorithm 3): points y = U·g with g ~ N(0, I_d) and a fixed mixing matrix
 * U with i.i.d. Unif(0, 1) entries, each feature then standardised to mean 0 and variance 1 over the
 * sample, and each point scaled to unit L2 norm. The all-positive U makes one direction dominant
 * (λ₁(XᵀX)/n ≈ 0.5).
 *
 * <p>One instance holds one U, so training and test sets can come from the same distribution (spec
 * A-C15). Normalisation follows spec A-C13: "every column has mean 0, variance 1 and norm 1" is
 * impossible for one vector, so features are standardised first and points normalised second.
 *
 * <p>Reference: papers/dp-covariance-estimation.txt Algorithm 3 (App. C.1); spec
 * robust-local-covariance.md §5.7, A-C13, A-C15.
 *
 * <p>Cost: O(nd²) per sample (U·g for every point); memory O(nd).
 */
public final class CorrelatedSphereData {
    private final Matrix mixing;

    private CorrelatedSphereData(Matrix mixing) {
        this.mixing = mixing;
    }

    /**
     * Draws the d × d mixing matrix U (entries Unif(0, 1)).
     *
     * @param d      the dimension, ≥ 1
     * @param random the randomness of U (seeded for a reproducible experiment)
     * @return a generator holding U
     */
    public static CorrelatedSphereData create(int d, RandomSource random) {
        LowRankPlusNoiseRows.checkDimension(d);
        Objects.requireNonNull(random, "random");
        Matrix u = new Matrix(d, d);
        for (int j = 0; j < d; j++) {
            for (int i = 0; i < d; i++) {
                u.set(i, j, random.nextDouble());
            }
        }
        return new CorrelatedSphereData(u);
    }

    /**
     * The dimension d of the generated points.
     *
     * @return d
     */
    public int dimension() {
        return mixing.rows();
    }

    /**
     * n × d rows (one point per row), every row of unit L2 norm (or zero).
     *
     * @param n      the number of points, ≥ 2 (features are standardised over the sample)
     * @param random the randomness of the Gaussian draws g
     * @return a new n × d matrix
     */
    public Matrix sample(int n, RandomSource random) {
        if (n < 2) {
            throw new IllegalArgumentException("n must be >= 2 to standardise features, got " + n);
        }
        int d = mixing.rows();
        Matrix g = new Matrix(d, n);
        double[] gd = g.data();
        for (int i = 0; i < gd.length; i++) {
            gd[i] = random.standardNormal();
        }
        Matrix y = mixing.times(g).transpose(); // n × d
        double[] yd = y.data();
        for (int j = 0; j < d; j++) {
            double mean = 0;
            for (int i = 0; i < n; i++) {
                mean += yd[i + j * n];
            }
            mean /= n;
            double var = 0;
            for (int i = 0; i < n; i++) {
                double c = yd[i + j * n] - mean;
                var += c * c;
            }
            double sd = Math.sqrt(var / n);
            for (int i = 0; i < n; i++) {
                yd[i + j * n] = sd > 0 ? (yd[i + j * n] - mean) / sd : 0;
            }
        }
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                s += yd[i + j * n] * yd[i + j * n];
            }
            double norm = Math.sqrt(s);
            if (norm > 0) {
                for (int j = 0; j < d; j++) {
                    yd[i + j * n] /= norm;
                }
            }
        }
        return y;
    }
}
