package io.dpspectra.cli;

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
abstract class BaseCommand implements Callable<Integer> {
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
    void publish(Release release, OutputFormat format, OutputOption output, DiagnosticsOption diagnostics)
            throws IOException {
        String text = release.releaseText(format);
        String diag = release.diagnosticsText();
        if (common.verbose) {
            err().print("dpspectra: diagnostics (NOT private, for the data's curator only):" + System.lineSeparator()
                    + diag);
            err().flush();
        }
        Path diagFile = diagnostics == null ? null : diagnostics.file;
        if (diagFile == null) {
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
