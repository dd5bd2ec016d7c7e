package io.dpspectra.covariance;

import io.dpspectra.linalg.Matrix;

/**
 * Householder deflation of a basis and its reduced matrix (spec robust-local-covariance.md K10): given
 * an orthonormal basis B (d × q) of the current complement, C_i = BᵀCB (q × q) and a unit u ∈ R^q, the
 * reflection H = I − 2vvᵀ with v ∝ u + sgn(u₁)e₁ maps u to ∓e₁; then B' = (BH)[:, 2..q] spans the
 * complement of Bu inside span(B) and C' = (HC_iH)[2..q, 2..q] = B'ᵀCB'. Cost O(dq + q²); the vectors
 * stay orthonormal to rounding without any re-orthogonalisation or fresh decomposition.
 */
final class HouseholderDeflation {
    private HouseholderDeflation() {
    }

    /** Returns {B', C'}. Not modified: basis, ci, u. */
    static Matrix[] deflate(Matrix basis, Matrix ci, double[] u) {
        int d = basis.rows();
        int q = basis.cols();
        double[] v = u.clone();
        double norm = io.dpspectra.linalg.Vectors.norm2(u);
        v[0] += (u[0] >= 0 ? 1 : -1) * norm;
        io.dpspectra.linalg.Vectors.normalizeInPlace(v);
        // B' = (B − 2(Bv)vᵀ) without its first column
        double[] bv = basis.times(v);
        double[] bd = basis.data();
        Matrix nb = new Matrix(d, q - 1);
        double[] nd = nb.data();
        for (int j = 1; j < q; j++) {
            double f = 2 * v[j];
            int src = j * d;
            int dst = (j - 1) * d;
            for (int r = 0; r < d; r++) {
                nd[dst + r] = bd[src + r] - f * bv[r];
            }
        }
        // HCH = C − 2vwᵀ − 2wvᵀ + 4(vᵀw)vvᵀ with w = Cv, restricted to [1..q)×[1..q)
        double[] w = ci.times(v);
        double s = 0;
        for (int j = 0; j < q; j++) {
            s += v[j] * w[j];
        }
        Matrix nc = new Matrix(q - 1, q - 1);
        double[] cd = ci.data();
        double[] ncd = nc.data();
        for (int j = 1; j < q; j++) {
            for (int r = 1; r < q; r++) {
                ncd[(r - 1) + (j - 1) * (q - 1)] = cd[r + j * q] - 2 * v[r] * w[j] - 2 * w[r] * v[j]
                        + 4 * s * v[r] * v[j];
            }
        }
        nc.symmetrizeInPlace();
        return new Matrix[] {nb, nc};
    }
}
