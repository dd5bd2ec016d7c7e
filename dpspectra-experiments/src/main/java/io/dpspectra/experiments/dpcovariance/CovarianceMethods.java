package io.dpspectra.experiments.dpcovariance;

import io.dpspectra.covariance.GaussianCovariance;
import io.dpspectra.covariance.IterativeEigenvectorSampling;
import io.dpspectra.covariance.KapralovTalwar;
import io.dpspectra.covariance.LaplaceCovariance;
import io.dpspectra.covariance.PrivateCovariance;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import java.util.List;

/**
 * The five covariance releases of Amin et al.'s experiments with their library defaults: L (Laplace,
 * paper sensitivity 2d), KT, AD, IT-U (pure ε-DP) and G at δ ∈ {1e-16, 1e-10, 1e-3} (analytic
 * calibration, REPLACE_ROW sensitivity √2, spec A-C6). Every release has its eigenvalues clamped to
 * [0, n], as in the paper.
 */
enum CovarianceMethods {
    L("L"), KT("KT"), AD("AD"), IT_U("IT-U"), G16("G-16"), G10("G-10"), G3("G-3");

    final String label;

    CovarianceMethods(String label) {
        this.label = label;
    }

    static final List<CovarianceMethods> ALL = List.of(values());

    boolean samplesVectors() {
        return this == KT || this == AD || this == IT_U;
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
            case G16 -> gaussian(gram, n, epsilon, 1e-16, r);
            case G10 -> gaussian(gram, n, epsilon, 1e-10, r);
            case G3 -> gaussian(gram, n, epsilon, 1e-3, r);
        };
    }

    private static PrivateCovariance gaussian(Matrix gram, long n, double epsilon, double delta, RandomSource r) {
        return GaussianCovariance.builder().randomSource(r).build()
                .releaseFromTrustedGram(gram, n, 1.0, PrivacyParams.of(epsilon, delta));
    }
}
