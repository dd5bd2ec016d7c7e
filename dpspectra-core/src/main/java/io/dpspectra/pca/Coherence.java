package io.dpspectra.pca;

import io.dpspectra.linalg.CsrMatrix;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;

/**
 * The coherence μ(A) = d·max_{a,b} |U_ab|² of a symmetric d × d matrix with full eigenbasis U: between 1
 * (every eigenvector spread evenly over the coordinates) and d (some eigenvector is a standard basis
 * vector). The private power method's error scales with √μ(A) instead of √d (Thm 1.4).
 *
 * <p>Privacy: a non-private diagnostic of A; never publish it as part of a private release.
 *
 * <p>Reference: papers/noisy-power-method.txt Def. 4.8 (with the missing "max" restored; for symmetric
 * A, U = V), Thm 1.4, Thm 4.9; spec stochastic-and-power-methods.md §3.5 and §8 #32 (the maximum runs
 * over all d eigenvectors, as in the proof of Thm 4.9).
 *
 * <p>Cost: a full symmetric eigendecomposition, O(d³) time and O(d²) memory.
 */
public final class Coherence {
    private Coherence() {
    }

    /**
     * μ(A) for a dense symmetric A (only the lower triangle is read). Not modified: a.
     *
     * @param a a d × d symmetric matrix
     * @return μ(A), in [1, d]
     */
    public static double of(Matrix a) {
        if (!a.isSquare() || a.rows() == 0) {
            throw new IllegalArgumentException("coherence needs a non-empty square matrix, got " + a.rows() + " x "
                    + a.cols());
        }
        return ofBasis(SymmetricEigen.of(a).vectors());
    }

    /**
     * μ(A) for a sparse symmetric A (densified: O(d²) memory).
     *
     * @param a a d × d symmetric sparse matrix
     * @return μ(A), in [1, d]
     */
    public static double of(CsrMatrix a) {
        if (a.dimension() > 20_000) {
            throw new IllegalArgumentException("coherence needs a full eigendecomposition; d = " + a.dimension()
                    + " is too large (limit 20000)");
        }
        return of(a.toDense());
    }

    /**
     * d·max|U_ab|² of a d × m basis U (m ≤ d): the coherence restricted to those vectors.
     *
     * @param u a d × m matrix with orthonormal columns
     * @return the coherence of U
     */
    public static double ofBasis(Matrix u) {
        double m = u.maxAbs();
        return u.rows() * m * m;
    }
}
