package io.dpspectra.pca;

import io.dpspectra.linalg.Projector;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.noise.StableHistogram;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * ModifiedDP-PCA ([DS] Alg. 2): a private estimate of the top eigenvector of P Σ P from one chunk of
 * samples by minibatch Oja steps whose gradient mean is released by PrivMean
 * ({@link HistogramClampedMean}) with a range from {@link PrivRange} (adaptive noise). Used as the oracle of
 * {@link KDpPca}.
 *
 * <p>Privacy: (ε, δ)-DP in its chunk; the unit is one sample A_i, neighbouring = replace one with m and
 * the order public (spec §0.1, §8 #9). Every batch of B samples is read by one step only, so the steps
 * compose in parallel (spec §8 #10). Within a step ({@link BatchUse#PAPER_SAME_HALF}, the default and
 * Alg. 2 as printed): PrivRange and PrivMean each get (ε/2, δ/2) on the same first ⌊B/2⌋ gradients (basic
 * composition). {@link BatchUse#DISJOINT_HALVES}: PrivRange reads the first half, PrivMean the second,
 * each with the full (ε, δ) (parallel composition). With a public {@code rangeOverride} PrivRange is
 * skipped and PrivMean gets the full (ε, δ). A ⊥ from PrivRange or a zero update skips the step
 * (post-processing). {@code paperLiteral} calibrates the histograms for add/remove (count sensitivity 1)
 * as the paper claims; that is NOT provably private with positional batches and is flagged.
 *
 * <p>Reference: papers/kdp-pca-adaptive-noise.txt Alg. 2, Thm. 9, App. G.1; spec
 * stochastic-and-power-methods.md §2.2, §8 #1, #5, #8, #15, #35.
 *
 * <p>Cost: per step O(B·d·(i+1)) for the gradients plus O(⌊B/2⌋·d) for PrivMean; memory O(B·d); no
 * d × d matrix. One pass over the chunk.
 */
public final class ModifiedDpPca implements Deflation.Oracle {
    /** Which gradients PrivRange and PrivMean read (spec §8 #1). */
    public enum BatchUse {
        /** Both read the same half of the batch, as the paper prints it (each spends half the budget). */
        PAPER_SAME_HALF,
        /** Each reads its own half of the batch (parallel composition: each spends the whole budget). */
        DISJOINT_HALVES
    }

    private final int batchSize;
    private final LearningRate learningRate;
    private final double tau;
    private final double c1;
    private final double tailK;
    private final double tailA;
    private final BatchUse batchUse;
    private final double rangeOverride;
    private final boolean paperLiteral;

    private ModifiedDpPca(Builder b) {
        this.batchSize = b.batchSize;
        this.learningRate = b.learningRate;
        this.tau = b.tau;
        this.c1 = b.c1;
        this.tailK = b.tailK;
        this.tailA = b.tailA;
        this.batchUse = b.batchUse;
        this.rangeOverride = b.rangeOverride;
        this.paperLiteral = b.paperLiteral;
    }

    /**
     * A builder; {@code batchSize} is required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration; every constant the paper leaves open has the spec's default. */
    public static final class Builder {
        private int batchSize = -1;
        private LearningRate learningRate = LearningRate.paperOja();
        private double tau = 0.01;
        private double c1 = 1;
        private double tailK = 1;
        private double tailA = 1;
        private BatchUse batchUse = BatchUse.PAPER_SAME_HALF;
        private double rangeOverride = Double.NaN;
        private boolean paperLiteral;

        /**
         * B ≥ 4 (required; {@link KDpPca} defaults it to ⌊√n⌋, App. G.1 and spec §8 #8).
         *
         * @param b B
         * @return this builder
         */
        public Builder batchSize(int b) {
            this.batchSize = DpPreconditions.checkAtLeast("batchSize", b, 4);
            return this;
        }

        /**
         * Default 1/(1 + t); the experiments use {@link LearningRate#appendixG}.
         *
         * @param eta the schedule
         * @return this builder
         */
        public Builder learningRate(LearningRate eta) {
            this.learningRate = Objects.requireNonNull(eta, "learningRate");
            return this;
        }

        /**
         * Failure probability τ ∈ (0, 1), default 0.01 (Thm. 9; spec §2.2).
         *
         * @param tau τ
         * @return this builder
         */
        public Builder tau(double tau) {
            if (!(tau > 0 && tau < 1)) {
                throw new IllegalArgumentException("tau must be in (0, 1), got " + tau);
            }
            this.tau = tau;
            return this;
        }

        /**
         * PrivRange's subset constant C1, default 1 (spec §8 #3).
         *
         * @param c1 C1, &gt; 0
         * @return this builder
         */
        public Builder c1(double c1) {
            this.c1 = DpPreconditions.checkPositive("C1", c1);
            return this;
        }

        /**
         * Tail constants K and a of Assumption A.4, default 1 and 1 (App. G.1).
         *
         * @param k K
         * @param a a
         * @return this builder
         */
        public Builder tail(double k, double a) {
            this.tailK = DpPreconditions.checkPositive("K", k);
            this.tailA = DpPreconditions.checkPositive("a", a);
            return this;
        }

        /**
         * Default {@link BatchUse#PAPER_SAME_HALF}.
         *
         * @param use which gradients the two estimators read
         * @return this builder
         */
        public Builder batchUse(BatchUse use) {
            this.batchUse = Objects.requireNonNull(use, "batchUse");
            return this;
        }

        /**
         * A PUBLIC range L̂ (App. G.3) replacing PrivRange; never compute it from the data. NaN = off.
         *
         * @param lHat L̂, or NaN
         * @return this builder
         */
        public Builder rangeOverride(double lHat) {
            this.rangeOverride = Double.isNaN(lHat) ? lHat : DpPreconditions.checkPositive("rangeOverride", lHat);
            return this;
        }

        /**
         * Histograms calibrated for add/remove as the paper claims (not provably private; warns).
         *
         * @param on whether to use the paper-literal calibration
         * @return this builder
         */
        public Builder paperLiteral(boolean on) {
            this.paperLiteral = on;
            return this;
        }

        /**
         * The oracle with this configuration.
         *
         * @return a new oracle
         * @throws IllegalArgumentException when {@code batchSize} was not set
         */
        public ModifiedDpPca build() {
            if (batchSize < 0) {
                throw new IllegalArgumentException("batchSize was not set; call batchSize(B) with B >= 4");
            }
            return new ModifiedDpPca(this);
        }
    }

    /**
     * The minibatch size B.
     *
     * @return B
     */
    public int batchSize() {
        return batchSize;
    }

    /**
     * Whether the per-step histograms can release at all (spec §6 "Reproduction risk"): PrivMean's coordinate
     * histograms see N = ⌊B/2⌋ values and need N above their threshold T_mean (with ε_h·N &lt; 1 no
     * (ε_h, δ_h)-DP locator can find a centre, by group privacy); PrivRange's histogram sees s subset
     * eigenvalues and needs s above T_range. Public: a function of B, d, ε, δ, τ and the step count only.
     */
    public record Preflight(int meanValues, double meanThreshold, double meanEpsilon, int rangeItems,
                            double rangeThreshold) {
        /**
         * Whether both histograms can release.
         *
         * @return true when both counts clear their thresholds
         */
        public boolean canRelease() {
            return meanValues > meanThreshold && rangeItems > rangeThreshold;
        }

        /**
         * The smallest batch size whose ⌊B/2⌋ clears PrivMean's threshold.
         *
         * @return B
         */
        public long batchSizeNeeded() {
            return 2 * ((long) Math.floor(meanThreshold) + 1);
        }

        /**
         * The check in words and numbers, for a warning.
         *
         * @return the description
         */
        public String describe() {
            return String.format(java.util.Locale.ROOT, "PrivMean: %d values per coordinate histogram (eps_h = %.3g, "
                    + "eps_h * N = %.3g) against a release threshold of %.0f, so it needs batch size B >= %d (with the "
                    + "default B = floor(sqrt(n)): n >= %.2g); PrivRange: %s", meanValues, meanEpsilon,
                    meanEpsilon * meanValues, meanThreshold, batchSizeNeeded(),
                    (double) batchSizeNeeded() * batchSizeNeeded(), rangeItems == Integer.MAX_VALUE ? "skipped (public range)"
                            : String.format(java.util.Locale.ROOT, "%d subset eigenvalues against a threshold of %.1f",
                            rangeItems, rangeThreshold));
        }
    }

    /**
     * The pre-flight check for dimension d and {@code steps} steps per round (see {@link Preflight}).
     *
     * @param d      the dimension
     * @param budget the round's (ε, δ)
     * @param steps  the steps per round
     * @return the pre-flight check
     */
    public Preflight preflight(int d, PrivacyParams budget, long steps) {
        Neighbouring rel = paperLiteral ? Neighbouring.ADD_REMOVE_ROW : Neighbouring.REPLACE_ROW;
        boolean hasRange = !Double.isNaN(rangeOverride);
        PrivacyParams each = hasRange || batchUse == BatchUse.DISJOINT_HALVES ? budget
                : PrivacyParams.of(budget.epsilon() / 2, budget.delta() / 2);
        int h = batchSize / 2;
        PrivacyParams hist = HistogramClampedMean.histogramBudget(each, d);
        double meanThreshold = StableHistogram.threshold(hist, rel);
        int items = hasRange ? Integer.MAX_VALUE
                : PrivRange.of(c1, rel).subsets(h / 2, each, tau / (2.0 * Math.max(1, steps)));
        double rangeThreshold = hasRange ? 0 : StableHistogram.threshold(each, rel);
        return new Preflight(h, meanThreshold, hist.epsilon(), items, rangeThreshold);
    }

    /**
     * A warning for the result's diagnostics, or null.
     *
     * @return the warning, or null
     */
    public String warning() {
        return paperLiteral ? "paper-literal k-DP-PCA: histograms calibrated for add/remove (count sensitivity 1) "
                + "as [DS] claims; with positional batches only replace-one is proven, so "
                + "this release is NOT certified (epsilon, delta)-DP" : null;
    }

    @Override
    public double[] topDirection(Deflation.Chunk chunk, Projector p, int round, PrivacyParams budget,
                                 RandomSource random, Deflation.Log log) {
        DpPreconditions.checkPositiveDelta(budget.delta(), "ModifiedDP-PCA");
        long m = chunk.size();
        if (m < batchSize) {
            throw new IllegalArgumentException("ModifiedDP-PCA needs at least batchSize = " + batchSize
                    + " samples per round, got m = " + m + "; use a smaller batch size or more rows");
        }
        long steps = m / batchSize;
        int d = p.dimension();
        int h = batchSize / 2;
        Neighbouring rel = paperLiteral ? Neighbouring.ADD_REMOVE_ROW : Neighbouring.REPLACE_ROW;
        PrivRange range = PrivRange.of(c1, rel);
        HistogramClampedMean mean = HistogramClampedMean.of(tailK, tailA, rel);
        boolean hasRange = !Double.isNaN(rangeOverride);
        boolean disjoint = batchUse == BatchUse.DISJOINT_HALVES;
        PrivacyParams each = hasRange || disjoint ? budget : PrivacyParams.of(budget.epsilon() / 2, budget.delta() / 2);
        double tauStep = tau / (2.0 * steps);
        double[][] grads = new double[2 * h][d];
        double[] w = Deflation.randomUnit(p, random);
        for (long t = 1; t <= steps; t++) {
            int needed = disjoint ? 2 * h : h;
            for (int j = 0; j < batchSize; j++) {
                SampleMatrix a = chunk.next();
                if (j < needed) {
                    a.times(w, grads[j]);
                    p.applyInPlace(grads[j]);
                }
            }
            double lHat;
            if (hasRange) {
                lHat = rangeOverride;
            } else {
                OptionalDouble est = range.estimate(grads, h, each, tauStep, random);
                log.count("privRangeCalls", 1);
                if (est.isEmpty()) {
                    log.count("privRangeBottom", 1);
                    continue;
                }
                lHat = est.getAsDouble();
            }
            double[][] meanInput = grads;
            if (disjoint) {
                meanInput = java.util.Arrays.copyOfRange(grads, h, 2 * h);
            }
            HistogramClampedMean.Estimate est = mean.estimate(meanInput, h, lHat, each, tauStep, random);
            log.count("privMeanCalls", 1);
            log.count("privMeanCoordinateFallbacks", est.fallbacks());
            double[] g = est.mean();
            p.applyInPlace(g);
            double eta = learningRate.eta(round, t);
            double[] next = w.clone();
            Vectors.axpy(eta, g, next);
            p.applyInPlace(next);
            double nrm = Vectors.normalizeInPlace(next);
            if (!(nrm > 0) || !Double.isFinite(nrm)) {
                log.count("skippedUpdates", 1);
                continue;
            }
            w = next;
        }
        log.count("steps", steps);
        return w;
    }
}
