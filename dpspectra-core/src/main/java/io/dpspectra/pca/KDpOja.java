package io.dpspectra.pca;

import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * k-DP-Ojas ([DS] Cor. 4): the top-k principal subspace by {@link Deflation} over {@link DpOja}, one
 * disjoint chunk of m = ⌊n/k⌋ samples per component, streaming in O(dk) memory.
 *
 * <p>Privacy: (ε, δ)-DP; the unit is one row x (A = x xᵀ) or one sample A_i, neighbouring = replace one
 * with n and the order public. Each DP-Oja round is (ε, δ)-DP on its chunk (single-step Gaussian argument
 * on the minibatch mean, sensitivity 2β/B, see {@link DpOja}); chunks are disjoint, so the total is
 * (ε, δ) by parallel composition ([DS] Lemma 15). β defaults to the declared bound on Tr A_i (the square
 * of the rows' L2 bound). In paper-literal mode the release is NOT certified (see {@link DpOja}).
 *
 * <p>Reference: papers/kdp-pca-adaptive-noise.txt Alg. 1, Alg. 3, Cor. 4, App. G.1; spec
 * stochastic-and-power-methods.md §2.1, §2.5.
 *
 * <p>Cost: one pass, O(n·d·k) time, O(d·k) memory (plus one read block); no d × d matrix.
 */
public final class KDpOja extends DeflationEstimator {
    private final int k;
    private final int batchSize;
    private final LearningRate learningRate;
    private final double clipThreshold;
    private final boolean paperLiteral;
    private final RandomSource random;
    private final double noiseMultiplier;

    private KDpOja(Builder b) {
        this.k = b.k;
        this.batchSize = b.batchSize;
        this.learningRate = b.learningRate;
        this.clipThreshold = b.clipThreshold;
        this.paperLiteral = b.paperLiteral;
        this.random = b.random;
        this.noiseMultiplier = b.noiseMultiplier;
    }

    /**
     * A builder with the defaults its setters state.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. */
    public static final class Builder extends StochasticOptions<Builder> {
        private int batchSize;
        private double clipThreshold = Double.NaN;
        private boolean paperLiteral;
        private double noiseMultiplier = 1;

        @Override
        Builder self() {
            return this;
        }

        /**
         * Minibatch size B ≥ 1; 0 (default) means ⌈√m⌉ with m = ⌊n/k⌋ (see {@link DpOja}).
         *
         * @param b B
         * @return this builder
         */
        public Builder batchSize(int b) {
            this.batchSize = DpPreconditions.checkAtLeast("batchSize", b, 0);
            return this;
        }

        /**
         * Gradient clipping threshold β; default: the declared trace bound of the samples.
         *
         * @param beta β, &gt; 0
         * @return this builder
         */
        public Builder clipThreshold(double beta) {
            this.clipThreshold = DpPreconditions.checkBound("clipThreshold", beta);
            return this;
        }

        /**
         * Paper-literal noise (B = 1, shuffling-based α); NOT certified, warns.
         *
         * @param on whether to use the paper-literal noise
         * @return this builder
         */
        public Builder paperLiteral(boolean on) {
            this.paperLiteral = on;
            return this;
        }

        Builder noiseMultiplierForAuditTests(double m) {
            this.noiseMultiplier = DpPreconditions.checkPositive("noiseMultiplier", m);
            return this;
        }

        /**
         * The estimator with this configuration.
         *
         * @return a new estimator
         */
        public KDpOja build() {
            checkSubspaceOptions();
            if (paperLiteral && batchSize > 1) {
                throw new IllegalArgumentException("paper-literal k-DP-Ojas uses batch size 1, got " + batchSize);
            }
            return new KDpOja(this);
        }
    }

    /**
     * The batch size used for n rows.
     *
     * @param n the number of rows
     * @return B
     */
    public int batchSizeFor(long n) {
        if (paperLiteral) {
            return 1;
        }
        return batchSize > 0 ? batchSize : (int) Math.ceil(Math.sqrt((double) (n / k)));
    }

    @Override
    int components() {
        return k;
    }

    @Override
    String algorithmName() {
        return "k-DP-Ojas";
    }

    @Override
    PrivateSubspace fitChecked(AiSource samples, RowSource rows, PrivacyParams budget) {
        double beta = Double.isNaN(clipThreshold) ? samples.traceBound() : clipThreshold;
        if (!(beta > 0) || !Double.isFinite(beta)) {
            throw new IllegalArgumentException("k-DP-Ojas needs a public gradient bound: declare a row bound "
                    + "(clipL2 / --clip / --bound) or set clipThreshold; never derive it from the data");
        }
        long n = Deflation.size(samples);
        int b = batchSizeFor(n);
        DpOja oracle = DpOja.builder().batchSize(b).learningRate(learningRate).clipThreshold(beta)
                .paperLiteral(paperLiteral).noiseMultiplierForAuditTests(noiseMultiplier).build();
        Deflation.Result run = Deflation.run(samples, n, k, oracle, budget, random);
        PrivacyGuarantee g = new PrivacyGuarantee("k-DP-Ojas (minibatch DP-Oja + deflation)", budget,
                Neighbouring.REPLACE_ROW, "one sample A_i (one row x_i, A_i = x_i x_i^T) with Tr A_i <= " + beta
                + "; n and the processing order public",
                paperLiteral ? "paper-literal: noise std 2*beta*alpha, alpha = ln(m/delta)/(eps sqrt(m)) (shuffling "
                        + "argument, NOT certified)"
                        : "L2 sensitivity of a batch mean of clipped gradients = 2*beta/B = " + (2 * beta / b)
                        + "; analytic Gaussian per step; parallel composition over batches and chunks",
                "Duengler & Sanyal, An Iterative Algorithm for Differentially Private k-PCA with Adaptive Noise, Algorithm 3 (k-DP-Ojas) with the deflation of Algorithm 1, Corollary 4");
        if (!paperLiteral) {
            // one sample is read by one step: the run is one Gaussian release of that step (the rest post-processing)
            g = g.withProfile(io.dpspectra.privacy.PrivacyProfile.gaussianNoise(oracle.sigma(n / k, budget),
                    2 * beta / b, samples.dimension()));
        }
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("rows", n);
        extra.put("batchSize", b);
        extra.put("stepsPerRound", (n / k) / b);
        extra.put("clipThreshold", beta);
        extra.put("paperLiteral", paperLiteral);
        List<String> warnings = new ArrayList<>();
        warnings.add(oracle.warning());
        return DeflationFits.finish("k-dp-ojas", run, rows, learningRate, g, random, warnings, extra);
    }
}
