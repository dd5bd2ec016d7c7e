package io.dpspectra.cli.options;

import io.dpspectra.cli.output.CliException;
import io.dpspectra.pca.GaussOutputPerturbation;
import io.dpspectra.pca.ModifiedDpPca;
import io.dpspectra.release.PcaAlgorithm;
import io.dpspectra.release.PcaOptions;
import io.dpspectra.release.Setting;
import io.dpspectra.release.StepSchedule;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fit} options of the stochastic private k-PCA algorithms of papers/kdp-pca-adaptive-noise.txt (k-dp-pca,
 * k-dp-ojas, oja, dp-gauss-2, dp-power-method) and of this project's provably private variant
 * k-dp-pca-adaptive, translated into core's {@link PcaOptions}.
 */
@Command
public final class StochasticPcaFamily implements AlgorithmFamily {
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
    public void fill(PcaOptions.Builder o, Predicate<String> typed, PcaAlgorithm algorithm) {
        if (typed.test("--batch-size")) {
            o.batchSize(batchSize);
        }
        if (typed.test("--learning-rate")) {
            o.learningRate(algorithm.reads(Setting.LEARNING_RATE) ? parsedLearningRate()
                    : StepSchedule.defaultSchedule());
        }
        if (typed.test("--gradient-clip")) {
            o.gradientClip(gradientClip);
        }
        if (typed.test("--paper-literal")) {
            o.paperLiteral(paperLiteral);
        }
        if (typed.test("--tau")) {
            o.tau(tau);
        }
        if (typed.test("--public-range")) {
            o.publicRange(publicRange);
        }
        if (typed.test("--c1")) {
            o.c1(c1);
        }
        if (typed.test("--batch-use")) {
            o.batchUse(algorithm.reads(Setting.BATCH_USE) ? parsedBatchUse() : ModifiedDpPca.BatchUse.PAPER_SAME_HALF);
        }
        if (typed.test("--radius-factor")) {
            o.radiusFactor(radiusFactor);
        }
        if (typed.test("--public-eigenvalues")) {
            o.publicEigenvalues(publicEigenvalues);
        }
        if (typed.test("--l1-bound")) {
            o.l1Bound(l1Bound);
        }
        if (typed.test("--dp-power-iterations")) {
            o.dpPowerIterations(dpPowerIterations);
        }
        if (typed.test("--on-small-gap")) {
            o.onSmallGap(algorithm.reads(Setting.ON_SMALL_GAP) ? parsedOnSmallGap()
                    : GaussOutputPerturbation.OnSmallGap.FAIL);
        }
    }

    /** --learning-rate as core's schedule; a malformed or unknown form is a usage error naming it. */
    StepSchedule parsedLearningRate() {
        String[] parts = learningRate.trim().toLowerCase(Locale.ROOT).split(":");
        try {
            switch (parts[0]) {
                case "inverse-time":
                    return StepSchedule.inverseTime(parts.length > 1 ? Double.parseDouble(parts[1]) : 1,
                            parts.length > 2 ? Double.parseDouble(parts[2]) : 1);
                case "constant":
                    return StepSchedule.constant(Double.parseDouble(parts[1]));
                case "appendix-g":
                    double[] l = Arrays.stream(parts[2].split(",")).mapToDouble(Double::parseDouble).toArray();
                    return StepSchedule.appendixG(Double.parseDouble(parts[1]), l);
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

    private ModifiedDpPca.BatchUse parsedBatchUse() {
        return switch (batchUse) {
            case "same-half" -> ModifiedDpPca.BatchUse.PAPER_SAME_HALF;
            case "disjoint-halves" -> ModifiedDpPca.BatchUse.DISJOINT_HALVES;
            default -> throw CliException.usage("--batch-use must be same-half or disjoint-halves, got '" + batchUse
                    + "'", "pass --batch-use same-half (default) or --batch-use disjoint-halves");
        };
    }

    private GaussOutputPerturbation.OnSmallGap parsedOnSmallGap() {
        return switch (onSmallGap) {
            case "fail" -> GaussOutputPerturbation.OnSmallGap.FAIL;
            case "random-basis" -> GaussOutputPerturbation.OnSmallGap.RANDOM_BASIS;
            default -> throw CliException.usage("--on-small-gap must be fail or random-basis, got '" + onSmallGap
                    + "'", "pass --on-small-gap fail or --on-small-gap random-basis");
        };
    }
}
