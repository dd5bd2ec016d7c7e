package io.dpspectra.pca;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.noise.RandomSource;

/** Symmetric test matrices with a prescribed spectrum. */
final class SpectralTestMatrices {
    private SpectralTestMatrices() {
    }

    /** A uniformly random d × d orthogonal matrix. */
    static Matrix randomOrthogonal(int d, RandomSource r) {
        Matrix g = new Matrix(d, d);
        for (int i = 0; i < g.data().length; i++) {
            g.data()[i] = r.standardNormal();
        }
        return Orthonormal.qr(g);
    }

    /** Q diag(eig) Qᵀ. */
    static Matrix withBasis(Matrix q, double[] eig) {
        int d = q.rows();
        Matrix qd = q.copy();
        for (int j = 0; j < d; j++) {
            for (int i = 0; i < d; i++) {
                qd.set(i, j, qd.get(i, j) * eig[j]);
            }
        }
        Matrix a = qd.times(q.transpose());
        a.symmetrizeInPlace();
        return a;
    }

    /** The normalised Walsh–Hadamard matrix of order d (a power of two): entries ±1/√d, coherence 1. */
    static Matrix hadamard(int d) {
        Matrix h = new Matrix(d, d);
        double s = 1 / Math.sqrt(d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                h.set(i, j, Integer.bitCount(i & j) % 2 == 0 ? s : -s);
            }
        }
        return h;
    }

    /** eig = (top..., then a flat tail): top values then {@code tail} repeated. */
    static double[] spectrum(int d, double[] top, double tail) {
        double[] e = new double[d];
        for (int i = 0; i < d; i++) {
            e[i] = i < top.length ? top[i] : tail;
        }
        return e;
    }
}
