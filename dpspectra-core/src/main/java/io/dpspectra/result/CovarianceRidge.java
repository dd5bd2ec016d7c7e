package io.dpspectra.result;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import java.util.Objects;

/**
 * A ridge-regression model of one feature (the target column t) on the others, fitted from a
 * second-moment matrix C = XᵀX alone: ŵ = (Â + sI)⁻¹b̂, Â = C without row and column t, b̂ = column t of
 * C without entry t, and s = α (App. C.2 scaling, objective ‖X′w − y‖² + α‖w‖²) or s = 2αn (Section 1.1,
 * objective (1/n)Σ½(wᵀx(−t) − x(t))² + α‖w‖²).
 *
 * <p>Privacy: post-processing of the matrix it is fitted from; fitting from a
 * {@link PrivateCovariance} costs no further budget, for any number of targets and α.
 *
 * <p>Reference: papers/dp-covariance-estimation.txt Section 1.1 and Appendix C.2; spec
 * robust-local-covariance.md §5.8, A-C15.
 *
 * <p>Cost: one (d−1) × (d−1) symmetric eigendecomposition, O(d³). The solve goes through the
 * eigendecomposition of Â, so it also works when α = 0 or the released Â is indefinite: eigenvalues of
 * Â + sI with |γ| ≤ 1e-12·max|γ| are dropped (pseudo-inverse) and counted in {@link #droppedDirections()}.
 *
 * @param target            the predicted column t
 * @param alpha             the regularisation α
 * @param scaling           which objective α belongs to
 * @param weights           ŵ ∈ R^{d−1}, for the columns {@link #features()} in order
 * @param features          the column indices of the predictors (all but t, ascending)
 * @param droppedDirections directions dropped by the pseudo-inverse (0 unless Â + sI is singular)
 */
public record CovarianceRidge(int target, double alpha, Scaling scaling, double[] weights, int[] features,
                              int droppedDirections) {

    /** Which objective α refers to. */
    public enum Scaling {
        /** ‖X′w − y‖² + α‖w‖² (Amin et al. App. C.2; needs no n). */
        APPENDIX_C2,
        /** (1/n)Σ½(wᵀx(−t) − x(t))² + α‖w‖² (Amin et al. Section 1.1). */
        SECTION_1_1
    }

    /**
     * Copies the arrays, so that the record is immutable.
     *
     * @param target            the predicted column t
     * @param alpha             the regularisation α
     * @param scaling           which objective α belongs to
     * @param weights           ŵ (copied)
     * @param features          the predictors' column indices (copied)
     * @param droppedDirections directions dropped by the pseudo-inverse
     */
    public CovarianceRidge {
        Objects.requireNonNull(scaling, "scaling");
        weights = weights.clone();
        features = features.clone();
    }

    /**
     * ŵ ∈ R^{d−1}, for the columns {@link #features()} in order.
     *
     * @return a copy of the weights
     */
    @Override
    public double[] weights() {
        return weights.clone();
    }

    /**
     * The column indices of the predictors: all but t, ascending.
     *
     * @return a copy of the indices
     */
    @Override
    public int[] features() {
        return features.clone();
    }

    /**
     * ŵᵀx(−t) for a full row x (length d; entry t is ignored).
     *
     * @param row a full row, length d
     * @return the prediction of entry t
     */
    public double predict(double[] row) {
        if (row.length != features.length + 1) {
            throw new IllegalArgumentException("row has " + row.length + " entries, the model needs "
                    + (features.length + 1));
        }
        double s = 0;
        for (int j = 0; j < features.length; j++) {
            s += weights[j] * row[features[j]];
        }
        return s;
    }

    /**
     * Fits the model from {@code c} (d × d symmetric; not modified). {@code n} is used by SECTION_1_1 only.
     *
     * @param c       the second-moment matrix C = XᵀX (or its private release), d × d, d ≥ 2
     * @param target  the predicted column t, 0 ≤ t &lt; d
     * @param alpha   α, ≥ 0
     * @param scaling which objective α belongs to
     * @param n       the public number of rows (SECTION_1_1 only)
     * @return the fitted model
     */
    public static CovarianceRidge fit(Matrix c, int target, double alpha, Scaling scaling, long n) {
        Objects.requireNonNull(c, "c");
        Objects.requireNonNull(scaling, "scaling");
        int d = c.rows();
        if (!c.isSquare() || d < 2) {
            throw new IllegalArgumentException("ridge needs a square matrix with at least 2 columns, got "
                    + c.rows() + " x " + c.cols());
        }
        if (target < 0 || target >= d) {
            throw new IllegalArgumentException("target must be a column index in [0, " + (d - 1) + "], got " + target);
        }
        if (!(alpha >= 0) || !Double.isFinite(alpha)) {
            throw new IllegalArgumentException("alpha must be >= 0 and finite, got " + alpha);
        }
        if (scaling == Scaling.SECTION_1_1 && n < 1) {
            throw new IllegalArgumentException("Section 1.1 scaling needs the public number of rows n >= 1, got " + n);
        }
        double shift = scaling == Scaling.APPENDIX_C2 ? alpha : 2 * alpha * n;
        int m = d - 1;
        int[] features = new int[m];
        for (int j = 0, p = 0; j < d; j++) {
            if (j != target) {
                features[p++] = j;
            }
        }
        Matrix a = new Matrix(m, m);
        double[] b = new double[m];
        for (int j = 0; j < m; j++) {
            b[j] = c.get(features[j], target);
            for (int i = 0; i < m; i++) {
                a.set(i, j, 0.5 * (c.get(features[i], features[j]) + c.get(features[j], features[i])));
            }
        }
        SymmetricEigen e = SymmetricEigen.of(a);
        double[] g = e.values();
        double maxAbs = 0;
        for (double v : g) {
            maxAbs = Math.max(maxAbs, Math.abs(v + shift));
        }
        double[] vtb = e.vectors().transposeTimes(b);
        int dropped = 0;
        for (int j = 0; j < m; j++) {
            double den = g[j] + shift;
            if (Math.abs(den) <= 1e-12 * maxAbs || den == 0) {
                vtb[j] = 0;
                dropped++;
            } else {
                vtb[j] /= den;
            }
        }
        double[] w = e.vectors().times(vtb);
        return new CovarianceRidge(target, alpha, scaling, w, features, dropped);
    }
}
