package io.dpspectra.pca;

import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * k-DP-PCA ([DS] Alg. 1): the top-k principal subspace by {@link Deflation} over {@link ModifiedDpPca}
 * (minibatch Oja steps with privately estimated range and private mean: adaptive noise).
 *
 * <p>Privacy: (ε, δ)-DP; the unit is one row x (A = x xᵀ) or one sample A_i, neighbouring = replace one
 * with n and the order public (spec §0.1, §8 #9). Each round is (ε, δ)-DP on its disjoint chunk (see
 * {@link ModifiedDpPca}), so the total is (ε, δ) by parallel composition ([DS] Lemma 15, Theorem 2).
 * PrivMean's clamping makes the sensitivity data-adaptive, so no row bound is required; rows need only
 * be finite. With {@code paperLiteral} the histograms use the add/remove calibration the paper claims
 * (NOT certified, warns).
 *
 * <p>Note: with the paper's constants the histograms of PrivRange and PrivMean rarely release at
 * experiment scale (spec §6 "Reproduction risk"); the result's diagnostics count PrivRange ⊥ and PrivMean
 * fallbacks so users can see it.
 *
 * <p>Reference: papers/kdp-pca-adaptive-noise.txt Alg. 1, Alg. 2, Alg. 6, Alg. 7, Thm. 1, App. G.1; spec
 * stochastic-and-power-methods.md §2.1–§2.4.
 *
 * <p>Cost: one pass, O(n·d·(k + b)) time, O(B·d + d·k) memory; no d × d matrix.
 */
public final class KDpPca extends DeflationEstimator {
    private final int k;
    private final int batchSize;
    private final ModifiedDpPca.Builder oracle;
    private final LearningRate learningRate;
    private final boolean paperLiteral;
    private final RandomSource random;

    private KDpPca(Builder b) {
        this.k = b.k;
        this.batchSize = b.batchSize;
        this.oracle = b.oracle;
        this.learningRate = b.learningRate;
        this.paperLiteral = b.paperLiteral;
        this.random = b.random;
    }

    /**
     * A builder with the defaults its setters state.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. Oracle constants (τ, C1, K, a, batch use, public range) via {@link #oracle}. */
    public static final class Builder extends StochasticOptions<Builder> {
        private int batchSize;
        private final ModifiedDpPca.Builder oracle = ModifiedDpPca.builder();
        private boolean paperLiteral;

        @Override
        Builder self() {
            return this;
        }

        /**
         * B ≥ 4; 0 (default) means ⌊√n⌋ with n the total sample size (App. G.1, spec §8 #8).
         *
         * @param b B
         * @return this builder
         */
        public Builder batchSize(int b) {
            if (b != 0) {
                DpPreconditions.checkAtLeast("batchSize", b, 4);
            }
            this.batchSize = b;
            return this;
        }

        /**
         * The oracle's builder, to set τ, C1, tail constants, batch use or a public range.
         *
         * @return the oracle's builder (configured in place)
         */
        public ModifiedDpPca.Builder oracle() {
            return oracle;
        }

        /**
         * Add/remove-calibrated histograms as the paper claims; NOT certified, warns.
         *
         * @param on whether to use the paper-literal calibration
         * @return this builder
         */
        public Builder paperLiteral(boolean on) {
            this.paperLiteral = on;
            return this;
        }

        /**
         * The estimator with this configuration.
         *
         * @return a new estimator
         */
        public KDpPca build() {
            checkSubspaceOptions();
            return new KDpPca(this);
        }
    }

    @Override
    int components() {
        return k;
    }

    @Override
    String algorithmName() {
        return "k-DP-PCA";
    }

    @Override
    PrivateSubspace fitChecked(AiSource samples, RowSource rows, PrivacyParams budget) {
        long n = Deflation.size(samples);
        int b = batchSize > 0 ? batchSize : Deflation.defaultBatchSize(n);
        ModifiedDpPca modified;
        synchronized (oracle) { // the oracle builder is shared by fits of this instance; build under its lock
            modified = oracle.batchSize(b).learningRate(learningRate).paperLiteral(paperLiteral).build();
        }
        ModifiedDpPca.Preflight pre = modified.preflight(samples.dimension(), budget, (n / k) / b);
        Deflation.Result run = Deflation.run(samples, n, k, modified, budget, random);
        PrivacyGuarantee g = new PrivacyGuarantee("k-DP-PCA (ModifiedDP-PCA + deflation)", budget,
                paperLiteral ? Neighbouring.ADD_REMOVE_ROW : Neighbouring.REPLACE_ROW,
                "one sample A_i (one row x_i, A_i = x_i x_i^T); n and the processing order public",
                "PrivRange: stable histogram, count sensitivity " + (paperLiteral ? 1 : 2) + "; PrivMean: d histograms "
                        + "(Lemma 16) + Gaussian on the clamped mean, L2 sensitivity 2 r sqrt(d)/N; per batch eps/2 + eps/2; "
                        + "parallel composition over batches and chunks",
                "Duengler & Sanyal, An Iterative Algorithm for Differentially Private k-PCA with Adaptive Noise, Algorithms 1, 2, 6 and 7 (k-DP-PCA, ModifiedDP-PCA, PrivRange, PrivMean), Theorems 1 and 9");
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("rows", n);
        extra.put("batchSize", b);
        extra.put("stepsPerRound", (n / k) / b);
        extra.put("paperLiteral", paperLiteral);
        extra.put("preflight", pre.describe());
        java.util.List<String> warnings = new java.util.ArrayList<>();
        warnings.add(modified.warning());
        if (!pre.canRelease()) {
            warnings.add(cannotReleaseWarning(pre));
        }
        return DeflationFits.finish("k-dp-pca", run, rows, learningRate, g, random, warnings, extra);
    }

    /**
     * The pre-flight check this instance would run on n samples in R^d (public values only).
     *
     * @param n      the number of samples
     * @param d      the dimension
     * @param budget the (ε, δ) of the fit
     * @return the pre-flight check
     */
    public ModifiedDpPca.Preflight preflight(long n, int d, PrivacyParams budget) {
        int b = batchSize > 0 ? batchSize : Deflation.defaultBatchSize(n);
        synchronized (oracle) {
            return oracle.batchSize(b).learningRate(learningRate).paperLiteral(paperLiteral).build()
                    .preflight(d, budget, (n / k) / b);
        }
    }

    /**
     * The warning for a run whose histograms cannot release (the output is then essentially a random subspace).
     *
     * @param pre a pre-flight check
     * @return the warning, or null when the histograms can release
     */
    public static String cannotReleaseWarning(ModifiedDpPca.Preflight pre) {
        return "k-dp-pca cannot release at this size: " + pre.describe() + ". Nearly every step is skipped or uses "
                + "centre 0, so the result is close to a random subspace; use --algorithm k-dp-pca-adaptive (this "
                + "project's provably private variant) or k-dp-ojas";
    }
}
