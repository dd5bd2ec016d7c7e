package io.dpspectra.experiments.dpcovariance;

import io.dpspectra.covariance.GaussianCalibration;
import io.dpspectra.covariance.GaussianCovariance;
import io.dpspectra.covariance.IterativeEigenvectorSampling;
import io.dpspectra.covariance.KapralovTalwar;
import io.dpspectra.covariance.LaplaceCovariance;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;
import java.util.List;

/**
 * The covariance releases of Amin et al.'s experiments with their library defaults: L (Laplace, paper
 * sensitivity 2d), KT, AD, IT-U (pure ε-DP) and G at δ ∈ {1e-16, 1e-10, 1e-3} with both Gaussian
 * calibrations: classic σ = Δ√(2 ln(1.25/δ))/ε (the paper's baseline, Dwork et al.; for ε ≥ 1, where its
 * proof does not hold, the library uses max(classic, analytic)) and analytic (Balle &amp; Wang, what a user of
 * this library gets by default). Replace-one L2 sensitivity √2. Every release has its eigenvalues clamped
 * to [0, n], as in the paper.
 */
enum CovarianceMethods {
    L("L", 0, null), KT("KT", 0, null), AD("AD", 0, null), IT_U("IT-U", 0, null),
    G16C("G-16 classic", 1e-16, GaussianCalibration.CLASSIC), G10C("G-10 classic", 1e-10, GaussianCalibration.CLASSIC),
    G3C("G-3 classic", 1e-3, GaussianCalibration.CLASSIC),
    G16A("G-16 analytic", 1e-16, GaussianCalibration.ANALYTIC),
    G10A("G-10 analytic", 1e-10, GaussianCalibration.ANALYTIC), G3A("G-3 analytic", 1e-3, GaussianCalibration.ANALYTIC);

    final String label;
    final double delta;
    final GaussianCalibration calibration;

    CovarianceMethods(String label, double delta, GaussianCalibration calibration) {
        this.label = label;
        this.delta = delta;
        this.calibration = calibration;
    }

    static final List<CovarianceMethods> ALL = List.of(values());
    /** The pure ε-DP methods (panel (a) of Figs. 1–2). */
    static final List<CovarianceMethods> PURE = List.of(L, KT, AD, IT_U);
    /** Algorithm 1 and the Gaussian mechanism (panel (b) of Figs. 1–2). */
    static final List<CovarianceMethods> VERSUS_GAUSS = List.of(AD, IT_U, G16C, G10C, G3C, G16A, G10A, G3A);

    boolean samplesVectors() {
        return this == KT || this == AD || this == IT_U;
    }

    boolean isGaussian() {
        return calibration != null;
    }

    /** One release from the exact Gram matrix of n rows of norm ≤ 1. */
    PrivateCovariance release(Matrix gram, long n, double epsilon, RandomSource r) {
        return switch (this) {
            case L -> LaplaceCovariance.builder().randomSource(r).build()
                    .releaseFromTrustedGram(gram, n, 1.0, PrivacyParams.pure(epsilon));
            case KT -> KapralovTalwar.builder().randomSource(r).build()
                    .releaseFromTrustedGram(gram, n, 1.0, PrivacyParams.pure(epsilon));
            case AD -> IterativeEigenvectorSampling.builder().split(IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE)
                    .randomSource(r).build().releaseFromTrustedGram(gram, n, 1.0, PrivacyParams.pure(epsilon));
            case IT_U -> IterativeEigenvectorSampling.builder().split(IterativeEigenvectorSampling.BudgetSplit.UNIFORM)
                    .randomSource(r).build().releaseFromTrustedGram(gram, n, 1.0, PrivacyParams.pure(epsilon));
            default -> GaussianCovariance.builder().calibration(calibration).randomSource(r).build()
                    .releaseFromTrustedGram(gram, n, 1.0, PrivacyParams.of(epsilon, delta));
        };
    }
}
