package io.dpspectra.cli.command;

import io.dpspectra.cli.options.CommonOptions;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.experiments.Datasets;
import io.dpspectra.experiments.RawTables;
import io.dpspectra.experiments.bounds.PrivateBoundsMeasurement;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dpspectra bench private-bounds}: how often the private row-norm bound of {@code --clip-norm private}
 * lands within a factor 2 of the true quantile on the shipped tables, at the budget share {@code auto} gives it,
 * next to the former flat-grid mechanism. The measurement is {@link PrivateBoundsMeasurement} (experiments); this
 * command only reads options and prints its markdown table.
 */
@Command(name = "private-bounds", mixinStandardHelpOptions = true,
        description = {"Measures the private row-norm bound (--clip-norm private:Q) on the shipped tables (raw "
                + "features, as a user without bounds would fit them; the shared data-set folder): --runs releases per "
                + "table and quantile, each from its own seeded source, at the budget share 'auto' gives the bound "
                + "out of --epsilon (n public, replace neighbouring), against the former flat-grid exponential "
                + "mechanism at its former share 0.1. Prints a markdown table: how often the bound lies within a "
                + "factor 2 of the true quantile, and the spread of bound/quantile."})
final class PrivateBoundsBench implements Callable<Integer> {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @picocli.CommandLine.Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--epsilon", paramLabel = "E", defaultValue = "1",
            description = "The release's total epsilon, whose 'auto' share the bound gets. Default: ${DEFAULT-VALUE}.")
    double epsilon;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "100",
            description = "Releases per table and quantile. Default: ${DEFAULT-VALUE}.")
    int runs;

    @Option(names = "--quantiles", paramLabel = "Q,...", split = ",", defaultValue = "0.5,0.9",
            description = "The quantiles Q. Default: ${DEFAULT-VALUE}.")
    double[] quantiles;

    @Option(names = "--tables", paramLabel = "NAME,...", split = ",",
            description = "Tables among wine, airfoil, adult, isolet5, colon, leukemia. Default: all six.")
    List<String> tables;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1000",
            description = "Run r draws from seed S + r (a measurement, not a release). Default: ${DEFAULT-VALUE}.")
    long seed;

    @Override
    public Integer call() {
        if (!(epsilon > 0) || runs < 1) {
            throw CliException.usage("--epsilon must be > 0 and --runs >= 1", "e.g. --epsilon 1 --runs 100");
        }
        List<String> names = tables == null ? RawTables.ALL.stream().map(RawTables::name).toList() : tables;
        for (String n : names) {
            try {
                RawTables.named(n);
            } catch (IllegalArgumentException e) {
                throw CliException.usage("unknown table '" + n + "'", "choose among wine, airfoil, adult, isolet5, "
                        + "colon, leukemia");
            }
        }
        Path root = Datasets.root();
        java.io.PrintWriter err = spec.commandLine().getErr();
        List<PrivateBoundsMeasurement.Row> rows = PrivateBoundsMeasurement.run(root, names, quantiles, epsilon, runs,
                seed, line -> {
                    err.println("dpspectra: " + line);
                    err.flush();
                });
        java.io.PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "data sets: %s; %d runs per row; quantiles %s%n%n", root, runs,
                Arrays.toString(quantiles));
        out.print(PrivateBoundsMeasurement.markdown(rows, epsilon));
        out.flush();
        return ExitCodes.OK;
    }
}
