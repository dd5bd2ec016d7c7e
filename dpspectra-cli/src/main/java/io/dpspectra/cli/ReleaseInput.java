package io.dpspectra.cli;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The input and output options of the commands that make a private release from rows ({@code fit},
 * {@code covariance}): the user's row norm bound, the CSV options, INPUT, {@code --output} and
 * {@code --format}; and the steps they share: check the options before reading, open and bound the
 * rows, describe the preprocessing in the release, and publish it.
 */
final class ReleaseInput {
    @ArgGroup(exclusive = true, multiplicity = "1", heading = "Row norm bound (exactly one):%n")
    BoundOptions bounds;

    @Mixin
    InputOptions input = new InputOptions();

    @Mixin
    OutputOption output = new OutputOption();

    @Mixin
    DiagnosticsOption diagnostics = new DiagnosticsOption();

    @Option(names = "--format", paramLabel = "json|table", defaultValue = "json",
            description = "Output format: json (machine-readable) or table (for people). Default: ${DEFAULT-VALUE}.")
    OutputFormat format;

    @Parameters(index = "0", paramLabel = "INPUT",
            description = "Rows to analyse: a .csv/.csv.gz file, - for standard input (CSV), or a .dpsr binary file "
                    + "(see 'dpspectra convert').")
    Path inputPath;

    /**
     * Rows opened and bounded for one release; the row count is taken only if an algorithm asks for it
     * ({@link #rowCount()}): a .dpsr file declares it, a CSV is then read once more to count (and says so).
     */
    record Bounded(Inputs.Opened opened, LongSupplier rowCounter, ClippedRows rows) {
        long rowCount() {
            return rowCounter.getAsLong();
        }
    }

    /** Validates the bound and the output target before any data is read (usage errors, exit 2). */
    void checkBeforeReading() {
        bounds.validate();
        output.checkBeforeReading();
        diagnostics.checkBeforeReading(output);
    }

    /**
     * Opens INPUT ("-" for standard input) and returns the bounded rows with a progress bar named
     * {@code task}. Nothing is read here beyond the first lines: a malformed cell or a row over
     * --norm-bound fails (exit 3, with its line) inside the algorithm's own pass, which is safe because
     * results are written atomically only after the computation finished; the row count and validation
     * come with the statistic's pass. {@code note} receives one-line notes for stderr.
     */
    Bounded open(String task, Consumer<String> note) {
        Inputs.Opened opened = Inputs.open(inputPath, input, note);
        RowSource tracked = Progress.track(opened.rows(), task);
        long[] counted = {-1};
        LongSupplier count = () -> {
            if (counted[0] < 0) {
                if (opened.rows().knownSize().isEmpty()) {
                    note.accept("counting the rows of " + opened.rows().describe() + " first: this algorithm needs"
                            + " n before its own pass");
                }
                counted[0] = Inputs.rowCount(bounds.apply(tracked));
            }
            return counted[0];
        };
        return new Bounded(opened, count, bounds.apply(tracked));
    }

    /** The public preprocessing of the release: the user's norm bound and what is done with a row over it. */
    Map<String, Object> preprocessing() {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("normBound", bounds.bound());
        info.put("boundPolicy", bounds.policy());
        return info;
    }

    /**
     * Adds the release's public preprocessing and seeding to {@code release}, and the curator's facts
     * (the input file, rows counted, rows clipped) to its diagnostics.
     */
    Release describe(Release release, Bounded in, RandomSource random) {
        release.preprocessing(preprocessing()).noise(random);
        release.diagnostic("input", inputPath.toString()).diagnostic("rows", in.rowCount());
        if (in.rows().clippedRows() >= 0 && bounds.clipNorm != null) {
            release.diagnostic("clippedRows", in.rows().clippedRows());
        }
        return release;
    }

    /** Outputs the release to --output/stdout and its diagnostics to --diagnostics (see {@link Release}). */
    void publish(BaseCommand command, Release release) throws java.io.IOException {
        command.publish(release, format, output, diagnostics);
    }
}
