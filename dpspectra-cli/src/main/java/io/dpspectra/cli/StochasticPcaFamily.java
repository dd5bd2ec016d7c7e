package io.dpspectra.cli;

import io.dpspectra.pca.AdaptiveOjaPca;
import io.dpspectra.pca.ClippedPowerMethod;
import io.dpspectra.pca.GaussOutputPerturbation;
import io.dpspectra.pca.KDpOja;
import io.dpspectra.pca.KDpPca;
import io.dpspectra.pca.LearningRate;
import io.dpspectra.pca.ModifiedDpPca;
import io.dpspectra.pca.Oja;
import io.dpspectra.pca.PrivateSubspace;
import io.dpspectra.privacy.Neighbouring;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fit} algorithms and options: the stochastic private k-PCA algorithms of
 * papers/kdp-pca-adaptive-noise.txt (issue 3: k-dp-pca, k-dp-ojas, oja, dp-gauss-2, dp-power-method) and this
 * project's provably private variant k-dp-pca-adaptive (issue 15).
 */
@Command
final class StochasticPcaFamily implements AlgorithmFamily {
    @Option(names = "--batch-size", paramLabel = "B",
            description = "k-dp-ojas / k-dp-pca / k-dp-pca-adaptive / oja / robust PCA: samples per step. Default: "
                    + "ceil(sqrt(n/k)) for k-dp-ojas (the noise of a step falls like 1/B), floor(sqrt(n)) for k-dp-pca and "
                    + "k-dp-pca-adaptive (App. G.1), 1 for oja, max(ceil(n sqrt(eps/(4T))), 1) for sggd, dp-sggd, "
                    + "dp-sgd-reap, dp-smd-reap (the expected size of a Poisson batch for the dp ones).")
    Integer batchSize;

    @Option(names = "--learning-rate", paramLabel = "SCHEDULE", defaultValue = "inverse-time",
            description = "k-dp-ojas / k-dp-pca / k-dp-pca-adaptive / oja step sizes: inverse-time[:C[:T0]] (eta_t = C/(T0 + t), default "
                    + "1/(1 + t) as in App. G.1), constant:ETA, or appendix-g:SIGMA:L1,L2,... (k-DP-PCA's App. G.1 rate from "
                    + "PUBLIC model constants). Default: ${DEFAULT-VALUE}.")
    String learningRate;

    @Option(names = "--gradient-clip", paramLabel = "BETA",
            description = "k-dp-ojas: clip each gradient P A w to norm BETA. Default: the square of --clip-norm/--norm-bound "
                    + "(no gradient is then clipped).")
    Double gradientClip;

    @Option(names = "--paper-literal",
            description = "Use the paper's printed constants where they are not provably private: k-dp-ojas = batch 1 "
                    + "and the shuffling-based noise of Alg. 3; k-dp-pca = add/remove histogram calibration; dp-gauss-2 = "
                    + "resample the gap noise; dp-ggd, dp-sggd and the dp-*-reap methods = the noise variances of Maunu et al.'s "
                    + "Theorem 6 / Appendix A with --paper-constant. The result is then NOT certified and its diagnostics say so.")
    boolean paperLiteral;

    @Option(names = "--tau", paramLabel = "T", defaultValue = "0.01",
            description = "k-dp-pca: failure probability tau of PrivRange/PrivMean (Thm. 9). Default: ${DEFAULT-VALUE}.")
    double tau;

    @Option(names = "--public-range", paramLabel = "L",
            description = "k-dp-pca: a PUBLIC bound on the gradients' top eigenvalue used instead of PrivRange (App. G.3); "
                    + "never compute it from the data.")
    Double publicRange;

    @Option(names = "--c1", paramLabel = "C1", defaultValue = "1",
            description = "k-dp-pca: PrivRange's subset constant C1 (s = C1 ln(1/(delta tau))/eps subsets). C1 = 1 (the "
                    + "spec's default) puts s near PrivRange's own release threshold, so it almost never releases; 4-8 "
                    + "releases. Default: ${DEFAULT-VALUE}.")
    double c1;

    @Option(names = "--batch-use", paramLabel = "same-half|disjoint-halves", defaultValue = "same-half",
            description = "k-dp-pca: which gradients PrivRange and PrivMean read: same-half (Alg. 2 as printed, eps/2 "
                    + "each, the default) or disjoint-halves (PrivRange the first half, PrivMean the second, the full "
                    + "eps each by parallel composition). Default: ${DEFAULT-VALUE}.")
    String batchUse;

    @Option(names = "--radius-factor", paramLabel = "C", defaultValue = "4",
            description = "k-dp-pca-adaptive: clip radius R = C x the released histogram bin's upper norm edge "
                    + "(C >= 1). Default: ${DEFAULT-VALUE}.")
    double radiusFactor;

    @Option(names = "--public-eigenvalues", paramLabel = "L1,L2,...", split = ",",
            description = "k-dp-pca-adaptive: PUBLIC eigenvalues of the rounds for the step scale eta/(1 + eta*lambda_i) "
                    + "(model constants, never estimated from the data). Default: the lambdas of --learning-rate "
                    + "appendix-g, else 0.")
    double[] publicEigenvalues;

    @Option(names = "--l1-bound", paramLabel = "A",
            description = "dp-power-method: L1 clip alpha1 of the rows. Default: sqrt(d) * --clip-norm (no L1 clipping).")
    Double l1Bound;

    @Option(names = "--dp-power-iterations", paramLabel = "L",
            description = "dp-power-method: power iterations L. Default: max(1, ceil(ln d)).")
    Integer dpPowerIterations;

    @Option(names = "--on-small-gap", paramLabel = "fail|random-basis", defaultValue = "fail",
            description = "dp-gauss-2: what to do when the noisy eigengap is below the threshold: refuse (exit 5) or "
                    + "release a uniformly random basis (still private). Default: ${DEFAULT-VALUE}.")
    String onSmallGap;

    @Override
    public List<FitAlgorithm> fitAlgorithms() {
        return List.of(new KDpOjaFit(), new KDpPcaFit(), new AdaptiveFit(), new OjaFit(), new GaussTwoFit(),
                new DpPowerFit());
    }

    LearningRate parsedLearningRate(java.util.function.LongSupplier n) {
        String[] parts = learningRate.trim().toLowerCase(Locale.ROOT).split(":");
        try {
            switch (parts[0]) {
                case "inverse-time":
                    return LearningRate.inverseTime(parts.length > 1 ? Double.parseDouble(parts[1]) : 1,
                            parts.length > 2 ? Double.parseDouble(parts[2]) : 1);
                case "constant":
                    return LearningRate.constant(Double.parseDouble(parts[1]));
                case "appendix-g":
                    double[] l = Arrays.stream(parts[2].split(",")).mapToDouble(Double::parseDouble).toArray();
                    return LearningRate.appendixG(Double.parseDouble(parts[1]), l, n.getAsLong());
                default:
                    break;
            }
        } catch (RuntimeException e) {
            throw CliException.usage("--learning-rate '" + learningRate + "' is malformed (" + e.getMessage() + ")",
                    "use inverse-time[:C[:T0]], constant:ETA or appendix-g:SIGMA:L1,L2");
        }
        throw CliException.usage("--learning-rate '" + learningRate + "' has an unknown schedule '" + parts[0] + "'",
                "use inverse-time[:C[:T0]], constant:ETA or appendix-g:SIGMA:L1,L2");
    }

    /** The eigenvalues of --public-eigenvalues, else those of --learning-rate appendix-g:SIGMA:L1,L2, else none. */
    double[] publicEigenvalues() {
        if (publicEigenvalues != null) {
            return publicEigenvalues;
        }
        String[] parts = learningRate.trim().toLowerCase(Locale.ROOT).split(":");
        return parts[0].equals("appendix-g") && parts.length > 2
                ? Arrays.stream(parts[2].split(",")).mapToDouble(Double::parseDouble).toArray() : new double[0];
    }

    void checkBatch(int min) {
        if (batchSize != null && batchSize < min) {
            throw CliException.usage("--batch-size must be >= " + min + ", got " + batchSize, "pass a larger batch size");
        }
    }

    private final class KDpOjaFit extends DeclaredFit {
        KDpOjaFit() {
            super("k-dp-ojas", true, false,
                    List.of("--batch-size", "--learning-rate", "--gradient-clip", "--paper-literal"),
                    "k-DP-Ojas (Düngler & Sanyal, Cor. 4): minibatch DP-Oja + deflation, streaming O(dk) memory; "
                    + "replace-one rows; needs --delta > 0");
        }

        /** Each row is read by one step, one Gaussian release calibrated to (epsilon, delta) (not so paper-literal). */
        @Override
        public boolean gaussianOnly() {
            return !paperLiteral;
        }

        @Override
        public void validateOptions() {
            checkBatch(1);
            parsedLearningRate(() -> 2);
            if (gradientClip != null && !(gradientClip > 0 && Double.isFinite(gradientClip))) {
                throw CliException.usage("--gradient-clip must be > 0 and finite, got " + gradientClip,
                        "choose it from domain knowledge, never from the data, or omit it");
            }
            if (paperLiteral && batchSize != null && batchSize != 1) {
                throw CliException.usage("--paper-literal k-dp-ojas uses batch size 1, got --batch-size " + batchSize,
                        "drop --batch-size or --paper-literal");
            }
        }

        @Override
        public PrivateSubspace fit(FitContext c) {
            if (c.neighbouring() == Neighbouring.ADD_REMOVE_ROW) {
                throw CliException.usage("k-dp-ojas is certified for --neighbouring replace only (positional batches)",
                    "drop --neighbouring or pass --neighbouring replace");
            }
            KDpOja.Builder b = KDpOja.builder().components(c.components()).randomSource(c.random())
                    .learningRate(parsedLearningRate(c::rowCount)).paperLiteral(paperLiteral);
            if (batchSize != null) {
                b.batchSize(batchSize);
            }
            if (gradientClip != null) {
                b.clipThreshold(gradientClip);
            }
            if (paperLiteral) {
                c.warn().accept("--paper-literal: k-dp-ojas uses the paper's shuffling-based noise; the result is NOT "
                        + "certified differentially private");
            }
            return b.build().fit(c.rows(), c.params());
        }
    }

    private final class KDpPcaFit extends DeclaredFit {
        KDpPcaFit() {
            super("k-dp-pca", true, false, List.of("--batch-size", "--learning-rate", "--paper-literal", "--tau",
                    "--public-range", "--c1", "--batch-use"),
                    "k-DP-PCA (Düngler & Sanyal, Alg. 1-2): minibatch Oja with PrivRange + PrivMean (adaptive noise) + "
                    + "deflation; replace-one rows; needs --delta > 0");
        }

        @Override
        public void validateOptions() {
            checkBatch(4);
            parsedLearningRate(() -> 2);
            if (!(tau > 0 && tau < 1)) {
                throw CliException.usage("--tau must be in (0, 1), got " + tau, "use e.g. --tau 0.01");
            }
            if (!(c1 > 0) || !Double.isFinite(c1)) {
                throw CliException.usage("--c1 must be > 0, got " + c1, "use e.g. --c1 1 (default) or --c1 6");
            }
            if (!List.of("same-half", "disjoint-halves").contains(batchUse)) {
                throw CliException.usage("--batch-use must be same-half or disjoint-halves, got '" + batchUse + "'",
                        "pass --batch-use same-half (default) or --batch-use disjoint-halves");
            }
        }

        @Override
        public PrivateSubspace fit(FitContext c) {
            if (c.neighbouring() == Neighbouring.ADD_REMOVE_ROW && !paperLiteral) {
                throw CliException.usage("k-dp-pca is certified for --neighbouring replace only",
                        "drop --neighbouring or pass --neighbouring replace");
            }
            KDpPca.Builder b = KDpPca.builder().components(c.components()).randomSource(c.random())
                    .learningRate(parsedLearningRate(c::rowCount)).paperLiteral(paperLiteral);
            if (batchSize != null) {
                b.batchSize(batchSize);
            }
            b.oracle().tau(tau).c1(c1).batchUse("disjoint-halves".equals(batchUse)
                    ? ModifiedDpPca.BatchUse.DISJOINT_HALVES : ModifiedDpPca.BatchUse.PAPER_SAME_HALF);
            if (publicRange != null) {
                b.oracle().rangeOverride(publicRange);
            }
            if (paperLiteral) {
                c.warn().accept("--paper-literal: k-dp-pca's histograms use the add/remove calibration the paper claims; "
                        + "the result is NOT certified differentially private");
            }
            KDpPca algorithm = b.build();
            ModifiedDpPca.Preflight pre = algorithm.preflight(c.rowCount(), c.rows().dimension(), c.params());
            if (!pre.canRelease()) {
                c.warn().accept(KDpPca.cannotReleaseWarning(pre));
            }
            return algorithm.fit(c.rows(), c.params());
        }
    }

    private final class AdaptiveFit extends DeclaredFit {
        AdaptiveFit() {
            super("k-dp-pca-adaptive", true, true,
                    List.of("--batch-size", "--learning-rate", "--radius-factor", "--public-eigenvalues"),
                    "this project's provably private adaptive-noise k-DP-PCA: orthogonal Oja gradients, one stable "
                    + "histogram picks the clip radius, Gaussian on the other half; streaming O(dk); replace-one rows; "
                    + "needs --delta > 0 (docs/privacy/adaptive-oja-pca.md)");
        }

        @Override
        public void validateOptions() {
            checkBatch(4);
            parsedLearningRate(() -> 2);
            if (!(radiusFactor >= 1) || !Double.isFinite(radiusFactor)) {
                throw CliException.usage("--radius-factor must be >= 1, got " + radiusFactor, "use e.g. --radius-factor 4");
            }
            for (double l : publicEigenvalues()) {
                if (!(l >= 0) || !Double.isFinite(l)) {
                    throw CliException.usage("--public-eigenvalues must be >= 0 and finite, got " + l,
                            "pass the model's eigenvalues, e.g. --public-eigenvalues 10,5");
                }
            }
        }

        @Override
        public PrivateSubspace fit(FitContext c) {
            if (c.neighbouring() == Neighbouring.ADD_REMOVE_ROW) {
                throw CliException.usage("k-dp-pca-adaptive is certified for --neighbouring replace only (positional "
                        + "batches)", "drop --neighbouring or pass --neighbouring replace");
            }
            AdaptiveOjaPca.Builder b = AdaptiveOjaPca.builder().components(c.components()).randomSource(c.random())
                    .learningRate(parsedLearningRate(c::rowCount)).radiusFactor(radiusFactor)
                    .publicEigenvalues(publicEigenvalues());
            if (batchSize != null) {
                b.batchSize(batchSize);
            }
            return b.build().fit(c.rows(), c.params());
        }
    }

    private final class OjaFit extends DeclaredFit {
        OjaFit() {
            super("oja", false, false, List.of("--batch-size", "--learning-rate"),
                    "Oja's algorithm + deflation (Alg. 5): streaming, NOT private, a reference");
        }

        @Override
        public boolean isPrivate() {
            return false;
        }

        @Override
        public void validateOptions() {
            checkBatch(1);
            parsedLearningRate(() -> 2);
        }

        @Override
        public PrivateSubspace fit(FitContext c) {
            Oja.Builder b = Oja.builder().components(c.components()).learningRate(parsedLearningRate(c::rowCount));
            if (batchSize != null) {
                b.batchSize(batchSize);
            }
            return b.build().fit(c.rows());
        }
    }

    private final class GaussTwoFit extends DeclaredFit {
        GaussTwoFit() {
            super("dp-gauss-2", true, true, List.of("--paper-literal", "--on-small-gap"),
                    "DP-Gauss-2 (Dwork et al. 2014 Alg. 2): Gaussian noise on the top-k projector, scaled by a private "
                    + "eigengap test; add/remove rows; needs --delta > 0");
        }

        @Override
        public void validateOptions() {
            if (!List.of("fail", "random-basis").contains(onSmallGap)) {
                throw CliException.usage("--on-small-gap must be fail or random-basis, got '" + onSmallGap + "'",
                        "pass --on-small-gap fail or --on-small-gap random-basis");
            }
        }

        @Override
        public PrivateSubspace fit(FitContext c) {
            GaussOutputPerturbation.Builder b = GaussOutputPerturbation.builder().components(c.components())
                    .randomSource(c.random()).onSmallGap("random-basis".equals(onSmallGap)
                            ? GaussOutputPerturbation.OnSmallGap.RANDOM_BASIS : GaussOutputPerturbation.OnSmallGap.FAIL)
                    .paperLiteral(paperLiteral);
            if (c.neighbouring() != null) {
                try {
                    b.neighbouring(c.neighbouring());
                } catch (IllegalArgumentException e) {
                    throw CliException.usage(e.getMessage(), "drop --neighbouring");
                }
            }
            if (paperLiteral) {
                c.warn().accept("--paper-literal: dp-gauss-2 resamples its gap noise; the result is NOT differentially "
                        + "private");
            }
            return b.build().fit(c.rows(), c.params());
        }
    }

    private final class DpPowerFit extends DeclaredFit {
        DpPowerFit() {
            super("dp-power-method", true, true, List.of("--l1-bound", "--dp-power-iterations"),
                    "DP-Power-Method ([DS] App. G): private power method on L2/L1-clipped rows; add/remove rows; "
                    + "needs --delta > 0");
        }

        /** Gaussian column releases only, whose composition meets (epsilon, delta). */
        @Override
        public boolean gaussianOnly() {
            return true;
        }

        @Override
        public void validateOptions() {
            if (dpPowerIterations != null && dpPowerIterations < 1) {
                throw CliException.usage("--dp-power-iterations must be >= 1, got " + dpPowerIterations,
                        "pass e.g. --dp-power-iterations 6");
            }
            if (l1Bound != null && !(l1Bound > 0 && Double.isFinite(l1Bound))) {
                throw CliException.usage("--l1-bound must be > 0 and finite, got " + l1Bound,
                        "choose it from domain knowledge, never from the data");
            }
        }

        @Override
        public PrivateSubspace fit(FitContext c) {
            ClippedPowerMethod.Builder b = ClippedPowerMethod.builder().components(c.components()).randomSource(c.random());
            if (c.neighbouring() != null) {
                b.neighbouring(c.neighbouring());
            }
            if (dpPowerIterations != null) {
                b.iterations(dpPowerIterations);
            }
            if (l1Bound != null) {
                b.l1Bound(l1Bound);
            }
            return b.build().fit(c.rows(), c.params());
        }
    }
}
