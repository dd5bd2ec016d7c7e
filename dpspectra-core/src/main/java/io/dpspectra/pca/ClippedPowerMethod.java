package io.dpspectra.pca;

import io.dpspectra.Diagnostics;
import io.dpspectra.covariance.SecondMomentSensitivity;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.Clipping;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.noise.RandomSubspace;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.util.Objects;

/**
 * DP-Power-Method ([DS] Sec. 5 / App. G, after Nicolas et al. 2024): the private power method of Hardt
 * &amp; Price on XᵀX of rows clipped in L2 (to β) and L1 (to α₁), with entry-level Gaussian noise scaled
 * by α₁·β·‖X_{l−1}‖_∞, returning a d × k orthonormal basis after L iterations.
 *
 * <p>Privacy: (ε, δ)-DP; the unit is one row, neighbouring = add/remove one row (the paper's; replace-one
 * doubles the noise). For C = a aᵀ with ‖a‖₂ ≤ β, ‖a‖₁ ≤ α₁, column j of C·X has L2 norm
 * ≤ ‖a‖₂‖a‖₁‖X_j‖_∞ ≤ α₁β‖X‖_∞, so each of the p·L column releases is a Gaussian mechanism with
 * sensitivity α₁β‖X_{l−1}‖_∞ (X_{l−1} is itself a released value) and noise multiplier
 * σ_HP = √(4pL ln(1/δ))/ε; by zCDP composition ρ = ε²/(8 ln(1/δ)), which is (ε, δ)-DP whenever
 * ε ≤ 8(1 − 1/√2)·ln(1/δ) ≈ 2.34 ln(1/δ) (enforced). The clip factor min(1, β/‖x‖₂, α₁/‖x‖₁) is the spec's
 * rank-one form of min(1, β/√Tr A, α₁/Σ√A_jj).
 *
 * <p>Reference: Hardt &amp; Price (papers/noisy-power-method.txt) Fig. 3, Lemma 4.5; DP-Power-Method in
 * papers/kdp-pca-adaptive-noise.txt Sec. 5 and App. G; spec stochastic-and-power-methods.md §2.7, §3.3,
 * §8 #25 (p = k, L = max(1, ⌈ln d⌉)).
 *
 * <p>Cost: one pass O(nd²) for XᵀX, then L·(O(d²k) + O(dk²)); memory O(d²).
 */
public final class ClippedPowerMethod implements SubspaceEstimator {
    private final int k;
    private final int iterations;
    private final double l2Bound;
    private final double l1Bound;
    private final Neighbouring neighbouring;
    private final RandomSource random;
    private final double noiseMultiplier;

    private ClippedPowerMethod(Builder b) {
        this.k = b.k;
        this.iterations = b.iterations;
        this.l2Bound = b.l2Bound;
        this.l1Bound = b.l1Bound;
        this.neighbouring = b.neighbouring;
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
    public static final class Builder extends SubspaceOptions<Builder> {
        private int iterations;
        private double l2Bound = Double.NaN;
        private double l1Bound = Double.NaN;
        private Neighbouring neighbouring = Neighbouring.ADD_REMOVE_ROW;
        private double noiseMultiplier = 1;

        @Override
        Builder self() {
            return this;
        }

        /**
         * L ≥ 1; 0 (default) means max(1, ⌈ln d⌉) (spec §2.7).
         *
         * @param l L
         * @return this builder
         */
        public Builder iterations(int l) {
            this.iterations = DpPreconditions.checkAtLeast("iterations", l, 0);
            return this;
        }

        /**
         * β, the L2 clip (public); default: the rows' declared L2 bound.
         *
         * @param beta β, &gt; 0
         * @return this builder
         */
        public Builder l2Bound(double beta) {
            this.l2Bound = DpPreconditions.checkBound("l2Bound", beta);
            return this;
        }

        /**
         * α₁, the L1 clip (public); default √d·β (then no row is L1-clipped).
         *
         * @param alpha1 α₁, &gt; 0
         * @return this builder
         */
        public Builder l1Bound(double alpha1) {
            this.l1Bound = DpPreconditions.checkBound("l1Bound", alpha1);
            return this;
        }

        /**
         * Default ADD_REMOVE_ROW; REPLACE_ROW doubles the noise.
         *
         * @param n the relation the guarantee is stated for
         * @return this builder
         */
        public Builder neighbouring(Neighbouring n) {
            this.neighbouring = Objects.requireNonNull(n, "neighbouring");
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
        public ClippedPowerMethod build() {
            checkSubspaceOptions();
            return new ClippedPowerMethod(this);
        }
    }

    /**
     * σ_HP = √(4pL ln(1/δ))/ε, after checking ε ≤ 8(1 − 1/√2) ln(1/δ).
     *
     * @param p          the block size
     * @param iterations L
     * @param budget     (ε, δ), δ &gt; 0
     * @return σ_HP
     * @throws IllegalArgumentException when ε is above the bound
     */
    public static double noiseMultiplier(int p, int iterations, PrivacyParams budget) {
        double logInv = Math.log(1 / budget.delta());
        if (budget.epsilon() > 8 * (1 - 1 / Math.sqrt(2)) * logInv) {
            throw new IllegalArgumentException("DP-Power-Method's zCDP calibration needs epsilon <= 2.34 ln(1/delta) = "
                    + 8 * (1 - 1 / Math.sqrt(2)) * logInv + ", got " + budget.epsilon() + "; lower epsilon or delta");
        }
        return Math.sqrt(4 * p * iterations * logInv) / budget.epsilon();
    }

    /**
     * The number of iterations L for dimension d: the configured L, or max(1, ⌈ln d⌉).
     *
     * @param d the dimension
     * @return L
     */
    public int iterationsFor(int d) {
        return iterations > 0 ? iterations : Math.max(1, (int) Math.ceil(Math.log(d)));
    }

    /**
     * One noisy product Y = X·q + G from the given start q (the Gaussian release of the first iteration;
     * everything after it is post-processing): package-private, for audit tests only.
     */
    Matrix noisyProductForAuditTests(RowSource rows, PrivacyParams budget, Matrix q) {
        int d = rows.dimension();
        double beta = Double.isNaN(l2Bound) ? SecondMomentSensitivity.rowL2Bound(rows, "DP-Power-Method") : l2Bound;
        double alpha1 = Double.isNaN(l1Bound) ? Math.sqrt(d) * beta : l1Bound;
        Matrix x = GramPass.of(Clipping.l1(alpha1).clip(Clipping.l2(beta).clip(rows))).gram();
        return noisyProduct(x, q, alpha1, beta, noiseMultiplier(q.cols(), iterationsFor(d), budget),
                new GaussianNoise(random));
    }

    /**
     * Y = X·q + G with G i.i.d. N(0, std²), std = (2 under REPLACE_ROW) · α₁β·‖q‖_max·σ_HP: one Gaussian
     * release of the method (times the audit tests' noise multiplier, 1 otherwise).
     */
    private Matrix noisyProduct(Matrix x, Matrix q, double alpha1, double beta, double sigmaHp, GaussianNoise noise) {
        double relation = neighbouring == Neighbouring.REPLACE_ROW ? 2 : 1;
        Matrix y = x.times(q);
        noise.addNoiseInPlace(y.data(), noiseMultiplier * relation * alpha1 * beta * q.maxAbs() * sigmaHp);
        return y;
    }

    @Override
    public PrivateSubspace fit(RowSource rows, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        int d = rows.dimension();
        DpPreconditions.checkComponents(k, d);
        DpPreconditions.checkPositiveDelta(budget.delta(), "DP-Power-Method");
        double beta = Double.isNaN(l2Bound) ? SecondMomentSensitivity.rowL2Bound(rows, "DP-Power-Method") : l2Bound;
        double alpha1 = Double.isNaN(l1Bound) ? Math.sqrt(d) * beta : l1Bound;
        int l = iterationsFor(d);
        double sigmaHp = noiseMultiplier(k, l, budget);
        ClippedRows l2 = Clipping.l2(beta).clip(rows);
        ClippedRows clipped = Clipping.l1(alpha1).clip(l2);
        GramPass pass = GramPass.of(clipped);
        Matrix x = pass.gram();
        Matrix q = RandomSubspace.basis(d, k, random);
        GaussianNoise noise = new GaussianNoise(random);
        for (int it = 0; it < l; it++) {
            q = Orthonormal.qr(noisyProduct(x, q, alpha1, beta, sigmaHp, noise));
        }
        Diagnostics.Builder diag = Diagnostics.builder().put("rows", pass.rows()).put("iterations", l)
                .put("l2Bound", beta).put("l1Bound", alpha1).put("noiseMultiplierSigmaHP", sigmaHp);
        if (rows instanceof ClippedRows c && c.clippedRows() >= 0) {
            diag.put("clippedRows", c.clippedRows());
        }
        diag.put("l2ClippedRows", l2.clippedRows()).put("l1ClippedRows", clipped.clippedRows());
        diag.put("seededRandomness", random.isSeeded());
        diag.put("note", Diagnostics.PRIVATE_KEYS_NOTE);
        PrivacyGuarantee g = new PrivacyGuarantee("DP-Power-Method (clipped private power method)", budget, neighbouring,
                "one row with ||x||_2 <= " + beta + " and ||x||_1 <= " + alpha1,
                "per column release L2 sensitivity " + (neighbouring == Neighbouring.REPLACE_ROW ? "2*" : "") + "alpha1*beta*||X_{l-1}||_inf; "
                        + "sigma_HP = sqrt(4 p L ln(1/delta))/eps over p*L = " + (k * l) + " releases (zCDP)",
                "Hardt & Price, The Noisy Power Method: A Meta Algorithm with Applications (NeurIPS 2014), Fig. 3 and Lemma 4.5; the DP-Power-Method baseline of Duengler & Sanyal, An Iterative Algorithm for Differentially Private k-PCA with Adaptive Noise, Sec. 5 and App. G",
                // what runs: k·L Gaussian column releases, each with μ = (1 + η)/(multiplier·σ_HP), η the rounding
                new io.dpspectra.privacy.PrivacyProfile.Gaussian(Math.nextUp(Math.sqrt((double) k * l)
                        * (1 + Math.sqrt((double) d) * noiseMultiplier * sigmaHp * 0x1.0p-43) / (noiseMultiplier * sigmaHp))));
        return new PrivateSubspace("dp-power-method", q, null, g, diag.build());
    }
}
