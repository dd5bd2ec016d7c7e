package io.dpspectra.cli;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.PrivateSubspace;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.robust.DescentOptions;
import io.dpspectra.robust.GrassmannDescent;
import io.dpspectra.robust.NoiseCalibration;
import io.dpspectra.robust.Reaper;
import io.dpspectra.robust.RowNorm;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fit} algorithms and options: outlier-robust PCA on the Grassmannian and the REAPER baselines of Maunu,
 * Yu &amp; Lerman (issue 13: ggd, sggd, dp-ggd, dp-sggd, dp-gd-reap, dp-sgd-reap, dp-md-reap, dp-smd-reap). Rows are
 * normalised to the unit sphere (a per-record map) after the norm bound. {@code --iterations} is shared with the
 * power methods, {@code --batch-size} and {@code --paper-literal} with the stochastic family.
 */
@Command
final class RobustPcaFamily implements AlgorithmFamily {
    private final StochasticPcaFamily stochastic;
    private final PowerMethodFamily power;

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

    RobustPcaFamily(StochasticPcaFamily stochastic, PowerMethodFamily power) {
        this.stochastic = stochastic;
        this.power = power;
    }

    @Override
    public List<FitAlgorithm> fitAlgorithms() {
        return List.of(new Descent("ggd"), new Descent("sggd"), new Descent("dp-ggd"), new Descent("dp-sggd"),
                new ReaperFit("dp-gd-reap"), new ReaperFit("dp-sgd-reap"), new ReaperFit("dp-md-reap"),
                new ReaperFit("dp-smd-reap"));
    }

    private RowNorm parsedRowNorm() {
        return switch (rowNorm.toLowerCase(Locale.ROOT)) {
            case "sphere" -> RowNorm.SPHERE;
            case "clip" -> RowNorm.CLIP_TO_UNIT_BALL;
            default -> throw CliException.usage("--row-norm must be sphere or clip, got '" + rowNorm + "'",
                    "pass --row-norm sphere (the default) or --row-norm clip");
        };
    }

    private void validateShared(boolean isPrivate) {
        parsedRowNorm();
        if (stepSize != null && !(stepSize > 0 && Double.isFinite(stepSize))) {
            throw CliException.usage("--step-size must be > 0, got " + stepSize, "pass e.g. --step-size 1");
        }
        if (restarts != null && restarts < 1) {
            throw CliException.usage("--restarts must be >= 1, got " + restarts, "pass e.g. --restarts 10");
        }
        if (power.iterations != null && power.iterations < 1) {
            throw CliException.usage("--iterations must be >= 1, got " + power.iterations, "pass e.g. --iterations 2000");
        }
        if (stochastic.batchSize != null && stochastic.batchSize < 1) {
            throw CliException.usage("--batch-size must be >= 1, got " + stochastic.batchSize, "pass e.g. --batch-size 20");
        }
        if (!(initShare > 0 && initShare < 1)) {
            throw CliException.usage("--init-share must be in (0, 1), got " + initShare, "pass e.g. --init-share 0.2");
        }
        if (stochastic.paperLiteral && isPrivate && paperConstant == null) {
            throw CliException.usage("--paper-literal needs --paper-constant C: the paper never gives its constant",
                    "pass e.g. --paper-constant 1, or drop --paper-literal for the certified calibration");
        }
    }

    /** The options both kinds share: k, the row map, the randomness, --iterations, --step-size, --batch-size. */
    private <B extends DescentOptions<B>> B configure(B b, FitAlgorithm.FitContext c) {
        b.components(c.components()).rowNorm(parsedRowNorm())
                .randomSource(c.random() != null ? c.random() : RandomSource.secure());
        if (power.iterations != null) {
            b.iterations(power.iterations);
        }
        if (stepSize != null) {
            b.stepSize(stepSize);
        }
        if (stochastic.batchSize != null) {
            b.batchSize(stochastic.batchSize);
        }
        return b;
    }

    /** The options of the power-method and stochastic families that the robust algorithms read as well. */
    private static boolean shared(String name) {
        return name.equals("--iterations") || name.equals("--batch-size") || name.equals("--paper-literal");
    }

    private static void requireReplace(FitAlgorithm.FitContext c, String name) {
        if (c.neighbouring() == Neighbouring.ADD_REMOVE_ROW) {
            throw CliException.usage(name + " is certified for --neighbouring replace only (N is public)",
                    "drop --neighbouring or pass --neighbouring replace");
        }
    }

    private final class Descent extends DeclaredFit {
        Descent(String name) {
            super(name, name.startsWith("dp-"), true, List.of(), switch (name) {
                case "ggd" -> "Maunu-Yu-Lerman geodesic gradient descent on GLAD (robust PCA), full batch; NOT private";
                case "sggd" -> "Maunu-Yu-Lerman stochastic GGD (minibatches with replacement); NOT private";
                case "dp-ggd" -> "Maunu-Yu-Lerman dp-GGD: robust PCA, full-batch noisy GGD, Gaussian noise composed "
                        + "exactly over the steps, private PCA start; replace-one rows; needs --delta > 0";
                default -> "Maunu-Yu-Lerman dp-SGGD: robust PCA, Poisson minibatches, noise from the steps' privacy "
                        + "loss distribution, private PCA start; replace-one rows; needs --delta > 0; O(B d k) per step";
            });
        }

        @Override
        public boolean isPrivate() {
            return needsDelta();
        }

        /** dp-GGD adds only Gaussian noise (its start and its full-batch steps), unless the paper's is asked for. */
        @Override
        public boolean gaussianOnly() {
            return name().equals("dp-ggd") && !stochastic.paperLiteral;
        }

        @Override
        public boolean borrowsOption(String option) {
            return shared(option);
        }

        @Override
        public void validateOptions() {
            validateShared(isPrivate());
        }

        @Override
        public PrivateSubspace fit(FitContext c) {
            GrassmannDescent.Builder b = switch (name()) {
                case "ggd" -> GrassmannDescent.ggd();
                case "sggd" -> GrassmannDescent.sggd();
                case "dp-ggd" -> GrassmannDescent.dpGgd();
                default -> GrassmannDescent.dpSggd();
            };
            if (isPrivate()) {
                requireReplace(c, name());
            }
            configure(b, c).initShare(initShare);
            if (restarts != null) {
                b.restarts(restarts);
            }
            if (geodesic) {
                b.step(GrassmannDescent.Step.GEODESIC);
            }
            if (stochastic.paperLiteral && isPrivate()) {
                c.warn().accept("--paper-literal: " + name() + " uses the paper's Theorem 6 noise with c = " + paperConstant
                        + "; the result is NOT certified differentially private");
                b.calibration(NoiseCalibration.PAPER_LITERAL).paperConstant(paperConstant);
                if (name().equals("dp-sggd")) {
                    b.batch(io.dpspectra.robust.Batch.WITH_REPLACEMENT);
                }
                b.init(GrassmannDescent.Init.PCA);
            }
            return b.build().fit(c.rows(), c.params());
        }
    }

    private final class ReaperFit extends DeclaredFit {
        ReaperFit(String name) {
            super(name, true, true, List.of(), "Maunu-Yu-Lerman " + name + ": REAPER (convex robust PCA) by "
                    + (name.contains("md") ? "entropic mirror descent" : "projected subgradient descent") + ", "
                    + (name.contains("-s") ? "Poisson minibatches, Renyi-accounted noise" : "full batch, zCDP noise")
                    + "; forms d x d matrices (states memory and time first); needs --delta > 0");
        }

        @Override
        public boolean borrowsOption(String option) {
            return shared(option);
        }

        @Override
        public void validateOptions() {
            validateShared(true);
            if (restarts != null || geodesic) {
                throw CliException.usage("--restarts and --geodesic apply to ggd, sggd, dp-ggd and dp-sggd only",
                        "drop them for " + name());
            }
        }

        @Override
        public PrivateSubspace fit(FitContext c) {
            requireReplace(c, name());
            Reaper.Builder b = switch (name()) {
                case "dp-gd-reap" -> Reaper.dpGdReap();
                case "dp-sgd-reap" -> Reaper.dpSgdReap();
                case "dp-md-reap" -> Reaper.dpMdReap();
                default -> Reaper.dpSmdReap();
            };
            configure(b, c);
            if (stochastic.paperLiteral) {
                c.warn().accept("--paper-literal: " + name() + " uses Appendix A's printed noise; the result is NOT "
                        + "certified differentially private");
                b.calibration(NoiseCalibration.PAPER_LITERAL);
                if (paperConstant != null) {
                    b.paperConstant(paperConstant);
                }
                if (name().contains("-s")) {
                    b.batch(io.dpspectra.robust.Batch.WITH_REPLACEMENT);
                }
            }
            Reaper reaper = b.build();
            c.warn().accept(reaper.plan((int) Math.min(Integer.MAX_VALUE, c.rowCount()), c.rows().dimension())
                    .describe(c.rows().dimension()));
            try {
                return reaper.fit(c.rows(), c.params());
            } catch (IllegalStateException tooBig) {
                if (tooBig.getMessage() != null && tooBig.getMessage().contains("of heap is available")) {
                    throw CliException.usage(tooBig.getMessage(), "use --algorithm dp-sggd or dp-ggd for large d");
                }
                throw tooBig;
            }
        }
    }
}
