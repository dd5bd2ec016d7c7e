package io.dpspectra.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
}
