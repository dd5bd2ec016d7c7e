package io.dpspectra.robust;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.Noise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.pca.SubspaceEstimator;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyAccountant;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.privacy.PrivacyProfile;
import io.dpspectra.result.PrivateSubspace;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Geodesic gradient descent on the Grassmannian for the GLAD energy ({@link Glad}): an outlier-robust
 * r-dimensional subspace of rows normalised to the unit sphere. One class covers the four methods of
 * Maunu, Yu &amp; Lerman: GGD (full batch, no noise), NGGD (full batch plus Gaussian noise), SGGD (minibatches)
 * and NSGGD (minibatches plus noise); with the noise calibrated to a privacy budget NGGD is dp-GGD and NSGGD
 * is dp-SGGD ({@link #dpGgd()}, {@link #dpSggd()}). Each step is V ← P_O(V + η_k(G + E)) (projection,
 * default) or V ← Exp_V(η_k(I − VVᵀ)(G + E)) (geodesic), with G the descent direction of {@link Glad} (the
 * paper's eq. (2.1), whose printed sign is corrected there) and η_k = s·2^(−⌊k/L⌋), k = 1..T: restarts with
 * halving step sizes every L iterations (Theorem 5; the paper's experiments use s = 1, L = 50).
 *
 * <p>Privacy (dp presets): the unit is one row, REPLACE_ROW with N public; rows are mapped to the unit
 * sphere one by one (a per-record map), so each row's term of G has Frobenius norm ≤ 1.
 * <ul>
 * <li>dp-GGD ({@link NoiseCalibration#PLD}, the default): the mean over N rows moves by at most Δ = 2/N; T
 * Gaussian releases with noise σ compose exactly to one Gaussian mechanism with μ = √T·Δ/σ (Gaussian DP), so
 * σ = √T·Δ/μ* with μ* the largest μ meeting (ε, δ). With {@link NoiseCalibration#ZCDP}, σ = Δ√(T/(2ρ)),
 * ρ = (√(ε + ln(1/δ)) − √ln(1/δ))² ({@link io.dpspectra.privacy.ComposedGaussian}): 1.3 to 5 times more
 * noise. The paper's Theorem 6 gives no constant.</li>
 * <li>dp-SGGD ({@link NoiseCalibration#PLD}, the default): each row joins each batch independently with
 * probability q = B/N; the batch sum is divided by the fixed B; the noise multiplier z of the batch sum (each
 * row's term of norm ≤ 1) is the smallest whose T-step privacy loss distribution for replace-one (Lebeda et al.
 * 2024, Proposition 13: the exact pair, not group privacy) meets (ε, δ), never optimistic
 * ({@link io.dpspectra.privacy.pld.PldCalibration}). {@link NoiseCalibration#RDP_POISSON} keeps the former Rényi
 * accountant at the add/remove target (ε/2, δ/(1 + e^{ε/2})) with group privacy.</li>
 * <li>{@link NoiseCalibration#PAPER_LITERAL} (reproduction only, NOT private): Theorem 6's printed variances
 * σ² = c·T·ln²(1/δ)/(ε²N²) (full batch) and σ² = c·(B/N)²·T·ln(1/δ)/(ε²N²) (minibatch) with a caller-given
 * c. The minibatch level is about N/B times too small in standard deviation to be private by the standard
 * (moments-accountant) analysis, so such a result carries no guarantee and a warning.</li>
 * </ul>
 * The noise sensitivity also covers the rounding of the floating-point-safe sampler ({@link GaussianNoise}:
 * D·r coordinates moved by at most half the granularity g). The T·D·r noise values of the steps are drawn from
 * one {@link Noise#stream noise stream}: in bulk, ahead of use, every value an independent exact sample of the
 * same discrete Gaussian law as a per-step draw, so the guarantee is the same. A private initialisation
 * ({@link Init#ANALYZE_GAUSS}, or {@link Init#PRIVATE_POWER_METHOD} for large D) gets a declared share of the
 * budget (default 20 %, the rest goes to the iterations); both parts are charged to a
 * {@link PrivacyAccountant} before any row is read (basic composition).
 *
 * <p>Reference: papers/private-robust-pca-grassmannian.txt §2 (GLAD, eq. (2.1), NGGD, NSGGD), Theorems 5
 * and 6, §4.1 (dp-PCA initialisation), §5.1 (step sizes, batch size B = max(N√(ε/(4T)), 1)).
 *
 * <p>Cost: per iteration O(N·D·r) (full batch) or O(B·D·r) (minibatch) plus O(D·r²) for the projection;
 * memory O(N·D) for the rows and O(D·r) otherwise: no D × D matrix except inside an Analyze-Gauss or exact
 * PCA initialisation (used only when D ≤ {@value #DENSE_INIT_MAX_DIMENSION}).
 */
public final class GrassmannDescent implements SubspaceEstimator {
    /** Largest D at which the automatic initialisations form the D × D second-moment matrix. */
    public static final int DENSE_INIT_MAX_DIMENSION = 2000;

    /** The starting basis. */
    public enum Init {
        /** PCA when not private; Analyze Gauss when D ≤ 2000, else the private power method, when private. */
        AUTO,
        /** Top-r eigenvectors of XᵀX (not private). */
        PCA,
        /** Dwork et al.'s Analyze Gauss (forms D × D) with the init share of the budget. */
        ANALYZE_GAUSS,
        /** Hardt &amp; Price's private power method on XᵀX (never forms D × D), with the init share. */
        PRIVATE_POWER_METHOD,
        /** The data-independent basis given by {@link Builder#initialBasis}. */
        GIVEN
    }

    /** How a step returns to the Grassmannian. */
    public enum Step {
        /** V ← P_O(V + ηH), the paper's NGGD/NSGGD update. */
        PROJECTION,
        /** V ← Exp_V(η(I − VVᵀ)H), the geodesic step. */
        GEODESIC
    }

    /** Called after every iteration with its number k (1..T) and the current basis (do not modify it). */
    @FunctionalInterface
    public interface Listener {
        /**
         * Receives iteration {@code k}'s basis.
         *
         * @param k the iteration, 1..T
         * @param v the current D × r basis (do not modify it)
         */
        void afterIteration(int k, Matrix v);
    }

    private static final int POWER_INIT_ITERATIONS = 10;

    private final String name;
    private final int r;
    private final int iterations;
    private final double stepSize;
    private final int stageLength;
    private final int restarts;
    private final int batchSize;
    private final Batch batch;
    private final NoiseCalibration calibration;
    private final double sigma;
    private final double paperConstant;
    private final Init init;
    private final Matrix initialBasis;
    private final double initShare;
    private final Step step;
    private final double tolerance;
    private final RowNorm rowNorm;
    private final RandomSource random;
    private final Listener listener;
    private final double noiseMultiplier;

    private GrassmannDescent(Builder b) {
        this.name = b.name;
        this.r = b.r;
        this.iterations = b.iterations;
        this.stepSize = b.stepSize;
        this.stageLength = b.stageLength;
        this.restarts = b.restarts;
        this.batchSize = b.batchSize;
        this.batch = b.batch;
        this.calibration = b.calibration;
        this.sigma = b.sigma;
        this.paperConstant = b.paperConstant;
        this.init = b.init;
        this.initialBasis = b.initialBasis;
        this.initShare = b.initShare;
        this.step = b.step;
        this.tolerance = b.tolerance;
        this.rowNorm = b.rowNorm;
        this.random = b.random;
        this.listener = b.listener;
        this.noiseMultiplier = b.noiseMultiplier;
    }

    /**
     * GGD: full batch, no noise, PCA start (not private).
     *
     * @return a builder with GGD's defaults
     */
    public static Builder ggd() {
        return new Builder("ggd").batch(Batch.FULL).calibration(NoiseCalibration.NONE);
    }

    /**
     * SGGD: minibatches drawn with replacement, no noise, PCA start (not private).
     *
     * @return a builder with SGGD's defaults
     */
    public static Builder sggd() {
        return new Builder("sggd").batch(Batch.WITH_REPLACEMENT).calibration(NoiseCalibration.NONE);
    }

    /**
     * dp-GGD: full batch, zCDP-calibrated noise, private start (Theorem 6, first part, with our calibration).
     *
     * @return a builder with dp-GGD's defaults
     */
    public static Builder dpGgd() {
        return new Builder("dp-ggd").batch(Batch.FULL).calibration(NoiseCalibration.PLD);
    }

    /**
     * dp-SGGD: Poisson minibatches, Rényi-calibrated noise, private start (Theorem 6, second part, ours).
     *
     * @return a builder with dp-SGGD's defaults
     */
    public static Builder dpSggd() {
        return new Builder("dp-sggd").batch(Batch.POISSON).calibration(NoiseCalibration.PLD);
    }

    /** Configuration; {@link #build()} checks every option. */
    public static final class Builder extends DescentOptions<Builder> {
        private final String name;
        private int stageLength = 50;
        private int restarts;
        private double sigma = Double.NaN;
        private Init init = Init.AUTO;
        private Matrix initialBasis;
        private double initShare = 0.2;
        private Step step = Step.PROJECTION;
        private Listener listener;

        private Builder(String name) {
            super(1.0, Batch.FULL, NoiseCalibration.NONE); // s = 1: the paper's experiments
            this.name = name;
        }

        @Override
        Builder self() {
            return this;
        }

        /**
         * The step size halves every L iterations (Theorem 5's restarts); default 50 (the paper's
         * η_k = 2^(−⌊k/50⌋)). Overridden by {@link #restarts}.
         *
         * @param l the stage length L, ≥ 1
         * @return this builder
         */
        public Builder stageLength(int l) {
            this.stageLength = DpPreconditions.checkAtLeast("stage length", l, 1);
            return this;
        }

        /**
         * R ≥ 1 restarts: T is split into R stages of ⌈T/R⌉ iterations, each with half the step of the last.
         *
         * @param count the number of restarts R
         * @return this builder
         */
        public Builder restarts(int count) {
            this.restarts = DpPreconditions.checkAtLeast("restarts", count, 1);
            return this;
        }

        /**
         * The noise standard deviation of {@link NoiseCalibration#FIXED_SIGMA} (NGGD, NSGGD without a guarantee).
         *
         * @param s σ, &gt; 0
         * @return this builder
         */
        public Builder sigma(double s) {
            this.sigma = DpPreconditions.checkSensitivity("sigma", s);
            return this;
        }

        /**
         * How the starting basis is chosen (default {@link Init#AUTO}).
         *
         * @param i the initialisation
         * @return this builder
         */
        public Builder init(Init i) {
            this.init = Objects.requireNonNull(i, "init");
            return this;
        }

        /**
         * A data-independent D × r starting basis (sets {@link Init#GIVEN}); it is orthonormalised.
         *
         * @param v0 a D × r matrix of full column rank, chosen without looking at the data
         * @return this builder
         */
        public Builder initialBasis(Matrix v0) {
            this.initialBasis = Stiefel.project(Objects.requireNonNull(v0, "initialBasis"));
            this.init = Init.GIVEN;
            return this;
        }

        /**
         * The share of (ε, δ) spent on a private initialisation, in (0, 1); default 0.2 (our choice).
         *
         * @param share the initialisation's share
         * @return this builder
         */
        public Builder initShare(double share) {
            if (!(share > 0 && share < 1)) {
                throw new IllegalArgumentException("the initialisation's budget share must be in (0, 1), got "
                        + share + "; the default is 0.2");
            }
            this.initShare = share;
            return this;
        }

        /**
         * The update rule of each iteration (default {@link Step#PROJECTION}, the paper's).
         *
         * @param s the update rule
         * @return this builder
         */
        public Builder step(Step s) {
            this.step = Objects.requireNonNull(s, "step");
            return this;
        }

        /**
         * A callback after every iteration (for traces in experiments; none by default).
         *
         * @param l the listener
         * @return this builder
         */
        public Builder listener(Listener l) {
            this.listener = Objects.requireNonNull(l, "listener");
            return this;
        }

        /**
         * The estimator with this configuration.
         *
         * @return a new estimator
         * @throws IllegalArgumentException when the configuration is incomplete (no subspace dimension, a fixed-σ or
         *                                  paper-literal calibration without its constant)
         */
        public GrassmannDescent build() {
            checkShared();
            if (calibration == NoiseCalibration.FIXED_SIGMA && Double.isNaN(sigma)) {
                throw new IllegalArgumentException("FIXED_SIGMA noise needs sigma(s)");
            }
            if (calibration == NoiseCalibration.PAPER_LITERAL && Double.isNaN(paperConstant)) {
                throw new IllegalArgumentException("the paper's Theorem 6 gives no value for its constant c; "
                        + "pass paperConstant(c) explicitly");
            }
            if (initialBasis != null && initialBasis.cols() != r) {
                throw new IllegalArgumentException("the initial basis has " + initialBasis.cols()
                        + " columns but components r = " + r);
            }
            return new GrassmannDescent(this);
        }
    }

    /**
     * True when the configured noise carries a privacy guarantee.
     *
     * @return whether {@link #fit} spends its budget with a guarantee
     */
    public boolean isPrivate() {
        return calibration.isPrivate();
    }

    /**
     * The iterations this estimator will run on N rows.
     *
     * @param n the number of rows N
     * @return T (N unless set)
     */
    public int iterationsFor(int n) {
        return iterations > 0 ? iterations : n;
    }

    /**
     * The (expected) batch size on N rows under {@code budget} (null when not private).
     *
     * @param n      the number of rows N
     * @param budget the budget of the fit, or null
     * @return B
     */
    public int batchSizeFor(int n, PrivacyParams budget) {
        if (batch == Batch.FULL) {
            return n;
        }
        return batchSize > 0 ? batchSize
                : NoisySteps.defaultBatchSize(n, iterationsFor(n), budget == null ? 1.0 : budget.epsilon());
    }

    /**
     * η_k for k = 1..T on N rows.
     *
     * @param k the iteration, 1..T
     * @param n the number of rows N
     * @return η_k, &gt; 0
     */
    public double stepSize(int k, int n) {
        int stage = restarts > 0 ? (iterationsFor(n) + restarts - 1) / restarts : stageLength;
        int halvings = restarts > 0 ? (k - 1) / stage : k / stage;
        return stepSize * Math.pow(0.5, halvings);
    }

    @Override
    public int passes() {
        return 1;
    }

    /** Reads the rows once into memory (mapped by the row policy) and fits. */
    @Override
    public PrivateSubspace fit(RowSource rows, PrivacyParams budget) {
        return fitRows(rowNorm.load(rows), budget);
    }

    /**
     * Fits in-memory rows (copied and mapped by the row policy).
     *
     * @param rows   the rows (N × D), not modified
     * @param budget the budget to spend, or null for a non-private configuration
     * @return the estimated basis, with its guarantee and diagnostics
     */
    public PrivateSubspace fit(double[][] rows, PrivacyParams budget) {
        return fitRows(rowNorm.apply(rows), budget);
    }

    private PrivateSubspace fitRows(double[][] x, PrivacyParams budget) {
        int n = x.length;
        if (n == 0) {
            throw new IllegalArgumentException("no rows to fit; the input is empty");
        }
        int d = x[0].length;
        if (r >= d) {
            throw new IllegalArgumentException("components r = " + r + " must be smaller than the number of columns D = "
                    + d + "; choose r < D");
        }
        if (initialBasis != null && initialBasis.rows() != d) {
            throw new IllegalArgumentException("the initial basis has " + initialBasis.rows() + " rows but the data has D = "
                    + d + " columns");
        }
        boolean priv = isPrivate();
        if (priv) {
            Objects.requireNonNull(budget, "budget");
            DpPreconditions.checkPositiveDelta(budget.delta(), name);
        }
        if (calibration == NoiseCalibration.PAPER_LITERAL) {
            Objects.requireNonNull(budget, "budget (the paper-literal noise formula needs epsilon and delta)");
        }
        Init start = resolveInit(priv, d);
        if (priv && start == Init.PCA) {
            throw new IllegalArgumentException("a non-private PCA start would void the guarantee of " + name
                    + "; use ANALYZE_GAUSS, PRIVATE_POWER_METHOD or a data-independent GIVEN basis");
        }
        int t = iterationsFor(n);
        int b = batchSizeFor(n, budget);
        if (batch == Batch.POISSON && b > n) {
            throw new IllegalArgumentException("batch size " + b + " exceeds the number of rows N = " + n
                    + "; choose a batch size of at most N");
        }
        Diagnostics.Builder diag = Diagnostics.builder();
        List<String> warnings = new ArrayList<>();

        // Budget: charge the whole plan before any row is read.
        PrivacyParams initBudget = null;
        PrivacyParams iterBudget = budget;
        PrivacyAccountant accountant = null;
        boolean privateInit = start == Init.ANALYZE_GAUSS || start == Init.PRIVATE_POWER_METHOD;
        if (privateInit) {
            if (budget == null) {
                throw new IllegalArgumentException("a private start (" + start + ") needs a privacy budget");
            }
            initBudget = new PrivacyParams(budget.epsilon() * initShare, budget.delta() * initShare);
            iterBudget = new PrivacyParams(budget.epsilon() * (1 - initShare), budget.delta() * (1 - initShare));
        }
        if (priv) {
            accountant = PrivacyAccountant.total(budget);
            List<PrivacyAccountant.Entry> plan = new ArrayList<>();
            if (privateInit) {
                plan.add(new PrivacyAccountant.Entry("initialisation (" + start + ")", initBudget));
            }
            plan.add(new PrivacyAccountant.Entry(t + " noisy gradient steps", iterBudget));
            accountant.chargePlan(plan);
        }

        double noise = noiseSigma(n, d, b, t, iterBudget, warnings);
        PrivacyProfile[] initOut = new PrivacyProfile[1];
        Matrix v = startingBasis(start, x, d, initBudget, diag, initOut);
        PrivacyProfile initProfile = initOut[0];

        // the T·D·r noise values of all steps, drawn in bulk ahead of use (each an independent exact sample)
        Noise.Stream gaussian = noise > 0 ? new GaussianNoise(random).stream((long) t * d * r, noise) : null;
        for (int k = 1; k <= t; k++) {
            int[] idx = NoisySteps.batch(batch, n, b, random);
            Matrix g = Glad.descentDirection(x, idx, v, b, tolerance);
            if (gaussian != null) {
                gaussian.addTo(g.data());
            }
            double eta = stepSize(k, n);
            v = step == Step.PROJECTION ? Stiefel.project(v.plus(g.scaled(eta))) : Stiefel.exp(v, g.scaled(eta));
            if (listener != null) {
                listener.afterIteration(k, v);
            }
        }

        diag.put("iterations", t).put("batch", batch.name()).put("calibration", calibration.name())
                .put("step", step.name()).put("firstStepSize", stepSize).put("init", start.name());
        if (batch != Batch.FULL) {
            diag.put("batchSize", b);
        }
        if (noise > 0) {
            diag.put("sigma", noise);
            if (stepSize * noise * Math.sqrt((double) d * r) > 1) {
                warnings.add("the first steps' noise (step * sigma * sqrt(D r) = " + stepSize * noise * Math.sqrt((double) d * r)
                        + ") exceeds the unit gradient bound: expect an essentially random subspace");
            }
        }
        if (accountant != null) {
            List<String> ledger = new ArrayList<>();
            for (PrivacyAccountant.Entry e : accountant.ledger()) {
                ledger.add(e.purpose() + ": " + e.params());
            }
            diag.put("ledger", ledger);
        }
        diag.put("seededRandomness", random.isSeeded());
        if (!warnings.isEmpty()) {
            diag.put("warning", String.join("; ", warnings));
        }
        PrivacyGuarantee guarantee = priv ? guarantee(budget, n, b, start)
                .withProfile(initProfile == null ? NoisySteps.stepsProfile(batch, n, b, t, (long) d * r, noise)
                        : PrivacyProfile.compose(initProfile, NoisySteps.stepsProfile(batch, n, b, t, (long) d * r, noise)))
                : null;
        return new PrivateSubspace(name, v, null, guarantee, diag.build());
    }

    private Init resolveInit(boolean priv, int d) {
        if (init != Init.AUTO) {
            return init;
        }
        if (!priv) {
            return Init.PCA;
        }
        return d <= DENSE_INIT_MAX_DIMENSION ? Init.ANALYZE_GAUSS : Init.PRIVATE_POWER_METHOD;
    }

    private Matrix startingBasis(Init start, double[][] x, int d, PrivacyParams initBudget, Diagnostics.Builder diag,
                                 PrivacyProfile[] initProfile) {
        return switch (start) {
            case GIVEN -> {
                if (initialBasis == null) {
                    throw new IllegalArgumentException("init GIVEN needs initialBasis(V0)");
                }
                yield initialBasis;
            }
            case PCA -> Pca.top(x, r);
            case ANALYZE_GAUSS -> {
                PrivateSubspace s = AnalyzeGauss.builder().components(r).neighbouring(Neighbouring.REPLACE_ROW)
                        .randomSource(random).build().fit(InMemoryRows.of(x).clipL2(1.0), initBudget);
                diag.put("initSigma", s.diagnostics().get("sigma"));
                initProfile[0] = s.guarantee().orElseThrow().profile();
                yield s.components();
            }
            case PRIVATE_POWER_METHOD -> {
                PrivateSubspace s = PrivatePowerMethod.builder().components(r).iterations(POWER_INIT_ITERATIONS)
                        .rowNeighbouring(Neighbouring.REPLACE_ROW).randomSource(random).build()
                        .fit(InMemoryRows.of(x).clipL2(1.0), initBudget);
                initProfile[0] = s.guarantee().orElseThrow().profile();
                yield s.components();
            }
            case AUTO -> throw new IllegalStateException("AUTO is resolved before this point");
        };
    }

    /** σ of each step's noise on the mean direction, or 0 for none. */
    private double noiseSigma(int n, int d, int b, int t, PrivacyParams iterBudget, List<String> warnings) {
        long coords = (long) d * r;
        return noiseMultiplier * switch (calibration) {
            case NONE -> 0.0;
            case FIXED_SIGMA -> sigma;
            case PLD, ZCDP, RDP_POISSON -> NoisySteps.privateSigma(calibration, n, b, t, coords, iterBudget);
            case PAPER_LITERAL -> {
                warnings.add("paper-literal noise (Theorem 6 with c = " + paperConstant + "): NOT differentially "
                        + "private by the standard analysis; for reproduction only");
                double eps = iterBudget.epsilon();
                double lnInv = Math.log(1 / iterBudget.delta());
                double var = batch == Batch.FULL
                        ? paperConstant * t * lnInv * lnInv / (eps * eps * (double) n * n)
                        : paperConstant * Math.pow((double) b / n, 2) * t * lnInv / (eps * eps * (double) n * n);
                yield Math.sqrt(var);
            }
        };
    }

    private PrivacyGuarantee guarantee(PrivacyParams budget, int n, int b, Init start) {
        String initPart = switch (start) {
            case ANALYZE_GAUSS -> " after an Analyze-Gauss start (Dwork et al. 2014) with " + initShare + " of the budget";
            case PRIVATE_POWER_METHOD -> " after a private power-method start (Hardt & Price 2014) with " + initShare
                    + " of the budget";
            default -> " from a data-independent start";
        };
        String sens = NoisySteps.sensitivityText(calibration, n, b, "GLAD direction");
        return new PrivacyGuarantee(name + initPart, budget, Neighbouring.REPLACE_ROW,
                "one row, mapped to the unit sphere (" + rowNorm.describe() + ")", sens,
                "Maunu, Yu & Lerman, Stochastic and Private Nonconvex Outlier-Robust PCA (MSML 2022): eq. (2.1) (sign corrected), "
                        + "NGGD/NSGGD updates of §2.2, Theorem 6 (noise recalibrated: " + (calibration == NoiseCalibration.PLD
                        ? "privacy loss distributions" : "zCDP / Renyi DP") + ")");
    }
}
