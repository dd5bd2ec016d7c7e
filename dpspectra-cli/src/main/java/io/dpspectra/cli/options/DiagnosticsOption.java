package io.dpspectra.cli.options;

import io.dpspectra.cli.output.AtomicFiles;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.Release;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --diagnostics FILE}: where a releasing command writes what it learned from the data without
 * privacy (see {@link Release}), atomically. Without it the diagnostics are not written (with
 * {@code --verbose} they are printed on stderr).
 */
public final class DiagnosticsOption {
    @Option(names = "--diagnostics", paramLabel = "FILE",
            description = "Also write the run's diagnostics (rows, clipped rows, timings, iterations...) to FILE "
                    + "as JSON, atomically. They are NOT private: they describe the input and are for the data's "
                    + "curator, never to be published with the release. --verbose prints them on stderr.")
    public Path file;

    /** Checks the target before any data is read, and that it is not also the release's file (exit 2). */
    public void checkBeforeReading(OutputOption output) {
        checkBeforeReading(output, null, null);
    }

    /** As {@link #checkBeforeReading(OutputOption)}, and refuses a FILE that is {@code input} (exit 2). */
    public void checkBeforeReading(OutputOption output, Path input, String what) {
        if (file != null) {
            AtomicFiles.checkNotAnInput(file, "--diagnostics", input, what);
            AtomicFiles.checkWritableTarget(file, "--diagnostics");
            if (output.file != null && AtomicFiles.sameFile(file, output.file)) {
                throw CliException.usage("--diagnostics and --output name the same file " + file,
                        "give the diagnostics (not private) their own file, apart from the release");
            }
        }
    }
}
