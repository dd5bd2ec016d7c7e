package io.dpspectra.cli.options;

import io.dpspectra.cli.output.CliException;
import io.dpspectra.release.PcaAlgorithm;
import io.dpspectra.release.PcaOptions;
import io.dpspectra.release.Setting;
import io.dpspectra.robust.RowNorm;
import java.util.Locale;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fit} options of outlier-robust PCA on the Grassmannian and the REAPER baselines of Maunu, Yu &amp;
 * Lerman (ggd, sggd, dp-ggd, dp-sggd, dp-gd-reap, dp-sgd-reap, dp-md-reap, dp-smd-reap), translated into core's
 * {@link PcaOptions}. These algorithms also read {@code --iterations} (power methods), {@code --batch-size} and
 * {@code --paper-literal} (stochastic family).
 */
@Command
public final class RobustPcaFamily implements AlgorithmFamily {
    @Option(names = "--step-size", paramLabel = "S",
            description = "Robust PCA: the first step size. ggd/sggd/dp-ggd/dp-sggd: eta_k = S * 2^-floor(k/L) with "
                    + "L = 50 or set by --restarts (default S = 1); REAPER methods: eta_k = S/sqrt(k) (default S = 8). "
                    + "The defaults are the paper's experiments.")
    Double stepSize;

    @Option(names = "--restarts", paramLabel = "R",
            description = "ggd/sggd/dp-ggd/dp-sggd: split the iterations into R stages, halving the step size at each "
                    + "restart (the paper's Theorem 5). Default: halve every 50 iterations, as in its experiments.")
    Integer restarts;

    @Option(names = "--row-norm", paramLabel = "sphere|clip", defaultValue = "sphere",
            description = "Robust PCA: map every row to the unit sphere (sphere: x/|x|, the paper's choice) or clip it "
                    + "to the unit ball (clip). A per-row map; no privacy cost. Default: ${DEFAULT-VALUE}.")
    String rowNorm;

    @Option(names = "--geodesic",
            description = "ggd/sggd/dp-ggd/dp-sggd: step along the Grassmann geodesic (exponential map) instead of "
                    + "projecting onto orthonormal bases (the paper's update; they agree to third order).")
    boolean geodesic;

    @Option(names = "--init-share", paramLabel = "F", defaultValue = "0.2",
            description = "dp-ggd/dp-sggd: the share of epsilon and delta spent on the private PCA start (Analyze "
                    + "Gauss for d <= 2000, the private power method above); the rest goes to the iterations. "
                    + "Default: ${DEFAULT-VALUE}.")
    double initShare;

    @Option(names = "--paper-constant", paramLabel = "C",
            description = "With --paper-literal: the constant c of the paper's printed noise variance (Theorem 6, "
                    + "Appendix A), which the paper never gives. Required with --paper-literal for these algorithms.")
    Double paperConstant;

    @Override
    public void fill(PcaOptions.Builder o, Predicate<String> typed, PcaAlgorithm algorithm) {
        if (typed.test("--step-size")) {
            o.stepSize(stepSize);
        }
        if (typed.test("--restarts")) {
            o.restarts(restarts);
        }
        if (typed.test("--row-norm")) {
            o.rowNorm(algorithm.reads(Setting.ROW_NORM) ? parsedRowNorm() : RowNorm.SPHERE);
        }
        if (typed.test("--geodesic")) {
            o.geodesic(geodesic);
        }
        if (typed.test("--init-share")) {
            o.initShare(initShare);
        }
        if (typed.test("--paper-constant")) {
            o.paperConstant(paperConstant);
        }
    }

    private RowNorm parsedRowNorm() {
        return switch (rowNorm.toLowerCase(Locale.ROOT)) {
            case "sphere" -> RowNorm.SPHERE;
            case "clip" -> RowNorm.CLIP_TO_UNIT_BALL;
            default -> throw CliException.usage("--row-norm must be sphere or clip, got '" + rowNorm + "'",
                    "pass --row-norm sphere (the default) or --row-norm clip");
        };
    }
}
