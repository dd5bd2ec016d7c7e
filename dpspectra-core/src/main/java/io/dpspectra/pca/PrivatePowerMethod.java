package io.dpspectra.pca;

import io.dpspectra.Diagnostics;
import io.dpspectra.covariance.SecondMomentSensitivity;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.RowGramOperator;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricOperator;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.LaplaceNoise;
import io.dpspectra.noise.Noise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The private power method (PPM): a differentially private d × p orthonormal basis X_L of the top
 * invariant subspace of a symmetric matrix A, and its top-k columns, by L noisy power steps
 * Y_ℓ = A·X_{ℓ−1} + G_ℓ, X_ℓ = QR(Y_ℓ) with Gaussian (or Laplace) noise G_ℓ.
 *
 * <p>Privacy: with σ = ε⁻¹√(4pL ln(1/δ)) (Fig. 3) and a {@link PpmNoise} variant:
 * <ul>
 * <li>{@link PpmNoise#ENTRY_LEVEL_GAUSSIAN} (default for explicit matrices): G_ℓ has i.i.d.
 * N(0, (s·‖X_{ℓ−1}‖∞·σ)²) entries; unit: one entry of A changes by at most s ({@link Neighbouring#MATRIX_ENTRY},
 * Def. 4.1, Claim 4.2). Each of the p·L column products A·x has L2 sensitivity s‖x‖∞ ≤ s‖X_{ℓ−1}‖∞;
 * ‖X_{ℓ−1}‖∞ is a function of the previous release, so scaling by it is allowed.
 * For a symmetric pair of entries (a,b),(b,a) as the unit use {@link Builder#symmetricPairUnit()}
 * (s = √2; spec §8 #34).</li>
 * <li>{@link PpmNoise#SPECTRAL_GAUSSIAN}: N(0, (s·σ)²) entries; unit: ‖A − A'‖₂ ≤ s
 * ({@link Neighbouring#SPECTRAL_NORM}, Def. 4.4, Lemma 4.5).</li>
 * <li>{@link PpmNoise#SPECTRAL_LAPLACE}: Lap(s·10pL√d/ε) entries, pure (ε, 0)-DP for ‖A − A'‖₂ ≤ s
 * (Lemma 4.5; L1 sensitivity per column √d·s, p·L columns, a factor 10 of slack).</li>
 * <li>{@link PpmNoise#ROW_L1_GAUSSIAN}: the entry-level noise for the relation of Nicolas et al.</li>
 * </ul>
 * Budget: all of (ε, δ) is spent on the p·L noisy column products. {@link Calibration#EXACT} (the default): the p·L
 * Gaussian releases, each with μ = (1 + η)/σ in units of its sensitivity (η the sampler's rounding, ≤ √d·σ·2⁻⁴³),
 * compose exactly to one Gaussian mechanism with μ = √(pL)(1 + η)/σ (Dong, Roth &amp; Su 2022, Corollary 3.3), so
 * σ is the smallest with that μ meeting (ε, δ) — 0.52 to 0.79 of Fig. 3's σ at δ = 1e-6 for ε from 0.25 to 16 — for every ε.
 * {@link Calibration#PAPER}: Fig. 3's σ = ε⁻¹√(4pL ln(1/δ)), checked through zCDP (spec §3.3 [ours]:
 * ρ = ε²/(8 ln(1/δ)), giving (ρ + 2√(ρ ln(1/δ)), δ) ⊆ (ε, δ) exactly when ε ≤ 8(1 − 1/√2)·ln(1/δ) ≈ 2.34 ln(1/δ);
 * larger ε are refused, with the rounding of the floating-point-safe sampler included in ρ), for reproducing the
 * paper.
 * On rows ({@link #fit}), A = XᵀX and one row with ‖x‖₂ ≤ β changes A by at most β² in spectral
 * norm (add/remove: ‖xxᵀ‖ = ‖x‖²; replace: xxᵀ − yyᵀ has eigenvalues in [−β², β²]), so the spectral
 * variants run with s = β² under ADD_REMOVE_ROW or REPLACE_ROW. All noise comes from
 * {@link GaussianNoise} / {@link LaplaceNoise}.
 *
 * <p>Utility (Thm 1.3): after L = O(σ_k/(σ_k − σ_{k+1})·log d) steps, with probability 9/10,
 * ‖(I − X_LX_Lᵀ)U‖ = O(σ·max‖X_ℓ‖∞·√(d log L)/(σ_k − σ_{k+1}) · √p/(√p − √(k−1))); Thm 1.4 replaces
 * max‖X_ℓ‖∞·√d by √(μ(A) log d) ({@link Coherence}). p ≥ k is supported: p = k + Ω(k) makes the last
 * factor a constant, at the price of σ ∝ √p.
 *
 * <p>Reference: papers/noisy-power-method.txt Fig. 3, Def. 4.1, Claim 4.2, Def. 4.4, Lemma 4.5, Thm 1.3,
 * Thm 1.4; spec stochastic-and-power-methods.md §3.3 and §8 #30, #31, #34.
 *
 * <p>Cost: L products A·X (O(L·nnz·p) sparse, O(L·d²p) dense, L passes over rows), d·p noise samples
 * and a d × p QR per step; memory O(d·p) beyond A. Each step's noise is prepared before its product
 * ({@link io.dpspectra.noise.Noise#prepare}) and drawn on the other cores meanwhile: on a sparse graph
 * with d = 1e5, nnz = 2e6, p = 10 a private step costs 1.2–2.0× one product A·X
 * (docs/benchmarks/power-method.md).
 */
public final class PrivatePowerMethod {
    /** How the Gaussian noise of the p·L column products is set for (ε, δ). */
    public enum Calibration {
        /** The smallest σ whose exact (GDP) composition over the p·L products meets (ε, δ): the default. */
        EXACT,
        /** Fig. 3's σ = ε⁻¹√(4pL ln(1/δ)) (valid for ε ≤ 2.34 ln(1/δ)): for reproducing the paper. */
        PAPER
    }

    private final int k;
    private final int p;
    private final int iterations;
    private final PpmNoise noise;
    private final double sensitivityScale;
    private final double unitScale;
    private final boolean symmetricPairs;
    private final Neighbouring rowNeighbouring;
    private final Matrix initialBasis;
    private final RandomSource random;
    private final Matrix truth;
    private final Calibration calibration;
    /** Test hook: multiplies the calibrated noise scale (1 in every public configuration). */
    private final double noiseMultiplier;

    private PrivatePowerMethod(Builder b) {
        this.k = b.k;
        this.p = b.blockSizeOrK();
        this.iterations = b.iterations;
        this.noise = b.noise;
        this.unitScale = b.sensitivityScale;
        this.symmetricPairs = b.symmetricPairs;
        this.sensitivityScale = b.sensitivityScale * (b.symmetricPairs ? Math.sqrt(2) : 1.0);
        this.rowNeighbouring = b.rowNeighbouring;
        this.initialBasis = b.initialBasis;
        this.random = b.random;
        this.truth = b.truth;
        this.calibration = b.calibration;
        this.noiseMultiplier = b.noiseMultiplier;
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
    public static final class Builder extends PowerMethodOptions<Builder> {
        private PpmNoise noise = PpmNoise.ENTRY_LEVEL_GAUSSIAN;
        private double sensitivityScale = 1.0;
        private boolean symmetricPairs;
        private Neighbouring rowNeighbouring = Neighbouring.ADD_REMOVE_ROW;
        private Matrix initialBasis;
        private Calibration calibration = Calibration.EXACT;
        private double noiseMultiplier = 1.0;

        @Override
        Builder self() {
            return this;
        }

        /**
         * How σ is set for (ε, δ): {@link Calibration#EXACT} (default) or Fig. 3's {@link Calibration#PAPER}.
         *
         * @param calibration the calibration
         * @return this builder
         */
        public Builder calibration(Calibration calibration) {
            this.calibration = Objects.requireNonNull(calibration, "calibration");
            return this;
        }

        /**
         * The noise variant and relation for explicit matrices (default {@link PpmNoise#ENTRY_LEVEL_GAUSSIAN}).
         *
         * @param noise the noise variant
         * @return this builder
         */
        public Builder noise(PpmNoise noise) {
            this.noise = Objects.requireNonNull(noise, "noise");
            return this;
        }

        /**
         * s: the size of one neighbouring change (default 1, as in Def. 4.1/4.4).
         *
         * @param s s, &gt; 0
         * @return this builder
         */
        public Builder sensitivityScale(double s) {
            this.sensitivityScale = DpPreconditions.checkSensitivity("sensitivityScale", s);
            return this;
        }

        /**
         * The unit is a symmetric pair of entries (a,b),(b,a), each changing by at most the sensitivity scale:
         * the effective s is multiplied by √2 (spec §8 #34). For the entry-level variants only.
         *
         * @return this builder
         */
        public Builder symmetricPairUnit() {
            this.symmetricPairs = true;
            return this;
        }

        /**
         * The row relation of {@link #fit} (default ADD_REMOVE_ROW; both give s = β²).
         *
         * @param neighbouring the row relation
         * @return this builder
         */
        public Builder rowNeighbouring(Neighbouring neighbouring) {
            Objects.requireNonNull(neighbouring, "rowNeighbouring");
            if (neighbouring != Neighbouring.ADD_REMOVE_ROW && neighbouring != Neighbouring.REPLACE_ROW) {
                throw new IllegalArgumentException("rowNeighbouring must be ADD_REMOVE_ROW or REPLACE_ROW, got "
                        + neighbouring);
            }
            this.rowNeighbouring = neighbouring;
            return this;
        }

        /**
         * X_0 (d × p; orthonormalised). Must not depend on A. Default: uniformly random.
         *
         * @param x0 X_0
         * @return this builder
         */
        public Builder initialBasis(Matrix x0) {
            this.initialBasis = Objects.requireNonNull(x0, "initialBasis").copy();
            return this;
        }

        /**
         * Scales the noise by {@code m}: package-private, for the auditor's deliberately broken twin in tests
         * only. A value below 1 makes the release NOT (ε, δ)-DP.
         */
        Builder noiseMultiplierForAuditTests(double m) {
            this.noiseMultiplier = DpPreconditions.checkPositive("noiseMultiplier", m);
            return this;
        }

        /**
         * The method with this configuration.
         *
         * @return a new method
         */
        public PrivatePowerMethod build() {
            checkShared();
            if (symmetricPairs && (noise == PpmNoise.SPECTRAL_GAUSSIAN || noise == PpmNoise.SPECTRAL_LAPLACE)) {
                throw new IllegalArgumentException("symmetricPairUnit() applies to the entry-level noise variants; for "
                        + noise + " give the spectral-norm bound of one change with sensitivityScale(s)");
            }
            return new PrivatePowerMethod(this);
        }
    }

    /**
     * Fig. 3's σ = ε⁻¹√(4·p·L·ln(1/δ)).
     *
     * @param p          the block size
     * @param iterations L
     * @param budget     (ε, δ), δ &gt; 0
     * @return σ
     */
    public static double sigma(int p, int iterations, PrivacyParams budget) {
        DpPreconditions.checkAtLeast("blockSize", p, 1);
        DpPreconditions.checkAtLeast("iterations", iterations, 1);
        DpPreconditions.checkPositiveDelta(budget.delta(), "the private power method (Gaussian noise)");
        return Math.sqrt(4.0 * p * iterations * Math.log(1 / budget.delta())) / budget.epsilon();
    }

    /**
     * The smallest σ (per unit of sensitivity) whose p·L Gaussian releases on d coordinates meet (ε, δ) exactly:
     * σ = A/(1 − A·c) with A = √(pL)/μ*(ε, δ) and c = √d·2⁻⁴³, so that μ = √(pL)(1 + c·σ)/σ = μ* covers the
     * sampler's rounding (each coordinate moved by at most half its granularity g ≤ 2⁻⁴³·σ·scale).
     *
     * @param p          the block size
     * @param iterations L
     * @param d          the dimension
     * @param budget     the (ε, δ), δ &gt; 0
     * @return σ per unit of sensitivity
     */
    public static double exactSigma(int p, int iterations, int d, PrivacyParams budget) {
        DpPreconditions.checkAtLeast("blockSize", p, 1);
        DpPreconditions.checkAtLeast("iterations", iterations, 1);
        DpPreconditions.checkPositiveDelta(budget.delta(), "the private power method (Gaussian noise)");
        double a = Math.sqrt((double) p * iterations) / io.dpspectra.privacy.pld.GaussianPrivacy.mu(budget);
        double c = Math.sqrt((double) d) * 0x1.0p-43;
        return Math.nextUp(a / (1 - a * c));
    }

    /** σ per unit of sensitivity for this instance's calibration (Gaussian variants). */
    double baseSigma(int d, PrivacyParams budget) {
        return calibration == Calibration.PAPER ? sigma(p, iterations, budget) : exactSigma(p, iterations, d, budget);
    }

    /**
     * Lemma 4.5's Laplace scale λ = 10·p·L·√d/ε (for s = 1).
     *
     * @param p          the block size
     * @param iterations L
     * @param d          the dimension
     * @param epsilon    ε, &gt; 0
     * @return λ
     */
    public static double laplaceScale(int p, int iterations, int d, double epsilon) {
        DpPreconditions.checkEpsilon(epsilon);
        return 10.0 * p * iterations * Math.sqrt(d) / epsilon;
    }

    /**
     * The ε actually achieved by Gaussian noise σ·(sensitivity) on p·L column products, through zCDP:
     * ρ = (1 + η)²·p·L/(2σ²) and ε' = ρ + 2√(ρ ln(1/δ)), where η bounds the relative sensitivity
     * inflation from rounding d coordinates to the sampler's granularity (≤ √d·σ·2⁻⁴³).
     *
     * @param p          the block size
     * @param iterations L
     * @param d          the dimension
     * @param budget     the (ε, δ) σ was calibrated for
     * @return ε'
     */
    public static double gaussianEpsilonAchieved(int p, int iterations, int d, PrivacyParams budget) {
        double sigma = sigma(p, iterations, budget);
        double eta = Math.sqrt(d) * sigma * 0x1.0p-43;
        double rho = (1 + eta) * (1 + eta) * p * (double) iterations / (2 * sigma * sigma);
        double lnInv = Math.log(1 / budget.delta());
        return rho + 2 * Math.sqrt(rho * lnInv);
    }

    /**
     * μ(A), see {@link Coherence#of(Matrix)}.
     *
     * @param a a d × d symmetric matrix
     * @return μ(A)
     */
    public static double coherence(Matrix a) {
        return Coherence.of(a);
    }

    /**
     * The number of passes {@link #fit} makes over rows: L.
     *
     * @return L
     */
    public int passes() {
        return iterations;
    }

    /**
     * Runs Fig. 3 on the explicit symmetric matrix {@code a} with the configured {@link PpmNoise} variant and
     * returns X_L, its ordered top-k and the trace.
     *
     * @param a      A, d × d symmetric
     * @param budget the (ε, δ) to spend
     * @return X_L, its ordered top-k and the trace, with the guarantee
     */
    public PowerMethodResult iterate(SymmetricOperator a, PrivacyParams budget) {
        return iterate(a, budget, noise, sensitivityScale, noise == PpmNoise.SPECTRAL_GAUSSIAN
                || noise == PpmNoise.SPECTRAL_LAPLACE ? Neighbouring.SPECTRAL_NORM : Neighbouring.MATRIX_ENTRY,
                unitFor(noise, unitScale, symmetricPairs));
    }

    /**
     * Runs Fig. 3 on {@code a} and returns the top-k as a {@link PrivateSubspace}.
     *
     * @param a      A, d × d symmetric
     * @param budget the (ε, δ) to spend
     * @return the top-k basis with its guarantee
     */
    public PrivateSubspace release(SymmetricOperator a, PrivacyParams budget) {
        PowerMethodResult r = iterate(a, budget);
        return toSubspace(r, budget, noise, sensitivityScale, "explicit symmetric matrix (d = " + a.dimension() + ")");
    }

    /**
     * Runs on A = XᵀX of bounded rows (one pass per iteration, XᵀX never formed), with spectral noise for
     * s = β²·sensitivityScale: Gaussian when δ &gt; 0 ({@link PpmNoise#SPECTRAL_GAUSSIAN}, or the configured
     * variant if it is spectral), Laplace ({@link PpmNoise#SPECTRAL_LAPLACE}) when δ = 0.
     *
     * @param rows   the rows; they must declare an L2 bound β
     * @param budget the (ε, δ) to spend
     * @return the top-k basis with its guarantee
     */
    public PrivateSubspace fit(RowSource rows, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        double beta = SecondMomentSensitivity.rowL2Bound(rows, "PrivatePowerMethod");
        PpmNoise variant = budget.isPure() || noise == PpmNoise.SPECTRAL_LAPLACE ? PpmNoise.SPECTRAL_LAPLACE
                : PpmNoise.SPECTRAL_GAUSSIAN;
        double s = beta * beta * sensitivityScale;
        RowGramOperator a = RowGramOperator.of(rows);
        PowerMethodResult r = iterate(a, budget, variant, s, rowNeighbouring,
                "one row with L2 norm <= " + beta + " (changes A = X^T X by at most " + s + " in spectral norm)");
        PrivateSubspace base = toSubspace(r, budget, variant, s, "X^T X of rows (d = " + rows.dimension() + ")");
        Diagnostics.Builder diag = Diagnostics.builder().putAll(base.diagnostics()).put("rows", a.lastRowCount());
        if (rows instanceof ClippedRows c && c.clippedRows() >= 0) {
            diag.put("clippedRows", c.clippedRows());
        }
        return new PrivateSubspace(base.algorithm(), base.components(), null, base.guarantee().orElseThrow(),
                diag.build());
    }

    private static String unitFor(PpmNoise variant, double unit, boolean pairs) {
        double s = unit * (pairs ? Math.sqrt(2) : 1.0);
        return switch (variant) {
            case ENTRY_LEVEL_GAUSSIAN -> pairs ? "a symmetric pair of entries (a,b), (b,a) of A changes by at most "
                    + unit + " each (s = sqrt(2) * " + unit + ")" : "one entry of A changes by at most " + unit;
            case SPECTRAL_GAUSSIAN, SPECTRAL_LAPLACE -> "A - A' with spectral norm at most " + s;
            case ROW_L1_GAUSSIAN -> "A - A' with sqrt(sum over rows a of ||(A - A')_a||_1^2) <= " + s
                    + " (contains: one entry changes by at most " + s + ")";
        };
    }

    private PowerMethodResult iterate(SymmetricOperator a, PrivacyParams budget, PpmNoise variant, double s,
                                      Neighbouring relation, String unit) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(budget, "budget");
        int d = a.dimension();
        PowerIterations.checkShape(d, k, p);
        Matrix x0 = PowerIterations.checkInitialBasis(initialBasis, d, p);
        boolean gaussian = variant != PpmNoise.SPECTRAL_LAPLACE;
        final double base;
        final Noise sampler;
        PrivacyParams spent;
        String sensitivity;
        if (gaussian) {
            DpPreconditions.checkPositiveDelta(budget.delta(), "the private power method with " + variant + " noise");
            if (calibration == Calibration.PAPER) {
                double achieved = gaussianEpsilonAchieved(p, iterations, d, budget);
                if (!(achieved <= budget.epsilon())) {
                    throw new IllegalArgumentException("epsilon = " + budget.epsilon() + " is too large for the Gaussian "
                            + "calibration sigma = sqrt(4 p L ln(1/delta))/epsilon with delta = " + budget.delta()
                            + ": it only gives epsilon' = " + achieved + " (it needs epsilon <= about 2.34 ln(1/delta) = "
                            + 2.34 * Math.log(1 / budget.delta()) + "); lower epsilon or delta, or use the exact "
                            + "calibration");
                }
            }
            base = baseSigma(d, budget);
            sampler = new GaussianNoise(random);
            spent = budget;
            sensitivity = (variant == PpmNoise.SPECTRAL_GAUSSIAN ? "L2 sensitivity " + s + " per column product"
                    : "L2 sensitivity " + s + " * ||X_(l-1)||_inf per column product")
                    + " over p*L = " + (p * iterations) + " products; " + (calibration == Calibration.PAPER
                    ? "sigma = sqrt(4pL ln(1/delta))/epsilon = " + base
                    : "sigma = " + base + ", the smallest whose exact (Gaussian DP) composition over the p*L products "
                            + "meets (epsilon, delta)");
        } else {
            base = laplaceScale(p, iterations, d, budget.epsilon());
            double slack = (double) p * iterations * d * 0x1.0p-43;
            if (slack > 0.9 * budget.epsilon()) {
                throw new IllegalArgumentException("p*L*d = " + ((double) p * iterations * d) + " is too large for the"
                        + " Laplace calibration's rounding slack at epsilon = " + budget.epsilon());
            }
            sampler = new LaplaceNoise(random);
            spent = PrivacyParams.pure(budget.epsilon());
            sensitivity = "L1 sensitivity sqrt(d)*" + s + " per column product over p*L = " + (p * iterations)
                    + " products; Laplace scale 10 p L sqrt(d)/epsilon = " + base + " (times " + s + ")";
        }
        // what runs: p·L Gaussian releases with μ = (1 + η)/(multiplier·σ) each (η ≤ √d·multiplier·σ·2^-43), or pure ε
        double eta = Math.sqrt((double) d) * noiseMultiplier * base * 0x1.0p-43;
        io.dpspectra.privacy.PrivacyProfile profile = gaussian
                ? new io.dpspectra.privacy.PrivacyProfile.Gaussian(Math.nextUp(Math.sqrt((double) p * iterations)
                        * (1 + eta) / (noiseMultiplier * base)))
                : io.dpspectra.privacy.PrivacyProfile.of(spent);
        PrivacyGuarantee guarantee = new PrivacyGuarantee("PrivatePowerMethod (" + variant + ")", spent, relation,
                unit, sensitivity, "Hardt & Price, The Noisy Power Method: A Meta Algorithm with Applications (NeurIPS 2014), Fig. 3 (private power method), Claim 4.2 and Lemma 4.5"
                        + (gaussian && calibration == Calibration.EXACT ? ", noise calibrated by exact Gaussian composition" : ""),
                profile);
        PowerIterations.Step step = new PowerIterations.Step() {
            private double last = Double.NaN;

            @Override
            public Matrix product(int iteration, Matrix previous) {
                double scale = noiseMultiplier * s * base
                        * (variant == PpmNoise.ENTRY_LEVEL_GAUSSIAN || variant == PpmNoise.ROW_L1_GAUSSIAN
                        ? previous.maxAbs() : 1.0);
                // the noise does not depend on A·X: it is drawn on the other cores while the product runs
                Noise.Prepared noise = sampler.prepare(d * p, scale);
                Matrix y = a.times(previous);
                noise.addTo(y.data());
                last = scale;
                return y;
            }

            @Override
            public double lastNoiseScale() {
                return last;
            }
        };
        return PowerIterations.run(d, p, k, iterations, x0, step, random, truth, true, guarantee);
    }

    private PrivateSubspace toSubspace(PowerMethodResult r, PrivacyParams budget, PpmNoise variant, double s,
                                       String input) {
        List<Double> maxAbs = new ArrayList<>();
        List<Double> scales = new ArrayList<>();
        for (PowerMethodResult.Iteration it : r.trace()) {
            maxAbs.add(it.previousMaxAbs());
            scales.add(it.noiseScale());
        }
        Diagnostics.Builder diag = Diagnostics.builder()
                .put("noise", variant.name())
                .put("iterations", iterations)
                .put("blockSize", p)
                .put("sensitivityScale", s)
                .put("input", input);
        if (variant != PpmNoise.SPECTRAL_LAPLACE) {
            diag.put("sigma", baseSigma(r.basis().rows(), budget)).put("calibration", calibration.name());
        } else {
            diag.put("laplaceScale", laplaceScale(p, iterations, r.basis().rows(), budget.epsilon()));
        }
        diag.put("noiseScalePerIteration", scales)
                .put("maxAbsPreviousIterate", maxAbs)
                .put("singularValuesOfLastProduct", Arrays.copyOf(r.singularValues(), k))
                .put("seededRandomness", random.isSeeded());
        if (truth != null) {
            List<Double> sin = new ArrayList<>();
            r.trace().forEach(it -> sin.add(it.sinThetaK()));
            diag.put("sinThetaKPerIteration (NOT private: uses the truth)", sin);
        }
        diag.put("note", "X_L and everything computed from the noisy products Y_l is private post-processing; "
                + Diagnostics.PRIVATE_KEYS_NOTE);
        return new PrivateSubspace("private-power", r.components(), null, r.guarantee(), diag.build());
    }
}
