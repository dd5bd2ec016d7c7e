package io.dpspectra.cli.command;

import io.dpspectra.cli.options.CommonOptions;
import io.dpspectra.cli.options.DiagnosticsOption;
import io.dpspectra.cli.options.OutputOption;
import io.dpspectra.cli.output.AtomicFiles;
import io.dpspectra.cli.output.Npy;
import io.dpspectra.cli.output.OutputFormat;
import io.dpspectra.cli.output.Release;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Shared plumbing of the subcommands: output streams, warnings and atomic result files. */
public abstract class BaseCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common = new CommonOptions();

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** A one-line note on stderr (what the tool decided or does, e.g. a detected separator). */
    void note(String message) {
        err().println("dpspectra: " + message);
        err().flush();
    }

    void warn(String message) {
        err().println("dpspectra: warning: " + message);
        err().flush();
    }

    /** Writes {@code text} to {@code output} atomically, or to stdout when {@code output} is null. */
    void emit(String text, Path output) throws IOException {
        if (output == null) {
            out().print(text);
            out().flush();
            return;
        }
        AtomicFiles.write(output, o -> o.write(text.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Outputs a release: the release alone to {@code output} (atomically) or stdout; its diagnostics (not
     * private) to {@code diagnostics}' file, written together with the release so that a failure leaves
     * neither, and to stderr with --verbose. Every releasing command ends here.
     */
    public void publish(Release release, OutputFormat format, OutputOption output, DiagnosticsOption diagnostics)
            throws IOException {
        release.uselessReleaseWarnings().forEach(this::warn);
        String text = release.releaseText(format);
        String diag = release.diagnosticsText();
        if (common.verbose) {
            err().print("dpspectra: diagnostics (NOT private, for the data's curator only):" + System.lineSeparator()
                    + diag);
            err().flush();
        }
        Path diagFile = diagnostics == null ? null : diagnostics.file;
        if (format == OutputFormat.npy) {
            // checked before reading: --output FILE.npy is given and the release has an array
            List<Path> targets = new java.util.ArrayList<>(List.of(Release.besideNpy(output.file)));
            List<AtomicFiles.Writer> writers = new java.util.ArrayList<>(List.of(utf8(release.releaseTextBeside(
                    output.file))));
            if (release.array() != null) { // a refusal has no array: its record alone is written
                targets.add(output.file);
                writers.add(o -> Npy.write(release.array(), o));
            }
            if (diagFile != null) {
                targets.add(diagFile);
                writers.add(utf8(diag));
            }
            AtomicFiles.writeAll(targets, writers);
        } else if (diagFile == null) {
            emit(text, output.file);
        } else if (output.file == null) {
            AtomicFiles.write(diagFile, utf8(diag));
            emit(text, null);
        } else {
            AtomicFiles.writeAll(List.of(output.file, diagFile), List.of(utf8(text), utf8(diag)));
        }
    }

    private static AtomicFiles.Writer utf8(String text) {
        return o -> o.write(text.getBytes(StandardCharsets.UTF_8));
    }
}
