package io.dpspectra.cli;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.PrivateSubspace;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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

    @ArgGroup(exclusive = true, multiplicity = "1", heading = "Row norm bound (exactly one):%n")
    BoundOptions bounds;

    @Mixin
    InputOptions input = new InputOptions();

    @Option(names = {"--output", "-o"}, paramLabel = "FILE",
            description = "Write the result to FILE atomically (nothing is written on failure). Default: stdout.")
    Path output;

    @Option(names = "--format", paramLabel = "json|table", defaultValue = "json",
            description = "Output format: json (machine-readable) or table (for people). Default: ${DEFAULT-VALUE}.")
    OutputFormat format;

    @Mixin
    StochasticPcaFamily stochastic = new StochasticPcaFamily();

    @Mixin
    PowerMethodFamily powerMethods = new PowerMethodFamily();

    @Mixin
    CovariancePcaFamily covariancePca = new CovariancePcaFamily();

    @Parameters(index = "0", paramLabel = "INPUT",
            description = "Rows to analyse: a .csv/.csv.gz file or a .dpsr binary file (see 'dpspectra convert').")
    Path inputPath;

    /** Every family, in the order of the help text. */
    List<AlgorithmFamily> families() {
        return List.of(new CoreFitAlgorithms(), stochastic, powerMethods, covariancePca);
    }

    /** The help footer: one line per algorithm, from freshly constructed (default) families. */
    static String[] algorithmFooter() {
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add("Algorithms:");
        for (AlgorithmFamily family : new FitCommand().families()) {
            for (FitAlgorithm a : family.fitAlgorithms()) {
                lines.add(String.format(Locale.ROOT, "  %-16s %s", a.name(), a.summary()));
            }
        }
        lines.add("");
        lines.add("Example: dpspectra fit --algorithm analyze-gauss --components 2 --epsilon 1 --delta 1e-6 "
                + "--clip-norm 1 data.csv");
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
        bounds.validate();
        alg.validateOptions();
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
        if (output != null) {
            AtomicFiles.checkWritableTarget(output, "--output");
        }
        RandomSource random = alg.isPrivate() ? privacy.randomSource(err()) : null;

        Inputs.Opened opened = Inputs.open(inputPath, input);
        DpPreconditions.checkComponents(components, opened.dimension());
        // a CSV is validated in one pass before any private computation (a malformed cell or a row over
        // --norm-bound fails here, exit 3); a .dpsr file declares n and is checked in the algorithm's pass
        long n = Inputs.rowCount(bounds.apply(opened.rows()));
        ClippedRows rows = bounds.apply(Progress.track(opened.rows(), "fit", n));

        PrivateSubspace result = alg.fit(new FitAlgorithm.FitContext(rows, n, components, params, neighbouring,
                random, this::warn));

        Map<String, Object> inputInfo = new LinkedHashMap<>();
        inputInfo.put("file", inputPath.toString());
        inputInfo.put("normBound", bounds.bound());
        inputInfo.put("boundPolicy", bounds.policy());
        Map<String, Object> extra = new LinkedHashMap<>();
        if (rows.clippedRows() >= 0 && bounds.clipNorm != null) {
            extra.put("clippedRows", rows.clippedRows());
        }
        extra.put("seeded", random != null && random.isSeeded());
        extra.put("note", io.dpspectra.Diagnostics.PRIVATE_KEYS_NOTE);

        String text;
        if (format == OutputFormat.table) {
            StringBuilder sb = new StringBuilder();
            sb.append("algorithm: ").append(result.algorithm()).append('\n');
            sb.append(Tables.matrix(opened.columnNames(), Tables.componentNames(result.k()), result.components()));
            result.explainedVariance().ifPresent(ev -> sb.append(Tables.values("explained variance", ev)));
            sb.append(Tables.guarantee(result.guarantee().orElse(null)));
            text = sb.toString();
        } else {
            Map<String, Object> json = Json.subspace(result, opened.columnNames(), inputInfo, extra);
            text = Json.write(json);
        }
        emit(text, output);
        return ExitCodes.OK;
    }
}
