package io.dpspectra.covariance;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.Noise;
import io.dpspectra.privacy.Neighbouring;

/**
 * The shared core of the input-perturbation mechanisms on XᵀX: one Gram pass over bounded rows, then
 * symmetric noise on the upper triangle (diagonal included), mirrored.
 */
final class NoisySecondMoment {
    final Matrix noisy;
    final long n;
    final long clippedRows;

    private NoisySecondMoment(Matrix noisy, long n, long clippedRows) {
        this.noisy = noisy;
        this.n = n;
        this.clippedRows = clippedRows;
    }

    /** Reads {@code rows} once and adds symmetric {@code noise} of the given scale. */
    static NoisySecondMoment of(RowSource rows, Noise noise, double scale) {
        GramPass pass = GramPass.of(rows);
        Matrix g = pass.gram();
        noise.addSymmetricNoiseInPlace(g, scale);
        long clipped = rows instanceof ClippedRows c ? c.clippedRows() : -1;
        return new NoisySecondMoment(g, pass.rows(), clipped);
    }

    /** Adds symmetric {@code noise} to a copy of a Gram matrix the caller vouches for ({@code n} rows). */
    static NoisySecondMoment ofTrustedGram(Matrix gram, long n, Noise noise, double scale) {
        if (!gram.isSquare() || !gram.isFinite()) {
            throw new IllegalArgumentException("Gram matrix must be square and finite, got " + gram.rows() + " x "
                    + gram.cols());
        }
        Matrix g = gram.copy();
        g.symmetrizeInPlace();
        noise.addSymmetricNoiseInPlace(g, scale);
        return new NoisySecondMoment(g, n, -1);
    }

    /** Eigenvalue clamp bounds: [0, nβ²] with n public (replace), [0, ∞) when n is private (add/remove). */
    static double clampUpper(Neighbouring neighbouring, long n, double rowL2Bound) {
        return neighbouring == Neighbouring.REPLACE_ROW ? n * rowL2Bound * rowL2Bound : Double.POSITIVE_INFINITY;
    }

    /** The common diagnostics entries. */
    Diagnostics.Builder diagnostics(boolean seeded) {
        Diagnostics.Builder b = Diagnostics.builder().put("rows", n);
        if (clippedRows >= 0) {
            b.put("clippedRows", clippedRows);
        }
        b.put("seededRandomness", seeded);
        b.put("note", Diagnostics.PRIVATE_KEYS_NOTE);
        return b;
    }
}
