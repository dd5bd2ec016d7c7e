package io.dpspectra.pca;

import java.util.Objects;

/**
 * The options every streaming Oja-type estimator's builder shares (Oja, k-DP-Ojas, k-DP-PCA), beyond k and
 * the randomness of {@link SubspaceOptions}: the learning-rate schedule of the Oja steps. Builders extend
 * this and add their own options; the batch size and paper-literal mode stay in each builder because their
 * defaults, bounds and meaning differ (Oja: B ≥ 1, default 1; k-DP-Ojas: default ⌈√(n/k)⌉; k-DP-PCA:
 * B ≥ 4, default ⌊√n⌋). The per-round oracles {@link DpOja} and {@link ModifiedDpPca} declare their own
 * {@code learningRate}: their builders have no k and no randomness, so they cannot extend
 * {@link SubspaceOptions}.
 *
 * @param <B> the concrete builder, returned by every setter
 */
abstract class StochasticOptions<B extends StochasticOptions<B>> extends SubspaceOptions<B> {
    LearningRate learningRate = LearningRate.paperOja();

    /**
     * The learning-rate schedule η(i, t) of the Oja steps, restarted every deflation round (a public
     * hyper-parameter, never derived from the data). Default 1/(1 + t) ({@link LearningRate#paperOja},
     * App. G.1, spec §8 #18); the k-DP-PCA experiments use {@link LearningRate#appendixG}.
     *
     * @param eta the schedule
     * @return this builder
     */
    public B learningRate(LearningRate eta) {
        this.learningRate = Objects.requireNonNull(eta, "learningRate");
        return self();
    }
}
