package io.dpspectra.robust;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.linalg.ThinSvd;

/**
 * The two ways a Grassmannian descent step returns to orthonormal bases: the projection onto the
 * Stiefel set O(D, r) = {V : VᵀV = I} (the orthogonal polar factor, Maunu–Yu–Lerman's P_O) and the
 * geodesic exponential map of the Grassmannian. Neither forms a D × D matrix.
 *
 * <p>Reference: papers/private-robust-pca-grassmannian.txt §2.2 (P_O in NGGD and NSGGD), App. B.1
 * (P_O(V + ηH) = Exp_V(ηH) + O(η³)); Edelman, Arias &amp; Smith 1999, Theorem 2.3 (the exponential map).
 *
 * <p>Cost: O(D r²) per call (a thin QR of a D × r matrix and an SVD of an r × r matrix).
 */
public final class Stiefel {
    /** Below this relative singular value the polar factor is not unique (rank-deficient input). */
    static final double RANK_TOLERANCE = 1e-14;

    private Stiefel() {
    }

    /**
     * argmin over VᵀV = I of ‖V − A‖_F, the orthogonal polar factor of A (D × r, D ≥ r): thin QR A = QR,
     * SVD R = U Σ Wᵀ, V = Q U Wᵀ (never through (AᵀA)^(−1/2), which squares the condition number). A
     * rank-deficient A has no unique nearest point; its deficient directions are completed by the QR's
     * orthonormal columns, so the result is always orthonormal. Not modified: a.
     *
     * @param a D × r, D ≥ r
     * @return a new D × r matrix with orthonormal columns
     */
    public static Matrix project(Matrix a) {
        int d = a.rows();
        int r = a.cols();
        if (r > d) {
            throw new IllegalArgumentException("a Stiefel projection needs at least as many rows as columns, got "
                    + d + " x " + r);
        }
        if (!a.isFinite()) {
            throw new IllegalArgumentException("the matrix to project has a NaN or infinite entry");
        }
        Matrix q = Orthonormal.qr(a);
        Matrix rr = q.transposeTimes(a); // r × r, upper triangular up to rounding
        ThinSvd svd = ThinSvd.of(rr);
        // Q U Wᵀ; when R is singular its null directions keep Q's own columns through U Wᵀ's completion
        return q.times(svd.u().times(svd.v().transpose()));
    }

    /**
     * The tangent component (I − VVᵀ)H of H at V, in O(D r²). Not modified: v, h.
     *
     * @param v D × r, orthonormal columns
     * @param h D × r
     * @return a new D × r matrix
     */
    public static Matrix tangent(Matrix v, Matrix h) {
        return h.minus(v.times(v.transposeTimes(h)));
    }

    /**
     * The Grassmann exponential map Exp_V(H) = V W cos(Σ) Wᵀ + U sin(Σ) Wᵀ for the thin SVD H = U Σ Wᵀ of the
     * tangent vector H (its tangent component is taken first), re-orthonormalised (by {@link #project}) against drift.
     * Not modified: v, h.
     *
     * @param v D × r, orthonormal columns
     * @param h D × r, the direction
     * @return a new D × r matrix with orthonormal columns
     */
    public static Matrix exp(Matrix v, Matrix h) {
        Matrix t = tangent(v, h);
        ThinSvd svd = ThinSvd.of(t);
        int r = v.cols();
        Matrix w = svd.v();
        Matrix cos = new Matrix(r, r);
        Matrix sin = new Matrix(r, r);
        double[] s = svd.singular();
        for (int j = 0; j < r; j++) {
            cos.set(j, j, Math.cos(s[j]));
            sin.set(j, j, Math.sin(s[j]));
        }
        Matrix moved = v.times(w.times(cos)).plus(svd.u().times(sin)).times(w.transpose());
        return project(moved); // the nearest orthonormal basis: removes rounding drift, keeps the span
    }
}
