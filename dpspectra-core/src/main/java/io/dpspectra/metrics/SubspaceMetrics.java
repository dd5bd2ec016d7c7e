package io.dpspectra.metrics;

import io.dpspectra.linalg.Matrix;

/**
 * Utility measures for an estimated subspace U (d × k, orthonormal columns). None forms a d × d matrix
 * from U; only a dense reference C (d × d) is read where one is given.
 *
 * <p>TODO(skeleton): implemented in the data/metrics work package; the API below is fixed.
 */
public final class SubspaceMetrics {
    private SubspaceMetrics() {
    }

    /**
     * Captured-variance ratio R = ⟨UUᵀ, C⟩ / ⟨V_kV_kᵀ, C⟩ = tr(UᵀCU) / Σ_{j≤k} λ_j(C), with k = U's
     * column count ([DS] Def. 1). 1 is perfect.
     */
    public static double capturedVarianceRatio(Matrix u, Matrix c) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }

    /** ζ = √max(0, 1 − R): U is ζ-approximate iff R ≥ 1 − ζ² ([DS] Def. 1). */
    public static double zeta(Matrix u, Matrix c) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }

    /** Principal angles θ₁ ≤ … ≤ θ_k between span(U) and span(V) (radians, ascending), accurate near 0. */
    public static double[] principalAngles(Matrix u, Matrix v) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }

    /** ‖UUᵀ − VVᵀ‖_F = √(2 Σ sin²θ_j) for equal dimensions, from the angles. */
    public static double projectorDistance(Matrix u, Matrix v) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }

    /** sin of the largest principal angle. */
    public static double sinTheta(Matrix u, Matrix v) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }

    /** d_r²(U, V) = 1 − cos θ_max (MYL), computed without cancellation. */
    public static double dR2(Matrix u, Matrix v) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }

    /** ‖(I − XXᵀ)U‖₂ for X (d × p, p ≥ k) orthonormal ([HP]); equals sin θ_k(U, X). */
    public static double projectionResidual(Matrix x, Matrix u) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }
}
