package io.dpspectra.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --diagnostics FILE}: where a releasing command writes what it learned from the data without
 * privacy (see {@link Release}), atomically. Without it the diagnostics are not written (with
 * {@code --verbose} they are printed on stderr).
 */
final class DiagnosticsOption {
    @Option(names = "--diagnostics", paramLabel = "FILE",
            description = "Also write the run's diagnostics (rows, clipped rows, timings, iterations...) to FILE "
                    + "as JSON, atomically. They are NOT private: they describe the input and are for the data's "
                    + "curator, never to be published with the release. --verbose prints them on stderr.")
    Path file;

    /** Checks the target before any data is read, and that it is not also the release's file (exit 2). */
    void checkBeforeReading(OutputOption output) {
        if (file != null) {
            AtomicFiles.checkWritableTarget(file, "--diagnostics");
            if (output.file != null && AtomicFiles.sameFile(file, output.file)) {
                throw CliException.usage("--diagnostics and --output name the same file " + file,
                        "give the diagnostics (not private) their own file, apart from the release");
            }
        }
    }
}
