package io.dpspectra.synthetic;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;

/**
 * Symmetric matrices with a prescribed spectrum and eigenbasis, A = Q diag(λ) Qᵀ, for tests and
 * experiments of the power-method family: a uniformly random basis (coherence about 2 ln d), the
 * Walsh–Hadamard basis (coherence 1, the least coherent) or the standard basis (coherence d).
 *
 * <p>Reference: papers/noisy-power-method.txt Def. 4.8 and Thm 1.4 (coherence); spec
 * stochastic-and-power-methods.md §3.5.
 *
 * <p>Cost: O(d²·m) for {@link #symmetric} with an m-column basis; memory O(d²).
 */
public final class KnownSpectrum {
    private KnownSpectrum() {
    }

    /**
     * A d × k basis of a uniformly random k-dimensional subspace (QR of an i.i.d. N(0, 1) matrix).
     *
     * @param d      the dimension, ≥ k
     * @param k      the subspace dimension, ≥ 1
     * @param random the randomness of the Gaussian matrix
     * @return a new d × k matrix with orthonormal columns
     */
    public static Matrix randomBasis(int d, int k, RandomSource random) {
        return io.dpspectra.noise.RandomSubspace.basis(d, k, random);
    }

    /**
     * The normalised Walsh–Hadamard matrix of order d (a power of two): orthogonal, entries ±1/√d.
     *
     * @param d the order, a power of two
     * @return a new d × d orthogonal matrix
     */
    public static Matrix hadamard(int d) {
        if (d < 1 || Integer.bitCount(d) != 1) {
            throw new IllegalArgumentException("the Hadamard basis needs d a power of two, got " + d);
        }
        Matrix h = new Matrix(d, d);
        double s = 1 / Math.sqrt(d);
        for (int j = 0; j < d; j++) {
            for (int i = 0; i < d; i++) {
                h.set(i, j, Integer.bitCount(i & j) % 2 == 0 ? s : -s);
            }
        }
        return h;
    }

    /**
     * Q diag(λ) Qᵀ for a d × m basis Q with orthonormal columns and m eigenvalues λ (the remaining d − m
     * eigenvalues are 0). Not modified: basis, eigenvalues.
     *
     * @param basis       d × m, orthonormal columns
     * @param eigenvalues the m eigenvalues, in the order of the columns
     * @return a new d × d symmetric matrix
     */
    public static Matrix symmetric(Matrix basis, double[] eigenvalues) {
        if (basis.cols() != eigenvalues.length) {
            throw new IllegalArgumentException("basis has " + basis.cols() + " columns but " + eigenvalues.length
                    + " eigenvalues were given");
        }
        Matrix scaled = basis.copy();
        for (int j = 0; j < basis.cols(); j++) {
            for (int i = 0; i < basis.rows(); i++) {
                scaled.set(i, j, scaled.get(i, j) * eigenvalues[j]);
            }
        }
        Matrix a = scaled.times(basis.transpose());
        a.symmetrizeInPlace();
        return a;
    }

    /**
     * The d eigenvalues: {@code top} first, then {@code tail} for the rest.
     *
     * @param d    the number of eigenvalues, ≥ top.length
     * @param top  the leading eigenvalues
     * @param tail the value of the remaining d − top.length eigenvalues
     * @return a new array of d values
     */
    public static double[] spectrum(int d, double[] top, double tail) {
        if (top.length > d) {
            throw new IllegalArgumentException(top.length + " top eigenvalues do not fit in d = " + d);
        }
        double[] e = new double[d];
        for (int i = 0; i < d; i++) {
            e[i] = i < top.length ? top[i] : tail;
        }
        return e;
    }
}
