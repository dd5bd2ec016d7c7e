package io.dpspectra.metrics;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.linalg.ThinSvd;

/**
 * Utility measures for an estimated subspace U (d × k, orthonormal columns). None forms a d × d matrix
 * from U; only a dense reference C (d × d) is read where one is given.
 *
 * <p>Every method checks that its basis arguments have orthonormal columns (max |UᵀU − I| ≤
 * {@value #ORTHONORMAL_TOLERANCE}) and the same number of rows, and says which argument is wrong.
 *
 * <p>Angles are computed accurately at both ends (Knyazev–Argentati): the cosines are the singular
 * values of AᵀB and the sines the singular values of B − A(AᵀB) (A the basis with more columns), and
 * θ_j = atan2(sin θ_j, cos θ_j), so small angles are not lost to cancellation in 1 − cos².
 *
 * <p>Reference: [DS] = papers/kdp-pca-adaptive-noise.txt Def. 1 and Lemma 26; [HP] =
 * papers/noisy-power-method.txt Def. 2.1; [MYL] = papers/private-robust-pca-grassmannian.txt §2
 * (d_r²); spec stochastic-and-power-methods.md §4.
 *
 * <p>Cost: O(dk·p) for two bases (k, p columns) plus an SVD of a k × p and a d × k matrix; O(d²k)
 * for the measures that read a dense C.
 */
public final class SubspaceMetrics {
    /** Largest entry of |UᵀU − I| accepted as "orthonormal columns". */
    public static final double ORTHONORMAL_TOLERANCE = 1e-6;

    private SubspaceMetrics() {
    }

    /**
     * Captured-variance ratio R = ⟨UUᵀ, C⟩ / ⟨V_kV_kᵀ, C⟩ = tr(UᵀCU) / Σ_{j≤k} λ_j(C), with k = U's
     * column count ([DS] Def. 1). 1 is perfect; R ∈ [0, 1] for a positive semi-definite C by Ky Fan's
     * maximum principle.
     *
     * @param u d × k, orthonormal columns. Not modified.
     * @param c d × d symmetric positive semi-definite (the population second moment Σ). Not modified.
     * @return R, in [0, 1] for a positive semi-definite {@code c}
     */
    public static double capturedVarianceRatio(Matrix u, Matrix c) {
        return capturedVarianceRatio(u, c, u.cols());
    }

    /**
     * The captured-variance ratio of the first {@code k} columns of U: tr(U_kᵀCU_k) / Σ_{j≤k} λ_j(C).
     * Useful to score the top k of an estimate that has more components.
     *
     * @param k 1 ≤ k ≤ U's column count
     * @param u d × m, orthonormal columns, m ≥ k. Not modified.
     * @param c d × d symmetric positive semi-definite. Not modified.
     * @return R of the first k columns, in [0, 1] for a positive semi-definite {@code c}
     */
    public static double capturedVarianceRatio(Matrix u, Matrix c, int k) {
        requireSquare("c", c);
        requireBasis("u", u, c.rows());
        if (k < 1 || k > u.cols()) {
            throw new IllegalArgumentException("k must be in [1, " + u.cols() + "] (U's column count), got " + k);
        }
        Matrix uk = k == u.cols() ? u : u.leadingColumns(k);
        double captured = traceOfCompression(uk, c);
        double best = 0;
        for (double v : SymmetricEigen.top(c, k).values()) {
            best += v;
        }
        if (!(best > 0)) {
            throw new IllegalArgumentException("the top-" + k + " eigenvalues of c sum to " + best
                    + "; the captured-variance ratio needs a reference with positive variance");
        }
        return captured / best;
    }

    /**
     * The captured-variance ratio against a structured spiked reference Σ = V diag(λ) Vᵀ + s2·I,
     * without forming Σ: tr(UᵀΣU) = Σ_l λ_l ‖Uᵀv_l‖² + s2·k, over Σ_{j≤k} λ_j(Σ) where the eigenvalues of
     * Σ are λ_l + s2 (l ≤ r) and s2 otherwise (spec §4.1). Cost O(dkr).
     *
     * @param u       d × k, orthonormal columns
     * @param v       d × r, orthonormal columns
     * @param lambdas r non-negative values (any order)
     * @param s2      isotropic part, ≥ 0
     * @return R against the spiked reference, in [0, 1]
     */
    public static double capturedVarianceRatio(Matrix u, Matrix v, double[] lambdas, double s2) {
        requireBasis("v", v, v.rows());
        requireBasis("u", u, v.rows());
        if (lambdas.length != v.cols()) {
            throw new IllegalArgumentException("lambdas has " + lambdas.length + " values but v has " + v.cols()
                    + " columns; give one eigenvalue per column of v");
        }
        if (!(s2 >= 0) || !Double.isFinite(s2)) {
            throw new IllegalArgumentException("s2 must be >= 0 and finite, got " + s2);
        }
        int k = u.cols();
        Matrix utv = u.transposeTimes(v);
        double captured = s2 * k;
        for (int l = 0; l < lambdas.length; l++) {
            if (!(lambdas[l] >= 0) || !Double.isFinite(lambdas[l])) {
                throw new IllegalArgumentException("lambdas[" + l + "] must be >= 0 and finite, got " + lambdas[l]);
            }
            double s = 0;
            for (int i = 0; i < k; i++) {
                s += utv.get(i, l) * utv.get(i, l);
            }
            captured += lambdas[l] * s;
        }
        double[] sorted = lambdas.clone();
        java.util.Arrays.sort(sorted);
        double best = s2 * k;
        for (int j = 0; j < Math.min(k, sorted.length); j++) {
            best += sorted[sorted.length - 1 - j];
        }
        if (!(best > 0)) {
            throw new IllegalArgumentException("the reference has no variance (all lambdas and s2 are 0)");
        }
        return captured / best;
    }

    /**
     * ζ = √max(0, 1 − R): U is ζ-approximate iff R ≥ 1 − ζ² ([DS] Def. 1: U is ζ-approximate if it has
     * orthonormal columns and ⟨UUᵀ, Σ⟩ ≥ (1 − ζ²)⟨V_kV_kᵀ, Σ⟩). This is the smallest such ζ; 0 is
     * perfect, 1 means U captures no variance. ([DS] Lemma 1 links it to the projector distance:
     * ζ² ≥ ‖UUᵀ − V_kV_kᵀ‖_F² (λ_k − λ_{k+1}) / (2 Σ_{j≤k} λ_j).)
     *
     * @param u d × k, orthonormal columns. Not modified.
     * @param c d × d symmetric positive semi-definite. Not modified.
     * @return ζ, in [0, 1]
     */
    public static double zeta(Matrix u, Matrix c) {
        return Math.sqrt(Math.max(0, 1 - capturedVarianceRatio(u, c)));
    }

    /**
     * ζ against the structured spiked reference V diag(λ) Vᵀ + s2·I (see the matching ratio).
     *
     * @param u d × k, orthonormal columns
     * @param v d × r, orthonormal columns
     * @param lambdas r non-negative values (any order)
     * @param s2 isotropic part, ≥ 0
     * @return ζ, in [0, 1]
     */
    public static double zeta(Matrix u, Matrix v, double[] lambdas, double s2) {
        return Math.sqrt(Math.max(0, 1 - capturedVarianceRatio(u, v, lambdas, s2)));
    }

    /**
     * Principal angles θ₁ ≤ … ≤ θ_m between span(U) and span(V) (radians, ascending), accurate near 0,
     * m = min(k, p) for U d × k and V d × p ([HP] Def. 2.1: cos θ_j are the singular values of UᵀV).
     *
     * @param u d × k, orthonormal columns. Not modified.
     * @param v d × p, orthonormal columns. Not modified.
     * @return the min(k, p) angles in radians, ascending, each in [0, π/2]
     */
    public static double[] principalAngles(Matrix u, Matrix v) {
        Angles a = angles(u, v);
        double[] theta = new double[a.cos.length];
        for (int j = 0; j < theta.length; j++) {
            theta[j] = Math.atan2(a.sin[j], a.cos[j]);
        }
        return theta;
    }

    /**
     * ‖UUᵀ − VVᵀ‖_F, without forming a d × d matrix: √(2 Σ sin²θ_j) for equal dimensions ([DS] Lemma 26,
     * eq. 31); in general ‖UUᵀ − VVᵀ‖_F² = k + p − 2‖UᵀV‖_F² = |k − p| + 2 Σ_j sin²θ_j, which is how it is
     * computed (from the accurate sines, not by cancellation).
     *
     * @param u d × k, orthonormal columns. Not modified.
     * @param v d × p, orthonormal columns. Not modified.
     * @return the projector distance, in [0, √(k + p)]
     */
    public static double projectorDistance(Matrix u, Matrix v) {
        Angles a = angles(u, v);
        double s = Math.abs(u.cols() - v.cols());
        for (double x : a.sin) {
            s += 2 * x * x;
        }
        return Math.sqrt(s);
    }

    /**
     * sin of the largest principal angle (= ‖UUᵀ − VVᵀ‖₂ for equal dimensions).
     *
     * @param u d × k, orthonormal columns. Not modified.
     * @param v d × p, orthonormal columns. Not modified.
     * @return sin θ_max, in [0, 1]
     */
    public static double sinTheta(Matrix u, Matrix v) {
        Angles a = angles(u, v);
        double m = 0;
        for (double x : a.sin) {
            m = Math.max(m, x);
        }
        return m;
    }

    /**
     * d_r²(U, V) = 1 − σ_r(UᵀV) = 1 − cos θ_max ([MYL] §2: "d_r²(V, V′) = 1 − σ_r(VᵀV′)", σ_r the
     * smallest of the r singular values), computed as 2 sin²(θ_max / 2) without cancellation. For close
     * subspaces it is ≈ θ_max²/2. Both bases must have the same number of columns r.
     *
     * @param u d × r, orthonormal columns. Not modified.
     * @param v d × r, orthonormal columns. Not modified.
     * @return d_r², in [0, 1]
     */
    public static double dR2(Matrix u, Matrix v) {
        if (u.cols() != v.cols()) {
            throw new IllegalArgumentException("d_r² compares subspaces of one dimension r, but u has " + u.cols()
                    + " columns and v has " + v.cols() + "; pass bases with the same number of columns");
        }
        double[] theta = principalAngles(u, v);
        double max = 0;
        for (double t : theta) {
            max = Math.max(max, t);
        }
        double s = Math.sin(max / 2);
        return 2 * s * s;
    }

    /**
     * ‖(I − XXᵀ)U‖₂ for X (d × p, p ≥ k) orthonormal ([HP]); equals sin θ_k(U, X). Computed as the
     * largest singular value of the d × k matrix U − X(XᵀU) (spec §4.3).
     *
     * @param x d × p, orthonormal columns (the estimate). Not modified.
     * @param u d × k, orthonormal columns, k ≤ p (the reference). Not modified.
     * @return ‖(I − XXᵀ)U‖₂, in [0, 1]
     */
    public static double projectionResidual(Matrix x, Matrix u) {
        requireBasis("x", x, x.rows());
        requireBasis("u", u, x.rows());
        if (x.cols() < u.cols()) {
            throw new IllegalArgumentException("x must have at least as many columns as u (p >= k), got p = "
                    + x.cols() + " < k = " + u.cols());
        }
        Matrix r = u.minus(x.times(x.transposeTimes(u)));
        double[] s = ThinSvd.of(r).singular();
        return s.length == 0 ? 0 : Math.min(1.0, s[0]);
    }

    /** tr(UᵀCU) = Σ_j u_jᵀ C u_j, O(d²k). */
    private static double traceOfCompression(Matrix u, Matrix c) {
        Matrix cu = c.times(u);
        return cu.frobeniusInner(u);
    }

    private record Angles(double[] cos, double[] sin) {
    }

    /** Cosines descending and sines ascending, paired: (cos[j], sin[j]) belong to θ_j. */
    private static Angles angles(Matrix u, Matrix v) {
        requireBasis("u", u, u.rows());
        requireBasis("v", v, u.rows());
        // a: the basis with more columns, b: the other; m = b's column count angles
        Matrix a = u.cols() >= v.cols() ? u : v;
        Matrix b = a == u ? v : u;
        int m = b.cols();
        if (m == 0) {
            return new Angles(new double[0], new double[0]);
        }
        Matrix atb = a.transposeTimes(b);
        double[] cos = ThinSvd.of(atb).singular();
        Matrix residual = b.minus(a.times(atb));
        double[] sinDesc = ThinSvd.of(residual).singular();
        double[] c = new double[m];
        double[] s = new double[m];
        for (int j = 0; j < m; j++) {
            c[j] = Math.min(1.0, j < cos.length ? cos[j] : 0.0);
            s[j] = Math.min(1.0, j < sinDesc.length ? sinDesc[sinDesc.length - 1 - j] : 1.0);
        }
        return new Angles(c, s);
    }

    private static void requireSquare(String name, Matrix c) {
        if (c == null || !c.isSquare()) {
            throw new IllegalArgumentException(name + " must be a square d × d matrix, got "
                    + (c == null ? "null" : c.rows() + " × " + c.cols()));
        }
    }

    /** u must be d × k with 1 ≤ k ≤ d, finite, with orthonormal columns. */
    static void requireBasis(String name, Matrix u, int d) {
        if (u == null) {
            throw new IllegalArgumentException(name + " must be a d × k basis, got null");
        }
        if (u.rows() != d) {
            throw new IllegalArgumentException(name + " has " + u.rows() + " rows but the other argument has " + d
                    + "; both must live in the same dimension d");
        }
        if (u.cols() < 1 || u.cols() > d) {
            throw new IllegalArgumentException(name + " must have between 1 and d = " + d + " columns, got "
                    + u.cols());
        }
        if (!u.isFinite()) {
            throw new IllegalArgumentException(name + " has a NaN or infinite entry");
        }
        Matrix g = u.transposeTimes(u);
        double worst = 0;
        for (int i = 0; i < g.rows(); i++) {
            for (int j = 0; j < g.cols(); j++) {
                worst = Math.max(worst, Math.abs(g.get(i, j) - (i == j ? 1 : 0)));
            }
        }
        if (worst > ORTHONORMAL_TOLERANCE) {
            throw new IllegalArgumentException(name + " must have orthonormal columns, but max |" + name + "ᵀ"
                    + name + " − I| = " + worst + "; orthonormalise it first (e.g. Orthonormal.qr)");
        }
    }
}
