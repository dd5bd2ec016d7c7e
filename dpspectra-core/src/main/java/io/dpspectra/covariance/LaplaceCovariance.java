package io.dpspectra.covariance;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.LaplaceNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;
import java.util.Objects;

/**
 * Releases XᵀX plus a symmetric Laplace noise matrix (the Laplace baseline "L" of Amin et al.),
 * optionally with its eigenvalues clamped to a public range.
 *
 * <p>Privacy: pure ε-DP; the unit is one row with ‖x‖₂ ≤ β (β from the source's declared bound).
 * Independent Laplace noise of scale Δ₁/ε is added to each of the d(d+1)/2 upper-triangle entries
 * (diagonal included) and mirrored, where Δ₁ is the L1 sensitivity of the upper triangle (derivations in
 * {@link SecondMomentSensitivity}): {@link Sensitivity#PAPER} Δ₁ = 2dβ² (the paper's constant, with the
 * spec's fix of the printed "2d/6" to 2d/ε), or {@link Sensitivity#TIGHT} Δ₁ = √(d(d+1))·β² under
 * REPLACE_ROW and (d+1)β²/2 under ADD_REMOVE_ROW. The default relation is REPLACE_ROW (n public), under
 * which eigenvalues are clamped to [0, nβ²]; under ADD_REMOVE_ROW they are clamped to [0, ∞). Clamping
 * and mirroring are post-processing. The whole budget ε is spent in the one release; δ is not used.
 *
 * <p>Reference: papers/dp-covariance-estimation.txt (Amin et al. 2019), baseline L; spec
 * robust-local-covariance.md §5.3, §5.6, §1.4 and A-C5.
 *
 * <p>Cost: one pass, O(nd²) for XᵀX, O(d²) noise, O(d³) for the clamp; memory O(d²).
 */
public final class LaplaceCovariance implements CovarianceEstimator {
    /** Which L1 sensitivity the noise is calibrated to. */
    public enum Sensitivity {
        /** 2dβ²: Amin et al.'s constant (spec §5.3 default); valid under both relations, loose. */
        PAPER,
        /** √(d(d+1))·β² (replace) or (d+1)β²/2 (add/remove): the tight values of spec §1.4. */
        TIGHT
    }

    private final Neighbouring neighbouring;
    private final RandomSource random;
    private final Sensitivity sensitivity;
    private final boolean clamp;
    /** Test hook: multiplies the calibrated noise scale (1 in every public configuration). */
    private final double noiseMultiplier;

    private LaplaceCovariance(Builder b) {
        this.neighbouring = b.neighbouring;
        this.random = b.randomOrSecure();
        this.sensitivity = b.sensitivity;
        this.clamp = b.clamp;
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

    /** Configuration: the shared options ({@code neighbouring}, {@code randomSource}, {@code clampEigenvalues}) and the sensitivity. */
    public static final class Builder extends NoisySecondMoment.Options<Builder> {
        private Sensitivity sensitivity = Sensitivity.PAPER;

        @Override
        Builder self() {
            return this;
        }

        /**
         * Default {@link Sensitivity#PAPER} (spec §5.3).
         *
         * @param sensitivity which L1 sensitivity the noise is calibrated to
         * @return this builder
         */
        public Builder sensitivity(Sensitivity sensitivity) {
            this.sensitivity = Objects.requireNonNull(sensitivity, "sensitivity");
            return this;
        }

        /**
         * The estimator with this configuration.
         *
         * @return a new estimator
         */
        public LaplaceCovariance build() {
            return new LaplaceCovariance(this);
        }
    }

    /**
     * The L1 sensitivity the noise is calibrated to for dimension d and row bound β.
     *
     * @param d          the dimension
     * @param rowL2Bound β, &gt; 0
     * @return the L1 sensitivity of the upper triangle of XᵀX
     */
    public double l1Sensitivity(int d, double rowL2Bound) {
        return sensitivity == Sensitivity.PAPER
                ? SecondMomentSensitivity.l1UpperTrianglePaper(d, rowL2Bound)
                : SecondMomentSensitivity.l1UpperTriangleTight(d, rowL2Bound, neighbouring);
    }

    @Override
    public PrivateCovariance release(RowSource rows, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        double rowBound = SecondMomentSensitivity.rowL2Bound(rows, "LaplaceCovariance");
        return release(rows.dimension(), rowBound, budget,
                scale -> NoisySecondMoment.of(rows, new LaplaceNoise(random), scale));
    }

    /**
     * The release from C = XᵀX given directly; the caller asserts that C is exactly XᵀX for n rows of L2
     * norm ≤ {@code rowL2Bound} (used by experiments that reuse one Gram matrix). Not modified: gram.
     *
     * @param gram       C = XᵀX, d × d
     * @param n          the number of rows, ≥ 1
     * @param rowL2Bound β, the L2 bound of every row
     * @param budget     the ε to spend (δ is not used)
     * @return the released matrix with its guarantee
     */
    public PrivateCovariance releaseFromTrustedGram(Matrix gram, long n, double rowL2Bound, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        DpPreconditions.checkBound("rowL2Bound", rowL2Bound);
        return release(gram.rows(), rowL2Bound, budget,
                scale -> NoisySecondMoment.ofTrustedGram(gram, n, new LaplaceNoise(random), scale));
    }

    /**
     * The Laplace scale of every released entry for dimension d, row bound β and {@code budget}.
     *
     * @param d the dimension
     * @param rowL2Bound the row bound β
     * @param budget the release's budget (its ε)
     * @return the Laplace scale b of each entry
     */
    public double scale(int d, double rowL2Bound, PrivacyParams budget) {
        return noiseMultiplier * LaplaceNoise.scaleFor(l1Sensitivity(d, rowL2Bound), budget.epsilon());
    }

    private PrivateCovariance release(int d, double beta, PrivacyParams budget,
                                      java.util.function.DoubleFunction<NoisySecondMoment> noisy) {
        double delta1 = l1Sensitivity(d, beta);
        double scale = scale(d, beta, budget);
        NoisySecondMoment.Released r = NoisySecondMoment.clampIfAsked(noisy.apply(scale), clamp, neighbouring, beta);
        PrivacyParams spent = PrivacyParams.pure(budget.epsilon());
        PrivacyGuarantee guarantee = new PrivacyGuarantee("Laplace covariance (Amin et al. baseline L)", spent,
                neighbouring, "one row with L2 norm <= " + beta,
                "L1 sensitivity of the upper triangle of X^T X (diagonal included) = " + delta1 + " ("
                        + (sensitivity == Sensitivity.PAPER ? "2*d*beta^2, paper" : (neighbouring == Neighbouring.REPLACE_ROW ? "tight, sqrt(d(d+1))*beta^2" : "tight, (d+1)*beta^2/2"))
                        + ")",
                "Amin, Dick, Kulesza, Munoz Medina & Vassilvitskii, Differentially Private Covariance Estimation (NeurIPS 2019), Section 5, the Laplace-mechanism baseline L");
        Diagnostics diag = r.moment().diagnostics(random.isSeeded())
                .put("laplaceScale", scale)
                .put("sensitivityMode", sensitivity.name())
                .put("clampedEigenvalues", r.clamped())
                .build();
        return new PrivateCovariance("laplace-covariance", r.matrix(), guarantee, diag);
    }
}
