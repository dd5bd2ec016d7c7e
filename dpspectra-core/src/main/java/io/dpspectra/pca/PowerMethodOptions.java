package io.dpspectra.pca;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.privacy.DpPreconditions;
import java.util.Objects;

/**
 * The options every power method of Hardt &amp; Price shares (noisy, streaming, private), beyond k and the
 * randomness of {@link SubspaceOptions}: the block size p ≥ k, the number of iterations L, and an optional
 * known truth whose principal angles are recorded per iteration. Each method's builder extends this and adds its own;
 * the type is public so that callers can configure the three builders with one method.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class PowerMethodOptions<B extends PowerMethodOptions<B>> extends SubspaceOptions<B> {
    int p = -1;
    int iterations = NoisyPowerMethod.DEFAULT_ITERATIONS;
    Matrix truth;

    /**
     * The block size p, k ≤ p ≤ d (default k). p = 2k is the paper's oversampling (Cor. 1.1, 3.4): a better
     * start and a faster rate; for the private method σ grows as √p.
     *
     * @param p p
     * @return this builder
     */
    public B blockSize(int p) {
        this.p = DpPreconditions.checkAtLeast("blockSize", p, 1);
        return self();
    }

    /**
     * The number L ≥ 1 of iterations (default {@value NoisyPowerMethod#DEFAULT_ITERATIONS}; the paper's
     * L = O(σ_k/(σ_k − σ_{k+1}) log d) depends on the unknown gap). For the private method σ grows as √L;
     * the streaming method needs n ≥ L.
     *
     * @param iterations L
     * @return this builder
     */
    public B iterations(int iterations) {
        this.iterations = DpPreconditions.checkAtLeast("iterations", iterations, 1);
        return self();
    }

    /**
     * A known truth U (d × k, orthonormal) for experiments: records sin θ_k(U, X_ℓ) and tan θ_k per
     * iteration. These diagnostics use U and are NOT private.
     *
     * @param truth U
     * @return this builder
     */
    public B trackAnglesTo(Matrix truth) {
        this.truth = Objects.requireNonNull(truth, "truth").copy();
        return self();
    }

    /** p, or k when no block size was given. */
    int blockSizeOrK() {
        return p < 0 ? k : p;
    }

    /** Checks the shared options at build time and defaults the randomness to a secure source. */
    void checkShared() {
        checkSubspaceOptions();
        if (p >= 0 && p < k) {
            throw new IllegalArgumentException("blockSize p must be >= components k = " + k + ", got " + p);
        }
        if (truth != null && truth.cols() != k) {
            throw new IllegalArgumentException("truth must have k = " + k + " columns, got " + truth.cols());
        }
    }
}
