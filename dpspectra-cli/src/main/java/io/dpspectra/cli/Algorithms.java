package io.dpspectra.cli;

import io.dpspectra.covariance.CovarianceEstimator;
import io.dpspectra.covariance.GaussianCovariance;
import io.dpspectra.covariance.IterativeEigenvectorSampling;
import io.dpspectra.covariance.KapralovTalwar;
import io.dpspectra.covariance.LaplaceCovariance;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.PrivateSubspace;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import picocli.CommandLine;

/**
 * The one table of algorithm names, for {@code dpspectra fit} and {@code covariance} and for programs that
 * embed them (the Spark estimators {@code io.dpspectra.spark.DpPca} and {@code DpCovariance}): a name means
 * the same core algorithm, with the same defaults and the same checks, everywhere. The {@code fit}
 * algorithms are those of {@link FitCommand#families()} (each family translates its options into the core
 * builder); the covariance mechanisms are {@link #covariance}.
 *
 * <p>Translation only: every algorithm, and all its noise, is core's.
 */
public final class Algorithms {
    /** The covariance mechanisms of {@code dpspectra covariance}, in the order of its help. */
    public static final List<String> COVARIANCE = List.of("it-u", "ad", "kt", "laplace", "gaussian");

    private Algorithms() {
    }

    /** The private algorithms of {@code dpspectra fit}, in the order of its help. */
    public static List<String> fitNames() {
        List<String> names = new ArrayList<>();
        for (AlgorithmFamily family : new FitCommand().families()) {
            for (FitAlgorithm a : family.fitAlgorithms()) {
                if (a.isPrivate()) {
                    names.add(a.name());
                }
            }
        }
        return List.copyOf(names);
    }

    /**
     * Runs the {@code fit} algorithm {@code name} with {@code dpspectra fit}'s defaults for its options, on
     * {@code rows} (bounded, with a declared bound): what {@code dpspectra fit --algorithm NAME -k K} runs.
     *
     * @param neighbouring the relation, or null for the algorithm's own
     * @param warn         receives one-line warnings
     * @throws IllegalArgumentException for an unknown or non-private name or a refused setting (the CLI's
     *                                  message and hint)
     */
    public static PrivateSubspace fit(String name, ClippedRows rows, int k, PrivacyParams params,
                                      Neighbouring neighbouring, RandomSource random, Consumer<String> warn) {
        try {
            FitCommand command = new FitCommand();
            // parsing applies every option's default, as on the command line
            new CommandLine(command).parseArgs("--algorithm", name, "--components", String.valueOf(k), "INPUT");
            FitAlgorithm alg = command.chosen();
            if (!alg.isPrivate()) {
                throw CliException.usage("--algorithm " + name + " is not differentially private",
                        "choose one of: " + String.join(", ", fitNames()));
            }
            alg.validateOptions();
            return alg.fit(new FitAlgorithm.FitContext(rows, () -> Inputs.rowCount(rows), k, params, neighbouring,
                    random, warn, null));
        } catch (CliException e) {
            throw new IllegalArgumentException(e.getMessage() + (e.hint() == null ? "" : "; " + e.hint()), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Refuses (usage error) a covariance mechanism that is unknown, or proven under replace-one rows only
     * (it-u, ad, kt, after Amin et al. 2019) but asked for add/remove rows.
     */
    static void checkCovariance(String name, Neighbouring neighbouring) {
        if (!COVARIANCE.contains(name)) {
            throw CliException.usage("unknown --algorithm '" + name + "'", "choose " + String.join(", ", COVARIANCE));
        }
        if (isSampling(name) && neighbouring == Neighbouring.ADD_REMOVE_ROW) {
            throw CliException.usage(name + " is proven under replace neighbouring only (Amin et al. 2019)",
                    "drop --neighbouring or pass --neighbouring replace");
        }
    }

    /** True for the pure-ε sampling mechanisms (it-u, ad, kt), which take no δ and replace-one rows only. */
    static boolean isSampling(String name) {
        return name.equals("it-u") || name.equals("ad") || name.equals("kt");
    }

    /**
     * The core covariance mechanism {@code name} (one of {@link #COVARIANCE}) under {@code neighbouring}
     * (null: its own); {@code skipLastVector} for it-u and ad only.
     *
     * @throws IllegalArgumentException for an unknown name or a relation the mechanism is not proven under
     */
    public static CovarianceEstimator covariance(String name, Neighbouring neighbouring, RandomSource random,
                                                 boolean skipLastVector) {
        try {
            checkCovariance(name, neighbouring);
        } catch (CliException e) {
            throw new IllegalArgumentException(e.getMessage() + "; " + e.hint(), e);
        }
        return switch (name) {
            case "it-u", "ad" -> IterativeEigenvectorSampling.builder().randomSource(random)
                    .split(name.equals("ad") ? IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE
                            : IterativeEigenvectorSampling.BudgetSplit.UNIFORM)
                    .skipLastVector(skipLastVector).build();
            case "kt" -> KapralovTalwar.builder().randomSource(random).build();
            case "gaussian" -> {
                GaussianCovariance.Builder b = GaussianCovariance.builder().randomSource(random);
                if (neighbouring != null) {
                    b.neighbouring(neighbouring);
                }
                yield b.build();
            }
            default -> {
                LaplaceCovariance.Builder b = LaplaceCovariance.builder().randomSource(random);
                if (neighbouring != null) {
                    b.neighbouring(neighbouring);
                }
                yield b.build();
            }
        };
    }
}
