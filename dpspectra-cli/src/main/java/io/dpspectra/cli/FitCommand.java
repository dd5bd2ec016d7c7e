package io.dpspectra.cli;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.PrivateSubspace;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra fit}: private principal components of a data file. The algorithms come from the
 * {@link AlgorithmFamily} mixins listed in {@link #families()}; this class only handles the shared options,
 * the input, the validation pass and the output.
 */
@Command(name = "fit", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Estimate the top-k principal components of INPUT (uncentred second moment XᵀX) with a "
                + "differentially private algorithm and print them as JSON (or a table).",
                "The algorithms are listed after the options."})
final class FitCommand extends BaseCommand {
    @Option(names = "--algorithm", paramLabel = "NAME", required = true,
            description = "The estimator (see the list of algorithms below).")
    String algorithm;

    @Option(names = {"--components", "-k"}, paramLabel = "K", required = true,
            description = "Number of principal components k (1 <= k <= d).")
    int components;

    @Mixin
    PrivacyOptions privacy = new PrivacyOptions();

    @Mixin
    ReleaseInput io = new ReleaseInput();

    @Mixin
    StochasticPcaFamily stochastic = new StochasticPcaFamily();

    @Mixin
    PowerMethodFamily powerMethods = new PowerMethodFamily();

    @Mixin
    CovariancePcaFamily covariancePca = new CovariancePcaFamily();

    @Mixin
    RobustPcaFamily robustPca = new RobustPcaFamily(stochastic, powerMethods);

    /** Every family, in the order of the help text. */
    List<AlgorithmFamily> families() {
        return List.of(new CoreFitAlgorithms(), stochastic, powerMethods, covariancePca, robustPca);
    }

    /** The help footer: one line per algorithm, from freshly constructed (default) families. */
    static String[] algorithmFooter() {
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add("Algorithms:");
        for (AlgorithmFamily family : new FitCommand().families()) {
            for (FitAlgorithm a : family.fitAlgorithms()) {
                lines.addAll(Tables.hangingIndent(String.format(Locale.ROOT, "  %-16s ", a.name()), a.summary(), 79));
            }
        }
        lines.add("");
        lines.add("Example: dpspectra fit --algorithm analyze-gauss --components 2 --epsilon 1 \\");
        lines.add("             --delta 1e-6 --clip-norm 1 data.csv");
        return lines.toArray(new String[0]);
    }

    private FitAlgorithm chosen() {
        String alg = algorithm.toLowerCase(Locale.ROOT);
        List<String> names = new ArrayList<>();
        for (AlgorithmFamily family : families()) {
            for (FitAlgorithm a : family.fitAlgorithms()) {
                if (a.name().equals(alg)) {
                    return a;
                }
                names.add(a.name());
            }
        }
        throw CliException.usage("unknown --algorithm '" + algorithm + "'",
                "choose one of: " + String.join(", ", names) + " (see 'dpspectra fit --help')");
    }

    @Override
    public Integer call() throws Exception {
        FitAlgorithm alg = chosen();
        DpPreconditions.checkAtLeast("--components", components, 1);
        io.checkBeforeReading();
        alg.validateOptions();
        covariancePca.checkOptionsApplyTo(alg);
        PrivacyParams params = null;
        Neighbouring neighbouring = privacy.neighbouringOrNull();
        if (alg.isPrivate()) {
            params = privacy.params(alg.name());
            if (alg.needsDelta()) {
                privacy.requirePositiveDelta(alg.name());
            }
        } else {
            warn("--algorithm " + alg.name() + " is NOT differentially private: its output reveals the data; "
                    + "use it only as a reference");
            if (privacy.epsilon != null || privacy.seed != null) {
                warn("--epsilon/--delta/--seed are ignored by --algorithm " + alg.name());
            }
        }
        RandomSource random = alg.isPrivate() ? privacy.randomSource(err()) : null;

        ReleaseInput.Bounded in = io.open("fit");
        DpPreconditions.checkComponents(components, in.opened().dimension());
        ClippedRows rows = in.rows();
        long start = System.nanoTime();
        PrivateSubspace result = alg.fit(new FitAlgorithm.FitContext(rows, in.rowCount(), components, params,
                neighbouring, random, this::warn));
        double seconds = (System.nanoTime() - start) / 1e9;
        List<String> columns = in.opened().columnNames();

        Release release = io.describe(Release.of("fit", result, columns), in, random).diagnostic("fitSeconds", seconds);
        StringBuilder sb = new StringBuilder();
        sb.append("algorithm: ").append(result.algorithm()).append('\n');
        sb.append(Tables.matrix(columns, Tables.componentNames(result.k()), result.components()));
        result.explainedVariance().ifPresent(ev -> sb.append(Tables.values("explained variance", ev)));
        sb.append(Tables.guarantee(result.guarantee().orElse(null)));
        io.publish(this, release.table(sb.toString()));
        return ExitCodes.OK;
    }
}
