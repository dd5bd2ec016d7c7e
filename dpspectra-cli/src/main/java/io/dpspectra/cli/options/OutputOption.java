package io.dpspectra.cli.options;

import io.dpspectra.cli.output.AtomicFiles;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --output FILE}: where a command writes its result, atomically; stdout when absent. */
public final class OutputOption {
    @Option(names = {"--output", "-o"}, paramLabel = "FILE",
            description = "Write the result to FILE atomically (nothing is written on failure). Default: stdout.")
    public Path file;

    /** Checks that the target's directory exists and is writable before any data is read (exit 2). */
    public void checkBeforeReading() {
        if (file != null) {
            AtomicFiles.checkWritableTarget(file, "--output");
        }
    }

    /** As {@link #checkBeforeReading()}, and refuses an output that is one of the inputs (exit 2). */
    public void checkBeforeReading(Path input, String what) {
        checkBeforeReading();
        AtomicFiles.checkNotAnInput(file, "--output", input, what);
    }
}
