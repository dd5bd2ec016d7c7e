package io.dpspectra.covariance;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;
import java.util.Objects;

/**
 * Releases XᵀX plus a symmetric Gaussian noise matrix (the Gaussian baseline "G" of Amin et al., i.e.
 * Analyze Gauss as a covariance release), optionally with its eigenvalues clamped to a public range.
 *
 * <p>Privacy: (ε, δ)-DP; the unit is one row with ‖x‖₂ ≤ β (β from the source's declared bound).
 * Independent N(0, σ²) noise is added to each upper-triangle entry (diagonal included) and mirrored; σ
 * is calibrated to the L2 sensitivity of the upper triangle, √2·β² under REPLACE_ROW (the default,
 * n public; spec A-C6) or β² under ADD_REMOVE_ROW (the authors' code's "sensitivity 1"), by the analytic
 * Gaussian calibration (default) or the classic one ({@link GaussianCalibration}). Derivations in
 * {@link SecondMomentSensitivity}. Eigenvalues are clamped to [0, nβ²] (REPLACE_ROW) or [0, ∞)
 * (ADD_REMOVE_ROW); clamping and mirroring are post-processing. The whole budget is spent in one release.
 *
 * <p>Reference: papers/dp-covariance-estimation.txt (Amin et al. 2019), baseline G (Dwork et al. 2014);
 * spec robust-local-covariance.md §5.4, §5.6, K8, §1.4 and A-C6.
 *
 * <p>Cost: one pass, O(nd²) for XᵀX, O(d²) noise, O(d³) for the clamp; memory O(d²).
 */
public final class GaussianCovariance implements CovarianceEstimator {
    private final Neighbouring neighbouring;
    private final RandomSource random;
    private final GaussianCalibration calibration;
    private final boolean clamp;
    /** Test hook: multiplies the calibrated noise scale (1 in every public configuration). */
    private final double noiseMultiplier;

    private GaussianCovariance(Builder b) {
        this.neighbouring = b.neighbouring;
        this.random = b.randomOrSecure();
        this.calibration = b.calibration;
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

    /** Configuration: the shared options ({@code neighbouring}, {@code randomSource}, {@code clampEigenvalues}) and the calibration. */
    public static final class Builder extends NoisySecondMoment.Options<Builder> {
        private GaussianCalibration calibration = GaussianCalibration.ANALYTIC;

        @Override
        Builder self() {
            return this;
        }

        /**
         * Default {@link GaussianCalibration#ANALYTIC} (spec K8, A-X4).
         *
         * @param calibration how σ is computed
         * @return this builder
         */
        public Builder calibration(GaussianCalibration calibration) {
            this.calibration = Objects.requireNonNull(calibration, "calibration");
            return this;
        }

        /**
         * The estimator with this configuration.
         *
         * @return a new estimator
         */
        public GaussianCovariance build() {
            return new GaussianCovariance(this);
        }
    }

    /**
     * The σ this estimator uses for rows bounded by β at {@code budget}.
     *
     * @param rowL2Bound β, &gt; 0
     * @param budget     (ε, δ), δ &gt; 0
     * @return σ of each upper-triangle entry
     */
    public double sigma(double rowL2Bound, PrivacyParams budget) {
        return calibration.sigma(SecondMomentSensitivity.l2UpperTriangle(rowL2Bound, neighbouring), budget);
    }

    @Override
    public PrivateCovariance release(RowSource rows, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        double rowBound = SecondMomentSensitivity.rowL2Bound(rows, "GaussianCovariance");
        return release(rows.dimension(), rowBound, budget,
                scale -> NoisySecondMoment.of(rows, new GaussianNoise(random), scale));
    }

    /**
     * The release from C = XᵀX given directly; the caller asserts that C is exactly XᵀX for n rows of L2
     * norm ≤ {@code rowL2Bound} (used by experiments that reuse one Gram matrix). Not modified: gram.
     *
     * @param gram       C = XᵀX, d × d
     * @param n          the number of rows, ≥ 1
     * @param rowL2Bound β, the L2 bound of every row
     * @param budget     (ε, δ), δ &gt; 0
     * @return the released matrix with its guarantee
     */
    public PrivateCovariance releaseFromTrustedGram(Matrix gram, long n, double rowL2Bound, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        DpPreconditions.checkBound("rowL2Bound", rowL2Bound);
        return release(gram.rows(), rowL2Bound, budget,
                scale -> NoisySecondMoment.ofTrustedGram(gram, n, new GaussianNoise(random), scale));
    }

    private PrivateCovariance release(int d, double beta, PrivacyParams budget,
                                      java.util.function.DoubleFunction<NoisySecondMoment> noisy) {
        DpPreconditions.checkPositiveDelta(budget.delta(), "GaussianCovariance");
        double delta2 = SecondMomentSensitivity.l2UpperTriangle(beta, neighbouring);
        double sigma = noiseMultiplier * calibration.sigma(delta2, budget);
        NoisySecondMoment.Released r = NoisySecondMoment.clampIfAsked(noisy.apply(sigma), clamp, neighbouring, beta);
        PrivacyGuarantee guarantee = new PrivacyGuarantee("Gaussian covariance (Analyze Gauss, Amin et al. baseline G)",
                budget, neighbouring, "one row with L2 norm <= " + beta,
                "L2 sensitivity of the upper triangle of X^T X (diagonal included) = " + delta2
                        + (neighbouring == Neighbouring.REPLACE_ROW ? " (sqrt(2)*beta^2)" : " (beta^2)"),
                "Dwork, Talwar, Thakurta & Zhang, Analyze Gauss: Optimal Bounds for Privacy-Preserving PCA (STOC 2014), Algorithm 1, as the Gaussian baseline G of Amin, Dick, Kulesza, Munoz Medina & Vassilvitskii, Differentially Private Covariance Estimation (NeurIPS 2019), Section 5",
                io.dpspectra.privacy.PrivacyProfile.gaussianNoise(sigma, delta2, (long) d * (d + 1) / 2));
        Diagnostics.Builder diag = r.moment().diagnostics(random.isSeeded())
                .put("sigma", sigma)
                .put("calibration", calibration.name())
                .put("clampedEigenvalues", r.clamped());
        String warning = calibration.warning(budget);
        if (warning != null) {
            diag.put("warning", warning);
        }
        return new PrivateCovariance("gaussian-covariance", r.matrix(), guarantee, diag.build());
    }
}
