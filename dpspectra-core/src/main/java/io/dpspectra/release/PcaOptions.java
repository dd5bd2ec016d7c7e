package io.dpspectra.release;

import io.dpspectra.pca.GaussOutputPerturbation;
import io.dpspectra.pca.ModifiedDpPca;
import io.dpspectra.robust.RowNorm;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The algorithm-specific options of the private PCA estimators of {@link Algorithms}, typed, with the
 * defaults {@code dpspectra fit} documents; an option left unset ("null" below) takes the core builder's own
 * default. Immutable; made by a {@link Builder}, which records which options were given
 * ({@link #given()}), so that a release refuses an option the chosen algorithm does not read rather than
 * ignore it. Values are checked by the algorithm that reads them ({@link PcaAlgorithm#check}), since the
 * valid range can depend on the algorithm (a batch of at least 1 or at least 4).
 *
 * <p>Every option is a public hyper-parameter: choose it from domain knowledge or the paper, never from the
 * data.
 */
public final class PcaOptions {
    /** k-dp-pca's default failure probability τ of PrivRange and PrivMean (Thm. 9). */
    public static final double DEFAULT_TAU = 0.01;
    /** k-dp-pca's default PrivRange subset constant C1 (the spec's). */
    public static final double DEFAULT_C1 = 1;
    /** k-dp-pca-adaptive's default clip radius factor. */
    public static final double DEFAULT_RADIUS_FACTOR = 4;
    /** ad's default failure probability β of Amin et al.'s Corollary 1 (the paper's experiments do not state it). */
    public static final double DEFAULT_IES_FAILURE_PROBABILITY = 0.05;
    /** dp-ggd's and dp-sggd's default share of the budget for the private start. */
    public static final double DEFAULT_INIT_SHARE = 0.2;

    private static final PcaOptions DEFAULTS = builder().build();

    private final Integer batchSize;
    private final StepSchedule learningRate;
    private final Double gradientClip;
    private final boolean paperLiteral;
    private final double tau;
    private final Double publicRange;
    private final double c1;
    private final ModifiedDpPca.BatchUse batchUse;
    private final double radiusFactor;
    private final double[] publicEigenvalues;
    private final Double l1Bound;
    private final Integer dpPowerIterations;
    private final GaussOutputPerturbation.OnSmallGap onSmallGap;
    private final Integer iterations;
    private final Integer blockSize;
    private final Double perturbationSigma;
    private final double iesFailureProbability;
    private final boolean skipLastVector;
    private final boolean eigenvalues;
    private final Double stepSize;
    private final Integer restarts;
    private final RowNorm rowNorm;
    private final boolean geodesic;
    private final double initShare;
    private final Double paperConstant;
    private final Set<Setting> given;

    private PcaOptions(Builder b) {
        batchSize = b.batchSize;
        learningRate = b.learningRate;
        gradientClip = b.gradientClip;
        paperLiteral = b.paperLiteral;
        tau = b.tau;
        publicRange = b.publicRange;
        c1 = b.c1;
        batchUse = b.batchUse;
        radiusFactor = b.radiusFactor;
        publicEigenvalues = b.publicEigenvalues == null ? null : b.publicEigenvalues.clone();
        l1Bound = b.l1Bound;
        dpPowerIterations = b.dpPowerIterations;
        onSmallGap = b.onSmallGap;
        iterations = b.iterations;
        blockSize = b.blockSize;
        perturbationSigma = b.perturbationSigma;
        iesFailureProbability = b.iesFailureProbability;
        skipLastVector = b.skipLastVector;
        eigenvalues = b.eigenvalues;
        stepSize = b.stepSize;
        restarts = b.restarts;
        rowNorm = b.rowNorm;
        geodesic = b.geodesic;
        initShare = b.initShare;
        paperConstant = b.paperConstant;
        given = Collections.unmodifiableSet(b.given.isEmpty() ? EnumSet.noneOf(Setting.class) : EnumSet.copyOf(b.given));
    }

    /**
     * Every option at its default.
     *
     * @return the option
     */
    public static PcaOptions defaults() {
        return DEFAULTS;
    }

    /**
     * A builder with every option at its default.
     *
     * @return this builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The options that were given (set on the builder), in {@link Setting}'s order.
     *
     * @return the option
     */
    public Set<Setting> given() {
        return given;
    }

    /**
     * Samples per step (k-dp-ojas, k-dp-pca, k-dp-pca-adaptive, oja, the robust methods), or null for the
     * algorithm's default.
     *
     * @return the option
     */
    public Integer batchSize() {
        return batchSize;
    }

    /**
     * The Oja-type step-size schedule; default {@code inverseTime(1, 1)}.
     *
     * @return the option
     */
    public StepSchedule learningRate() {
        return learningRate;
    }

    /**
     * k-dp-ojas' gradient clip β, or null for the square of the row bound (no gradient clipped).
     *
     * @return the option
     */
    public Double gradientClip() {
        return gradientClip;
    }

    /**
     * The papers' printed constants where they are not provably private; default false.
     *
     * @return the option
     */
    public boolean paperLiteral() {
        return paperLiteral;
    }

    /**
     * k-dp-pca's τ; default {@value #DEFAULT_TAU}.
     *
     * @return the option
     */
    public double tau() {
        return tau;
    }

    /**
     * k-dp-pca's public range override, or null for PrivRange.
     *
     * @return the option
     */
    public Double publicRange() {
        return publicRange;
    }

    /**
     * k-dp-pca's C1; default {@value #DEFAULT_C1}.
     *
     * @return the option
     */
    public double c1() {
        return c1;
    }

    /**
     * k-dp-pca's batch use; default the paper's same half.
     *
     * @return the option
     */
    public ModifiedDpPca.BatchUse batchUse() {
        return batchUse;
    }

    /**
     * k-dp-pca-adaptive's radius factor; default {@value #DEFAULT_RADIUS_FACTOR}.
     *
     * @return the option
     */
    public double radiusFactor() {
        return radiusFactor;
    }

    /**
     * k-dp-pca-adaptive's public eigenvalues: those given, else the λ of an App. G.1 learning rate, else none.
     *
     * @return the option
     */
    public double[] publicEigenvalues() {
        return publicEigenvalues != null ? publicEigenvalues.clone() : learningRate.lambdas();
    }

    /** The public eigenvalues as given, or null when none were given (a check reads these). */
    double[] givenPublicEigenvalues() {
        return publicEigenvalues;
    }

    /**
     * dp-power-method's L1 clip, or null for √d times the row bound (no L1 clipping).
     *
     * @return the option
     */
    public Double l1Bound() {
        return l1Bound;
    }

    /**
     * dp-power-method's iterations, or null for max(1, ⌈ln d⌉).
     *
     * @return the option
     */
    public Integer dpPowerIterations() {
        return dpPowerIterations;
    }

    /**
     * dp-gauss-2's behaviour on a failed gap test; default refuse.
     *
     * @return the option
     */
    public GaussOutputPerturbation.OnSmallGap onSmallGap() {
        return onSmallGap;
    }

    /**
     * Iterations of the power and robust methods, or null for their defaults.
     *
     * @return the option
     */
    public Integer iterations() {
        return iterations;
    }

    /**
     * Block size p ≥ k of the power methods, or null for k.
     *
     * @return the option
     */
    public Integer blockSize() {
        return blockSize;
    }

    /**
     * noisy-power's test perturbation σ, or null for none.
     *
     * @return the option
     */
    public Double perturbationSigma() {
        return perturbationSigma;
    }

    /**
     * ad's β; default {@value #DEFAULT_IES_FAILURE_PROBABILITY}.
     *
     * @return the option
     */
    public double iesFailureProbability() {
        return iesFailureProbability;
    }

    /**
     * it-u and ad: spend nothing on the last of d vectors; default false.
     *
     * @return the option
     */
    public boolean skipLastVector() {
        return skipLastVector;
    }

    /**
     * it-u: also buy and release the eigenvalues; default false.
     *
     * @return the option
     */
    public boolean eigenvalues() {
        return eigenvalues;
    }

    /**
     * The robust methods' first step size, or null for the paper's.
     *
     * @return the option
     */
    public Double stepSize() {
        return stepSize;
    }

    /**
     * The Grassmannian descents' restarts, or null for halving every 50 iterations.
     *
     * @return the option
     */
    public Integer restarts() {
        return restarts;
    }

    /**
     * The robust methods' row map; default onto the unit sphere.
     *
     * @return the option
     */
    public RowNorm rowNorm() {
        return rowNorm;
    }

    /**
     * Geodesic steps of the Grassmannian descents; default false.
     *
     * @return the option
     */
    public boolean geodesic() {
        return geodesic;
    }

    /**
     * dp-ggd's and dp-sggd's share for the private start; default {@value #DEFAULT_INIT_SHARE}.
     *
     * @return the option
     */
    public double initShare() {
        return initShare;
    }

    /**
     * The paper-literal noise constant c, or null.
     *
     * @return the option
     */
    public Double paperConstant() {
        return paperConstant;
    }

    /** Builds {@link PcaOptions}; each setter records its option as given. Values are checked by the algorithm. */
    public static final class Builder {
        private Integer batchSize;
        private StepSchedule learningRate = StepSchedule.defaultSchedule();
        private Double gradientClip;
        private boolean paperLiteral;
        private double tau = DEFAULT_TAU;
        private Double publicRange;
        private double c1 = DEFAULT_C1;
        private ModifiedDpPca.BatchUse batchUse = ModifiedDpPca.BatchUse.PAPER_SAME_HALF;
        private double radiusFactor = DEFAULT_RADIUS_FACTOR;
        private double[] publicEigenvalues;
        private Double l1Bound;
        private Integer dpPowerIterations;
        private GaussOutputPerturbation.OnSmallGap onSmallGap = GaussOutputPerturbation.OnSmallGap.FAIL;
        private Integer iterations;
        private Integer blockSize;
        private Double perturbationSigma;
        private double iesFailureProbability = DEFAULT_IES_FAILURE_PROBABILITY;
        private boolean skipLastVector;
        private boolean eigenvalues;
        private Double stepSize;
        private Integer restarts;
        private RowNorm rowNorm = RowNorm.SPHERE;
        private boolean geodesic;
        private double initShare = DEFAULT_INIT_SHARE;
        private Double paperConstant;
        private final Set<Setting> given = EnumSet.noneOf(Setting.class);

        private Builder() {
        }

        private Builder given(Setting s) {
            given.add(s);
            return this;
        }

        /**
         * See {@link PcaOptions#batchSize()}.
         *
         * @param b the option's value
         * @return this builder
         */
        public Builder batchSize(int b) {
            batchSize = b;
            return given(Setting.BATCH_SIZE);
        }

        /**
         * See {@link PcaOptions#learningRate()}.
         *
         * @param s the option's value
         * @return this builder
         */
        public Builder learningRate(StepSchedule s) {
            learningRate = java.util.Objects.requireNonNull(s, "learningRate");
            return given(Setting.LEARNING_RATE);
        }

        /**
         * See {@link PcaOptions#gradientClip()}.
         *
         * @param beta the option's value
         * @return this builder
         */
        public Builder gradientClip(double beta) {
            gradientClip = beta;
            return given(Setting.GRADIENT_CLIP);
        }

        /**
         * See {@link PcaOptions#paperLiteral()}.
         *
         * @param on the option's value
         * @return this builder
         */
        public Builder paperLiteral(boolean on) {
            paperLiteral = on;
            return given(Setting.PAPER_LITERAL);
        }

        /**
         * See {@link PcaOptions#tau()}.
         *
         * @param t the option's value
         * @return this builder
         */
        public Builder tau(double t) {
            tau = t;
            return given(Setting.TAU);
        }

        /**
         * See {@link PcaOptions#publicRange()}.
         *
         * @param l the option's value
         * @return this builder
         */
        public Builder publicRange(double l) {
            publicRange = l;
            return given(Setting.PUBLIC_RANGE);
        }

        /**
         * See {@link PcaOptions#c1()}.
         *
         * @param c the option's value
         * @return this builder
         */
        public Builder c1(double c) {
            c1 = c;
            return given(Setting.C1);
        }

        /**
         * See {@link PcaOptions#batchUse()}.
         *
         * @param use the option's value
         * @return this builder
         */
        public Builder batchUse(ModifiedDpPca.BatchUse use) {
            batchUse = java.util.Objects.requireNonNull(use, "batchUse");
            return given(Setting.BATCH_USE);
        }

        /**
         * See {@link PcaOptions#radiusFactor()}.
         *
         * @param c the option's value
         * @return this builder
         */
        public Builder radiusFactor(double c) {
            radiusFactor = c;
            return given(Setting.RADIUS_FACTOR);
        }

        /**
         * See {@link PcaOptions#publicEigenvalues()}. Not modified: the array (copied).
         *
         * @param lambdas the option's value
         * @return this builder
         */
        public Builder publicEigenvalues(double... lambdas) {
            publicEigenvalues = lambdas.clone();
            return given(Setting.PUBLIC_EIGENVALUES);
        }

        /**
         * See {@link PcaOptions#l1Bound()}.
         *
         * @param a the option's value
         * @return this builder
         */
        public Builder l1Bound(double a) {
            l1Bound = a;
            return given(Setting.L1_BOUND);
        }

        /**
         * See {@link PcaOptions#dpPowerIterations()}.
         *
         * @param l the option's value
         * @return this builder
         */
        public Builder dpPowerIterations(int l) {
            dpPowerIterations = l;
            return given(Setting.DP_POWER_ITERATIONS);
        }

        /**
         * See {@link PcaOptions#onSmallGap()}.
         *
         * @param g the option's value
         * @return this builder
         */
        public Builder onSmallGap(GaussOutputPerturbation.OnSmallGap g) {
            onSmallGap = java.util.Objects.requireNonNull(g, "onSmallGap");
            return given(Setting.ON_SMALL_GAP);
        }

        /**
         * See {@link PcaOptions#iterations()}.
         *
         * @param l the option's value
         * @return this builder
         */
        public Builder iterations(int l) {
            iterations = l;
            return given(Setting.ITERATIONS);
        }

        /**
         * See {@link PcaOptions#blockSize()}.
         *
         * @param p the option's value
         * @return this builder
         */
        public Builder blockSize(int p) {
            blockSize = p;
            return given(Setting.BLOCK_SIZE);
        }

        /**
         * See {@link PcaOptions#perturbationSigma()}.
         *
         * @param s the option's value
         * @return this builder
         */
        public Builder perturbationSigma(double s) {
            perturbationSigma = s;
            return given(Setting.PERTURBATION_SIGMA);
        }

        /**
         * See {@link PcaOptions#iesFailureProbability()}.
         *
         * @param beta the option's value
         * @return this builder
         */
        public Builder iesFailureProbability(double beta) {
            iesFailureProbability = beta;
            return given(Setting.IES_FAILURE_PROBABILITY);
        }

        /**
         * See {@link PcaOptions#skipLastVector()}.
         *
         * @param on the option's value
         * @return this builder
         */
        public Builder skipLastVector(boolean on) {
            skipLastVector = on;
            return given(Setting.SKIP_LAST_VECTOR);
        }

        /**
         * See {@link PcaOptions#eigenvalues()}.
         *
         * @param on the option's value
         * @return this builder
         */
        public Builder eigenvalues(boolean on) {
            eigenvalues = on;
            return given(Setting.EIGENVALUES);
        }

        /**
         * See {@link PcaOptions#stepSize()}.
         *
         * @param s the option's value
         * @return this builder
         */
        public Builder stepSize(double s) {
            stepSize = s;
            return given(Setting.STEP_SIZE);
        }

        /**
         * See {@link PcaOptions#restarts()}.
         *
         * @param r the option's value
         * @return this builder
         */
        public Builder restarts(int r) {
            restarts = r;
            return given(Setting.RESTARTS);
        }

        /**
         * See {@link PcaOptions#rowNorm()}.
         *
         * @param n the option's value
         * @return this builder
         */
        public Builder rowNorm(RowNorm n) {
            rowNorm = java.util.Objects.requireNonNull(n, "rowNorm");
            return given(Setting.ROW_NORM);
        }

        /**
         * See {@link PcaOptions#geodesic()}.
         *
         * @param on the option's value
         * @return this builder
         */
        public Builder geodesic(boolean on) {
            geodesic = on;
            return given(Setting.GEODESIC);
        }

        /**
         * See {@link PcaOptions#initShare()}.
         *
         * @param f the option's value
         * @return this builder
         */
        public Builder initShare(double f) {
            initShare = f;
            return given(Setting.INIT_SHARE);
        }

        /**
         * See {@link PcaOptions#paperConstant()}.
         *
         * @param c the option's value
         * @return this builder
         */
        public Builder paperConstant(double c) {
            paperConstant = c;
            return given(Setting.PAPER_CONSTANT);
        }

        /**
         * The options.
         *
         * @return the option
         */
        public PcaOptions build() {
            return new PcaOptions(this);
        }
    }
}
