package io.dpspectra.pca;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import java.util.Objects;

/**
 * The options every subspace estimator's builder shares: the number of components k (required) and the
 * randomness (default a secure source). Builders extend this and add their own options.
 *
 * @param <B> the concrete builder, returned by every setter
 */
abstract class SubspaceOptions<B extends SubspaceOptions<B>> {
    int k = -1;
    RandomSource random;

    abstract B self();

    /**
     * The number k ≥ 1 of components (required; checked against d when fitting).
     *
     * @param k k
     * @return this builder
     */
    public B components(int k) {
        this.k = DpPreconditions.checkAtLeast("components", k, 1);
        return self();
    }

    /**
     * The randomness of the noise and of any random start (default {@link RandomSource#secure()}).
     *
     * @param random the randomness
     * @return this builder
     */
    public B randomSource(RandomSource random) {
        this.random = Objects.requireNonNull(random, "randomSource");
        return self();
    }

    /** Checks that k was set and defaults the randomness to a secure source; call from {@code build()}. */
    void checkSubspaceOptions() {
        if (k < 0) {
            throw new IllegalArgumentException("components k was not set; call components(k) with 1 <= k <= d");
        }
        if (random == null) {
            random = RandomSource.secure();
        }
    }
}
