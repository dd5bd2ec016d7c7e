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
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;

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

    /** The name of this method on the command line ({@code --method}): {@code dp-gauss-2}, {@code k-dp-pca}, ... */
    String id() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    static Method byId(String id) {
        for (Method m : values()) {
            if (m.id().equals(id)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown method '" + id + "'");
    }

    /** The method whose label (as written in the CSVs) is {@code label}. */
    static Method byLabel(String label) {
        for (Method m : values()) {
            if (m.label.equals(label)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown method '" + label + "' in a result CSV");
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

    /**
     * Whether the method runs on the sample matrices A_i of App. G.1: all but DP-Power-Method, whose L1 clipping of a
     * rank-one aaᵀ has no form for A_i = VΛVᵀ + z zᵀ in this library.
     */
    boolean runsOnSampleMatrices() {
        return this != DP_POWER;
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
            case DP_GAUSS_2:
            case DP_GAUSS_2_LITERAL:
                return gaussOutputPerturbation(a.clippedSum(beta2).scaled(1 / beta2), k, literal, p, r);
            default:
                return null;
        }
    }

    /**
     * DP-Gauss-2 on the trace-clipped sum Σ clip(A_i), as [DS] App. G runs it ("just like DP-Gauss-1 clips the matrices
     * and sums them up"), in units of β² ({@code unitSum}: every clipped sample is PSD with trace ≤ 1). The steps and
     * calibration are the library's row version's ({@link GaussOutputPerturbation}, whose public threshold and projector
     * σ it uses): a Laplace(2/ε) gap test spending ε/2 against θ = 2(1 + ln(1/δ)/ε), then symmetric Gaussian noise of std
     * Δ₂ on V_kV_kᵀ. The row version's argument carries over because it uses only that one unit moves every eigenvalue
     * by between 0 and 1 (Weyl: a PSD sample of trace ≤ 1 has spectral norm ≤ 1) and the sum by at most 1 in Frobenius
     * norm (its Frobenius norm is at most its trace), both true of a trace-clipped PSD A_i as of a row of norm ≤ 1. A
     * failed test releases a uniformly random basis (the provable default's RANDOM_BASIS); paper-literal resamples the
     * gap noise until positive, which is NOT private (App. G says so). Unit: one sample A_i, add/remove.
     */
    static PrivateSubspace gaussOutputPerturbation(io.dpspectra.linalg.Matrix unitSum, int k, boolean literal,
                                                   PrivacyParams p, RandomSource r) {
        int d = unitSum.rows();
        io.dpspectra.linalg.SymmetricEigen eig = io.dpspectra.linalg.SymmetricEigen.top(unitSum, Math.min(k + 1, d));
        double gap = eig.values()[k - 1] - (k < d ? eig.values()[k] : 0);
        io.dpspectra.noise.LaplaceNoise laplace = new io.dpspectra.noise.LaplaceNoise(r);
        double scale = io.dpspectra.noise.LaplaceNoise.scaleFor(1, p.epsilon() / 2);
        double theta = GaussOutputPerturbation.threshold(p);
        double noisyGap = laplace.addNoise(gap, scale);
        int resamples = 0;
        while (literal && !(noisyGap > 0) && resamples < 100_000) {
            noisyGap = laplace.addNoise(gap, scale);
            resamples++;
        }
        boolean passed = noisyGap > theta || (literal && noisyGap > 0);
        io.dpspectra.linalg.Matrix result;
        if (!passed) {
            result = io.dpspectra.noise.RandomSubspace.basis(d, k, r);
        } else {
            io.dpspectra.linalg.Matrix vk = eig.vectors().leadingColumns(k);
            io.dpspectra.linalg.Matrix pi = vk.times(vk.transpose());
            pi.symmetrizeInPlace();
            new io.dpspectra.noise.GaussianNoise(r).addSymmetricNoiseInPlace(pi, GaussOutputPerturbation.projectorSigma(
                    noisyGap, p));
            result = io.dpspectra.linalg.SymmetricEigen.top(pi, k).vectors();
        }
        io.dpspectra.privacy.PrivacyGuarantee g = new io.dpspectra.privacy.PrivacyGuarantee(
                "DP-Gauss-2 on sum clip(A_i) (reproduction baseline)", p, io.dpspectra.privacy.Neighbouring.ADD_REMOVE_ROW,
                "one sample A_i, trace-clipped to <= beta^2", "as GaussOutputPerturbation, in units of beta^2"
                        + (literal ? "; RESAMPLED gap noise: NOT private" : ""),
                "Duengler & Sanyal, App. G (DP-Gauss-2); Dwork et al. 2014, Alg. 2");
        return new PrivateSubspace(literal ? "dp-gauss-2-paper-literal" : "dp-gauss-2", result, null, g,
                io.dpspectra.Diagnostics.builder().put("gapTestPassed", passed).put("resamples", resamples).build());
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
