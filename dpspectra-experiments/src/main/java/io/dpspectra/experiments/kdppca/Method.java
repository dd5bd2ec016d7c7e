package io.dpspectra.experiments.kdppca;

import io.dpspectra.covariance.GaussianCalibration;
import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AdaptiveOjaPca;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.pca.ClippedPowerMethod;
import io.dpspectra.pca.DpOja;
import io.dpspectra.pca.GaussOutputPerturbation;
import io.dpspectra.pca.KDpOja;
import io.dpspectra.pca.KDpPca;
import io.dpspectra.pca.LearningRate;
import io.dpspectra.pca.LowRankPlusRankOneSamples;
import io.dpspectra.pca.PrivateSubspace;
import io.dpspectra.privacy.PrivacyParams;

/**
 * The methods of [DS] §5 / App. G as run by the reproduction, with the App. G hyper-parameters computed from
 * the PUBLIC model constants (never from the data): β = √λ₁ + σ√(d ln(n/ζ)), α₁ = σd + √(λ₁d) + σ√(d ln(n/ζ)),
 * ζ = 0.01, C = 1 (spec §2.7, §6).
 */
enum Method {
    K_DP_PCA("k-DP-PCA [classic Gaussian]", false),
    K_DP_PCA_ADAPTIVE("k-DP-PCA-adaptive, this project's variant [analytic Gaussian]", false),
    K_DP_OJAS("k-DP-Ojas [analytic Gaussian]", false),
    DP_GAUSS_1("DP-Gauss-1 [classic Gaussian]", false),
    DP_GAUSS_2("DP-Gauss-2 [Dwork et al. calibration]", false),
    DP_POWER("DP-Power-Method [Hardt-Price calibration]", false),
    K_DP_PCA_LITERAL("k-DP-PCA paper-literal [classic Gaussian]", true),
    K_DP_OJAS_LITERAL("k-DP-Ojas paper-literal, Alg. 3 [shuffling alpha]", true),
    DP_GAUSS_2_LITERAL("DP-Gauss-2 paper-literal [Dwork et al., resampled]", true);

    final String label;
    final boolean literal;

    Method(String label, boolean literal) {
        this.label = label;
        this.literal = literal;
    }

    /** Public model constants of one experiment point. */
    record Model(int d, long n, double[] spikes, double noise, boolean gaussian) {
        int k() {
            return spikes.length;
        }

        double lambda1() {
            return spikes[0];
        }

        /** App. G clipping threshold β (rows). */
        double beta() {
            return Math.sqrt(lambda1()) + noise * Math.sqrt(d * Math.log(n / 0.01));
        }

        /** App. G L1 threshold α₁ (DP-Power-Method). */
        double alpha1() {
            return noise * d + Math.sqrt(lambda1() * d) + noise * Math.sqrt(d * Math.log(n / 0.01));
        }

        /** γ of [DS] Assumption A for the paper-literal DP-Ojas clip: σ (spiked, Cor. 2), √2 (Gaussian, spec §2.5). */
        double gamma() {
            return gaussian ? Math.sqrt(2) : noise;
        }
    }

    /** Whether the method runs on the sample matrices A_i of App. G.1 (the others clip rows and have no A_i form). */
    boolean runsOnSampleMatrices() {
        return this != DP_GAUSS_2 && this != DP_GAUSS_2_LITERAL && this != DP_POWER;
    }

    /**
     * Fits on the samples A_i = VΛVᵀ + z_iz_iᵀ of App. G.1 (spiked figures): k-DP-PCA and the variant read them
     * directly, k-DP-Ojas clips the gradients P A_i w at the row model's β² (paper-literal: its own β), DP-Gauss-1
     * releases Σ clip(A_i) with trace clipping at β² (App. G). Null for the row-only methods.
     */
    PrivateSubspace fit(LowRankPlusRankOneSamples a, Model m, PrivacyParams p, RandomSource r) {
        int k = m.k();
        double beta2 = m.beta() * m.beta();
        switch (this) {
            case K_DP_PCA:
            case K_DP_PCA_LITERAL:
                return KDpPca.builder().components(k).randomSource(r).paperLiteral(literal)
                        .learningRate(LearningRate.appendixG(m.noise(), m.spikes(), m.n())).build().fit(a, p);
            case K_DP_PCA_ADAPTIVE:
                return adaptive(m, r).fit(a, p);
            case K_DP_OJAS:
                return KDpOja.builder().components(k).randomSource(r).clipThreshold(beta2).build().fit(a, p);
            case K_DP_OJAS_LITERAL: {
                double beta = DpOja.paperClipThreshold(1, m.lambda1(), m.d(), 1, m.gamma(), 1, m.n() / k, 0.01);
                return KDpOja.builder().components(k).randomSource(r).paperLiteral(true).clipThreshold(beta).build()
                        .fit(a, p);
            }
            case DP_GAUSS_1:
                return AnalyzeGauss.builder().components(k).randomSource(r).calibration(GaussianCalibration.CLASSIC)
                        .build().fitClippedSum(a.clippedSum(beta2), beta2, m.n(), p);
            default:
                return null;
        }
    }

    /** The variant with App. G.1's step sizes and the model's public eigenvalues (λ_i + the noise variance). */
    private static AdaptiveOjaPca adaptive(Model m, RandomSource r) {
        double s2 = m.gaussian() ? 1 : m.noise() * m.noise();
        double[] eig = java.util.Arrays.stream(m.spikes()).map(l -> l + s2).toArray();
        return AdaptiveOjaPca.builder().components(m.k()).randomSource(r).publicEigenvalues(eig)
                .learningRate(LearningRate.appendixG(m.noise(), m.spikes(), m.n())).build();
    }

    PrivateSubspace fit(RowSource rows, Model m, PrivacyParams p, RandomSource r) {
        int k = m.k();
        switch (this) {
            case K_DP_PCA:
            case K_DP_PCA_LITERAL:
                return KDpPca.builder().components(k).randomSource(r).paperLiteral(literal)
                        .learningRate(LearningRate.appendixG(m.noise(), m.spikes(), m.n())).build().fit(rows, p);
            case K_DP_PCA_ADAPTIVE:
                return adaptive(m, r).fit(rows, p);
            case K_DP_OJAS:
                return KDpOja.builder().components(k).randomSource(r).build().fit(rows.clipL2(m.beta()), p);
            case K_DP_OJAS_LITERAL: {
                double beta = DpOja.paperClipThreshold(1, m.lambda1(), m.d(), 1, m.gamma(), 1, m.n() / k, 0.01);
                return KDpOja.builder().components(k).randomSource(r).paperLiteral(true).clipThreshold(beta).build()
                        .fit(rows, p);
            }
            case DP_GAUSS_1:
                return AnalyzeGauss.builder().components(k).randomSource(r).calibration(GaussianCalibration.CLASSIC)
                        .build().fit(rows.clipL2(m.beta()), p);
            case DP_GAUSS_2:
            case DP_GAUSS_2_LITERAL:
                return GaussOutputPerturbation.builder().components(k).randomSource(r)
                        .onSmallGap(GaussOutputPerturbation.OnSmallGap.RANDOM_BASIS).paperLiteral(literal).build()
                        .fit(rows.clipL2(m.beta()), p);
            case DP_POWER:
                return ClippedPowerMethod.builder().components(k).randomSource(r).l2Bound(m.beta()).l1Bound(m.alpha1())
                        .build().fit(rows, p);
            default:
                throw new IllegalStateException(name());
        }
    }
}
