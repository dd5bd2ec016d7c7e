package io.dpspectra.cli.command;

import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Tables;
import io.dpspectra.experiments.ReportFile;
import io.dpspectra.experiments.Reproduction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dpspectra reproduce <paper>}: regenerates a paper's figures, CSV + PNG + report.md. */
@Command(name = "reproduce", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Re-run a paper's experiments: writes one CSV and one PNG per figure and a report.md "
                + "comparing each figure with the paper's claim, under reproductions/<paper>/ in the working directory "
                + "(or --output-dir). The committed evidence in docs/reproductions/<paper>/ is rewritten only by a full "
                + "run with an explicit --output-dir; a --quick run never overwrites a full run's report.",
                "The papers are listed after the options."})
public final class ReproduceCommand extends BaseCommand {
    /** Every reproduction the command knows, in help order. */
    static List<Reproduction> reproductions() {
        return List.of(new io.dpspectra.experiments.kdppca.KdpPcaReproduction(),
                new io.dpspectra.experiments.noisypower.NoisyPowerReproduction(),
                new io.dpspectra.experiments.dpcovariance.DpCovarianceReproduction(),
                new io.dpspectra.experiments.localdp.LocalDpReproduction(),
                new io.dpspectra.experiments.robustpca.RobustPcaReproduction());
    }

    @Parameters(index = "0", paramLabel = "PAPER", description = "Which paper (see the list below).")
    String paper;

    @Option(names = "--figure", paramLabel = "ID", split = ",",
            description = "Run only these figures (comma-separated; default: all of the paper's figures).")
    List<String> figures;

    @Option(names = "--trials", paramLabel = "T",
            description = "Trials per point (default: the paper's number; fewer with --quick).")
    Integer trials;

    @Option(names = "--method", paramLabel = "M", split = ",",
            description = "Run only these methods of the chosen figures and merge their results into the figures' "
                    + "CSVs already in the output directory; the other methods' results are kept as they are, and the "
                    + "report names the run behind each. Papers that support it list their methods below.")
    List<String> methods;

    @Option(names = "--report-only", description = "Run nothing: rebuild report.md and the plots from the CSVs "
            + "already in the output directory (results of earlier runs, possibly of different figures at different "
            + "times). Papers that support it are marked below.")
    boolean reportOnly;

    @Option(names = "--quick", description = "A reduced run (small sizes, few trials) that finishes in under two "
            + "minutes; its results are for smoke tests, not for the report's conclusions.")
    boolean quick;

    @Option(names = "--output-dir", paramLabel = "DIR",
            description = "Where to write the results (default: reproductions/<paper> in the working directory). A "
                    + "--quick run is refused (exit 2) if DIR holds a report.md of a full run.")
    Path outputDir;

    /** The directory the default output is resolved against: the working directory (tests set it). */
    Path workingDirectory = Path.of("");

    @Option(names = "--seed", paramLabel = "S", defaultValue = "20261123",
            description = "Seed of the experiment's random streams (experiments are seeded for reproducibility; "
                    + "they release nothing). Default: ${DEFAULT-VALUE}.")
    long seed;

    /** The help footer listing the papers. */
    public static String[] paperFooter() {
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add("Papers:");
        for (Reproduction r : reproductions()) {
            lines.addAll(Tables.hangingIndent(String.format(Locale.ROOT, "  %-14s ", r.paper()),
                    r.summary() + " (figures: " + String.join(", ", r.figures())
                            + (r.methods().isEmpty() ? "" : "; --method: " + String.join(", ", r.methods()))
                            + (r.rebuildsFromCsv() ? "; --report-only" : "") + ")", 79));
        }
        if (reproductions().isEmpty()) {
            lines.add("  (none yet)");
        }
        lines.add("");
        lines.add("Example: dpspectra reproduce kdp-pca --figure 1a --quick");
        return lines.toArray(new String[0]);
    }

    @Override
    public Integer call() throws Exception {
        Reproduction chosen = null;
        List<String> names = new ArrayList<>();
        for (Reproduction r : reproductions()) {
            names.add(r.paper());
            if (r.paper().equalsIgnoreCase(paper)) {
                chosen = r;
            }
        }
        if (chosen == null) {
            throw CliException.usage("unknown paper '" + paper + "'",
                    names.isEmpty() ? "no reproduction is available yet" : "choose one of: " + String.join(", ", names));
        }
        List<String> run = figures == null || figures.isEmpty() ? chosen.figures() : figures;
        for (String f : run) {
            if (!chosen.figures().contains(f)) {
                throw CliException.usage("--figure " + f + " is not a figure of " + chosen.paper(),
                        "choose from: " + String.join(", ", chosen.figures()));
            }
        }
        if (trials != null && trials < 1) {
            throw CliException.usage("--trials must be >= 1, got " + trials, "pass a positive number of trials");
        }
        List<String> onlyMethods = methods == null ? List.of() : methods;
        for (String m : onlyMethods) {
            if (!chosen.methods().contains(m)) {
                throw CliException.usage("--method " + m + " is not a method of " + chosen.paper(),
                        chosen.methods().isEmpty() ? chosen.paper() + " runs whole figures only: drop --method"
                                : "choose from: " + String.join(", ", chosen.methods()));
            }
        }
        if (reportOnly && !chosen.rebuildsFromCsv()) {
            throw CliException.usage("--report-only is not supported by " + chosen.paper(),
                    "run its figures instead (drop --report-only)");
        }
        if (reportOnly && (!onlyMethods.isEmpty() || trials != null)) {
            throw CliException.usage("--report-only runs nothing, so --method and --trials have no effect",
                    "drop --method and --trials, or drop --report-only");
        }
        Path dir = outputDir != null ? outputDir : workingDirectory.resolve("reproductions").resolve(chosen.paper());
        Reproduction.Settings settings = new Reproduction.Settings(run, trials, quick, dir, seed, msg -> {
            err().println("reproduce " + paper + ": " + msg);
            err().flush();
        }, onlyMethods, reportOnly);
        var refusal = ReportFile.refusal(settings);
        if (refusal.isPresent()) {
            throw CliException.usage("refusing to write a --quick run into " + dir + ": " + refusal.get(),
                    "drop --output-dir to write the quick run to ./reproductions/" + chosen.paper()
                            + ", or pass another --output-dir");
        }
        chosen.run(settings);
        out().println("wrote " + dir.toAbsolutePath().normalize());
        out().flush();
        return ExitCodes.OK;
    }
}
