package io.dpspectra.cli;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.noise.RandomSource;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
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
            description = "Rows to analyse: a .csv/.csv.gz file or a .dpsr binary file (see 'dpspectra convert').")
    Path inputPath;

    /** Rows opened and bounded for one release. */
    record Bounded(Inputs.Opened opened, long rowCount, ClippedRows rows) {
    }

    /** Validates the bound and the output target before any data is read (usage errors, exit 2). */
    void checkBeforeReading() {
        bounds.validate();
        output.checkBeforeReading();
        diagnostics.checkBeforeReading(output);
    }

    /**
     * Opens INPUT, counts its rows (a CSV is validated in this pass: a malformed cell or a row over
     * --norm-bound fails here, exit 3; a .dpsr file declares n and is checked in the algorithm's pass),
     * and returns the bounded rows with a progress bar named {@code task}.
     */
    Bounded open(String task) {
        Inputs.Opened opened = Inputs.open(inputPath, input);
        long n = Inputs.rowCount(bounds.apply(opened.rows()));
        return new Bounded(opened, n, bounds.apply(Progress.track(opened.rows(), task, n)));
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
