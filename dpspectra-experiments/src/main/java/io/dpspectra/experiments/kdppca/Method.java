package io.dpspectra.experiments.kdppca;

import io.dpspectra.covariance.GaussianCalibration;
import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.pca.ClippedPowerMethod;
import io.dpspectra.pca.DpOja;
import io.dpspectra.pca.GaussOutputPerturbation;
import io.dpspectra.pca.KDpOja;
import io.dpspectra.pca.KDpPca;
import io.dpspectra.pca.LearningRate;
import io.dpspectra.pca.PrivateSubspace;
import io.dpspectra.privacy.PrivacyParams;

/**
 * The methods of [DS] §5 / App. G as run by the reproduction, with the App. G hyper-parameters computed from
 * the PUBLIC model constants (never from the data): β = √λ₁ + σ√(d ln(n/ζ)), α₁ = σd + √(λ₁d) + σ√(d ln(n/ζ)),
 * ζ = 0.01, C = 1 (spec §2.7, §6).
 */
enum Method {
    K_DP_PCA("k-DP-PCA", false),
    K_DP_OJAS("k-DP-Ojas", false),
    DP_GAUSS_1("DP-Gauss-1", false),
    DP_GAUSS_2("DP-Gauss-2", false),
    DP_POWER("DP-Power-Method", false),
    K_DP_PCA_LITERAL("k-DP-PCA (paper-literal)", true),
    K_DP_OJAS_LITERAL("k-DP-Ojas (paper-literal)", true),
    DP_GAUSS_2_LITERAL("DP-Gauss-2 (paper-literal)", true);

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

    PrivateSubspace fit(RowSource rows, Model m, PrivacyParams p, RandomSource r) {
        int k = m.k();
        switch (this) {
            case K_DP_PCA:
            case K_DP_PCA_LITERAL:
                return KDpPca.builder().components(k).randomSource(r).paperLiteral(literal)
                        .learningRate(LearningRate.appendixG(m.noise(), m.spikes(), m.n())).build().fit(rows, p);
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
