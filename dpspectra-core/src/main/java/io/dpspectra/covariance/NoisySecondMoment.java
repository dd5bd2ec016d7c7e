package io.dpspectra.covariance;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.Noise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import java.util.Objects;

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

    /**
     * The options every input-perturbation release of XᵀX shares: neighbouring relation (default
     * REPLACE_ROW, spec §1.3), noise source (default secure), eigenvalue clamp (default on, spec §5.6),
     * and the package-private noise multiplier of the auditor's broken-twin tests.
     *
     * @param <B> the concrete builder, returned by every setter
     */
    abstract static class Options<B extends Options<B>> {
        Neighbouring neighbouring = Neighbouring.REPLACE_ROW;
        RandomSource random;
        boolean clamp = true;
        double noiseMultiplier = 1.0;

        abstract B self();

        /**
         * Default REPLACE_ROW (n public; spec §1.3).
         *
         * @param neighbouring the relation the guarantee is stated for
         * @return this builder
         */
        public B neighbouring(Neighbouring neighbouring) {
            this.neighbouring = Objects.requireNonNull(neighbouring, "neighbouring");
            return self();
        }

        /**
         * Default {@link RandomSource#secure()}.
         *
         * @param random the randomness of the noise
         * @return this builder
         */
        public B randomSource(RandomSource random) {
            this.random = Objects.requireNonNull(random, "randomSource");
            return self();
        }

        /**
         * Whether to clamp the release's eigenvalues to the public range (spec §5.6); default true.
         *
         * @param clamp whether to clamp
         * @return this builder
         */
        public B clampEigenvalues(boolean clamp) {
            this.clamp = clamp;
            return self();
        }

        /**
         * Scales the noise by {@code m}: package-private, for the auditor's deliberately broken twin in
         * tests only. A value below 1 makes the release NOT private.
         */
        B noiseMultiplierForAuditTests(double m) {
            this.noiseMultiplier = DpPreconditions.checkPositive("noiseMultiplier", m);
            return self();
        }

        /** The noise source to use: the configured one, or a secure one. */
        RandomSource randomOrSecure() {
            return random != null ? random : RandomSource.secure();
        }
    }

    /**
     * The noisy second moment {@code m} with its eigenvalues clamped to [0, {@link #clampUpper}] when
     * {@code clamp} is set (post-processing).
     */
    static Released clampIfAsked(NoisySecondMoment m, boolean clamp, Neighbouring neighbouring, double rowL2Bound) {
        if (!clamp) {
            return new Released(m, m.noisy, 0);
        }
        EigenvalueClamp.Result r = EigenvalueClamp.clamp(m.noisy, 0, clampUpper(neighbouring, m.n, rowL2Bound));
        return new Released(m, r.matrix(), r.clamped());
    }

    /** A noisy second moment after the optional clamp, with the number of eigenvalues clamped. */
    record Released(NoisySecondMoment moment, Matrix matrix, int clamped) {
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
