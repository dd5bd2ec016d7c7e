package io.dpspectra.noise;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;

/**
 * A uniformly (Haar) distributed k-dimensional subspace of ℝᵈ, as a d × k matrix with orthonormal
 * columns: the thin QR of an i.i.d. N(0, 1) matrix (filled column by column). Used for random starts of
 * iterative methods, random fallbacks and synthetic bases. Not privacy noise: the Gaussians come from
 * {@link RandomSource#standardNormal()}.
 */
public final class RandomSubspace {
    private RandomSubspace() {
    }

    /**
     * A d × k orthonormal basis of a uniformly random subspace; 0 ≤ k ≤ d.
     *
     * @param d      the dimension, ≥ 0
     * @param k      the subspace dimension, 0 ≤ k ≤ d
     * @param random the randomness of the Gaussian matrix it orthonormalises
     * @return a new d × k matrix with orthonormal columns
     */
    public static Matrix basis(int d, int k, RandomSource random) {
        if (k < 0 || k > d) {
            throw new IllegalArgumentException("k must be in [0, d = " + d + "], got " + k);
        }
        Matrix g = new Matrix(d, k);
        for (int j = 0; j < k; j++) {
            for (int i = 0; i < d; i++) {
                g.set(i, j, random.standardNormal());
            }
        }
        return Orthonormal.qr(g);
    }
}
