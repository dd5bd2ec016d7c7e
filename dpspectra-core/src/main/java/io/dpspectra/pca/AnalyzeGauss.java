package io.dpspectra.pca;

import io.dpspectra.Diagnostics;
import io.dpspectra.covariance.GaussianCalibration;
import io.dpspectra.covariance.SecondMomentSensitivity;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.privacy.PrivacyProfile;
import io.dpspectra.result.PrivateSubspace;
import java.util.Arrays;
import java.util.Objects;

/**
 * DP-Gauss-1 ("Analyze Gauss", Dwork et al. 2014): the top-k eigenvectors of XᵀX plus a symmetric
 * Gaussian noise matrix, with the top-k eigenvalues of that noisy matrix as explained variance.
 *
 * <p>Privacy: (ε, δ)-DP; the unit is one row with ‖x‖₂ ≤ β, where β is the bound the source declares
 * (user-given clipping, {@link RowSource#clipL2}; never derived from the data). One pass sums the
 * (clipped) rows' outer products; independent N(0, σ²) noise is added to each of the d(d+1)/2
 * upper-triangle entries (diagonal included) and mirrored. σ is calibrated to the L2 sensitivity of the
 * upper triangle: β² under ADD_REMOVE_ROW (the default, as the paper calibrates it) and √2·β² under
 * REPLACE_ROW (derivation in {@link SecondMomentSensitivity}), by the analytic Gaussian rule (default) or
 * the classic rule ({@link GaussianCalibration}). The whole budget is spent in this one step; the
 * eigendecomposition is post-processing.
 *
 * <p>Reference: Dwork, Talwar, Thakurta &amp; Zhang, STOC 2014, Alg. 1, as the DP-Gauss-1 baseline of
 * papers/kdp-pca-adaptive-noise.txt App. G; spec stochastic-and-power-methods.md §2.7 (DP-Gauss-1) and
 * §8 #22.
 *
 * <p>Cost: one pass; O(nd²) for XᵀX, O(d²) noise, O(d²k)–O(d³) for the top-k eigenpairs; memory O(d²).
 */
public final class AnalyzeGauss implements SubspaceEstimator {
    private final int k;
    private final Neighbouring neighbouring;
    private final RandomSource random;
    private final GaussianCalibration calibration;
    /** Test hook: multiplies the calibrated σ (1 in every public configuration). */
    private final double noiseMultiplier;

    private AnalyzeGauss(Builder b) {
        this.k = b.k;
        this.neighbouring = b.neighbouring;
        this.random = b.random;
        this.calibration = b.calibration;
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
        private Neighbouring neighbouring = Neighbouring.ADD_REMOVE_ROW;
        private GaussianCalibration calibration = GaussianCalibration.ANALYTIC;
        private double noiseMultiplier = 1.0;

        @Override
        Builder self() {
            return this;
        }

        /**
         * Default ADD_REMOVE_ROW (spec §2.7).
         *
         * @param neighbouring the relation the guarantee is stated for
         * @return this builder
         */
        public Builder neighbouring(Neighbouring neighbouring) {
            this.neighbouring = Objects.requireNonNull(neighbouring, "neighbouring");
            return this;
        }

        /**
         * Default {@link GaussianCalibration#ANALYTIC}; {@link GaussianCalibration#CLASSIC} reproduces the
         * paper's σ = β²√(2 ln(1.25/δ))/ε (spec §2.7 step 3).
         *
         * @param calibration how σ is computed
         * @return this builder
         */
        public Builder calibration(GaussianCalibration calibration) {
            this.calibration = Objects.requireNonNull(calibration, "calibration");
            return this;
        }

        /**
         * Scales σ by {@code m}: package-private, for the auditor's deliberately broken twin in tests only.
         * A value below 1 makes the release NOT (ε, δ)-DP.
         */
        Builder noiseMultiplierForAuditTests(double m) {
            this.noiseMultiplier = DpPreconditions.checkPositive("noiseMultiplier", m);
            return this;
        }

        /**
         * The estimator with this configuration.
         *
         * @return a new estimator
         */
        public AnalyzeGauss build() {
            checkSubspaceOptions();
            return new AnalyzeGauss(this);
        }
    }

    /**
     * σ for rows with L2 bound β at {@code budget}.
     *
     * @param rowL2Bound β, &gt; 0
     * @param budget     (ε, δ), δ &gt; 0
     * @return σ of each upper-triangle entry
     */
    public double sigma(double rowL2Bound, PrivacyParams budget) {
        return noiseMultiplier * calibration.sigma(
                SecondMomentSensitivity.l2UpperTriangle(rowL2Bound, neighbouring), budget);
    }

    /** The number of upper-triangle entries (diagonal included) of a d × d matrix: the coordinates released. */
    static long upperTriangle(int d) {
        return (long) d * (d + 1) / 2;
    }

    @Override
    public PrivateSubspace fit(RowSource rows, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        DpPreconditions.checkComponents(k, rows.dimension());
        double beta = SecondMomentSensitivity.rowL2Bound(rows, "AnalyzeGauss");
        GramPass pass = GramPass.of(rows);
        Long clipped = rows instanceof ClippedRows c && c.clippedRows() >= 0 ? c.clippedRows() : null;
        return release(pass.gram(), beta, "one row with L2 norm <= " + beta, pass.rows(), clipped, budget);
    }

    /**
     * DP-Gauss-1 on a sum of general PSD samples, X = Σ_i Ã_i with Tr Ã_i ≤ β² = {@code traceBound} (e.g. the
     * trace-clipped A_i of [DS] App. G). Such a summand has ‖Ã‖_F ≤ Tr Ã ≤ β² and two of them have
     * ⟨Ã, Ã'⟩ ≥ 0, so the sensitivities are those of rows with L2 norm β (β², or √2·β² for replace-one) and the
     * same σ applies. The privacy unit is one summand; the caller must have clipped every summand with a
     * public β. Modified: clippedSum (the noise is added in place).
     *
     * @param clippedSum X = Σ Ã_i, d × d symmetric
     * @param traceBound β², the public bound on every Tr Ã_i
     * @param samples    the number of summands
     * @param budget     (ε, δ), δ &gt; 0
     * @return the top-k eigenvectors of the noisy sum with their guarantee
     */
    public PrivateSubspace fitClippedSum(Matrix clippedSum, double traceBound, long samples, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        DpPreconditions.checkComponents(k, clippedSum.rows());
        double beta = Math.sqrt(DpPreconditions.checkBound("traceBound", traceBound));
        return release(clippedSum, beta, "one PSD sample A_i with Tr A_i <= " + traceBound + " (after clipping)",
                samples, null, budget);
    }

    private PrivateSubspace release(Matrix noisy, double beta, String unit, long rowsRead, Long clippedRows,
                                    PrivacyParams budget) {
        DpPreconditions.checkPositiveDelta(budget.delta(), "AnalyzeGauss");
        double sensitivity = SecondMomentSensitivity.l2UpperTriangle(beta, neighbouring);
        double sigma = sigma(beta, budget);
        new GaussianNoise(random).addSymmetricNoiseInPlace(noisy, sigma);
        SymmetricEigen top = SymmetricEigen.top(noisy, k);

        PrivacyGuarantee guarantee = new PrivacyGuarantee("AnalyzeGauss (DP-Gauss-1)", budget, neighbouring, unit,
                "L2 sensitivity of the upper triangle of X^T X (diagonal included) = " + sensitivity
                        + (neighbouring == Neighbouring.ADD_REMOVE_ROW ? " (beta^2)" : " (sqrt(2)*beta^2)"),
                "Dwork, Talwar, Thakurta & Zhang, Analyze Gauss: Optimal Bounds for Privacy-Preserving PCA (STOC 2014), Algorithm 1; the DP-Gauss-1 baseline of Duengler & Sanyal, An Iterative Algorithm for Differentially Private k-PCA with Adaptive Noise, App. G",
                PrivacyProfile.gaussianNoise(sigma, sensitivity, upperTriangle(noisy.rows())));
        Diagnostics.Builder diag = Diagnostics.builder()
                .put("sigma", sigma)
                .put("calibration", calibration.name())
                .put("rows", rowsRead);
        if (clippedRows != null) {
            diag.put("clippedRows", clippedRows);
        }
        diag.put("seededRandomness", random.isSeeded());
        String warning = calibration.warning(budget);
        if (warning != null) {
            diag.put("warning", warning);
        }
        diag.put("note", Diagnostics.PRIVATE_KEYS_NOTE);
        return new PrivateSubspace("analyze-gauss", top.vectors(), Arrays.copyOf(top.values(), k), guarantee,
                diag.build());
    }
}
