package io.dpspectra.pca;

import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.result.PrivateSubspace;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Oja's algorithm ([DS] Alg. 5) with deflation: the top-k principal subspace from one streaming pass,
 * one disjoint chunk per component, steps w ← P(w + η_t P A_t w)/‖·‖. NOT private: a non-private
 * reference for the private variants.
 *
 * <p>Privacy: none; the output reveals the data.
 *
 * <p>Reference: papers/kdp-pca-adaptive-noise.txt Alg. 5 (and Alg. 4 for the deflation); spec
 * stochastic-and-power-methods.md §2.6.
 *
 * <p>Cost: one pass, O(n·d·k) time, O(d·k) memory; no d × d matrix.
 */
public final class Oja {
    private final int k;
    private final int batchSize;
    private final LearningRate learningRate;
    private final RandomSource random;

    private Oja(int k, int batchSize, LearningRate learningRate, RandomSource random) {
        this.k = k;
        this.batchSize = batchSize;
        this.learningRate = learningRate;
        this.random = random;
    }

    /**
     * A builder; {@code components} is required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. */
    public static final class Builder extends StochasticOptions<Builder> {
        private int batchSize = 1;

        @Override
        Builder self() {
            return this;
        }

        /**
         * Samples averaged per step, default 1 (Alg. 5).
         *
         * @param b the batch size, ≥ 1
         * @return this builder
         */
        public Builder batchSize(int b) {
            this.batchSize = DpPreconditions.checkAtLeast("batchSize", b, 1);
            return this;
        }

        /**
         * The estimator with this configuration.
         *
         * @return a new estimator
         */
        public Oja build() {
            checkSubspaceOptions();
            return new Oja(k, batchSize, learningRate, random);
        }
    }

    /**
     * Fits on rows (A = x xᵀ).
     *
     * @param rows the rows
     * @return the basis (no guarantee)
     */
    public PrivateSubspace fit(RowSource rows) {
        return fit(AiSource.ofRows(rows), rows);
    }

    /**
     * Fits on general PSD samples.
     *
     * @param samples the samples
     * @return the basis (no guarantee)
     */
    public PrivateSubspace fit(AiSource samples) {
        return fit(samples, null);
    }

    private PrivateSubspace fit(AiSource samples, RowSource rows) {
        DpPreconditions.checkComponents(k, samples.dimension());
        long n = Deflation.size(samples);
        DpOja oracle = DpOja.builder().nonPrivate().batchSize(batchSize).learningRate(learningRate).build();
        Deflation.Result run = Deflation.run(samples, n, k, oracle, null, random);
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("rows", n);
        extra.put("batchSize", batchSize);
        extra.put("private", false);
        return DeflationFits.finish("oja", run, rows, learningRate, null, random, List.of(), extra);
    }
}
