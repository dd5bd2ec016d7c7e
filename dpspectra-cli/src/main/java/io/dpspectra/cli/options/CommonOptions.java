package io.dpspectra.cli.options;

import picocli.CommandLine.Option;

/** Options shared by every command. */
public final class CommonOptions {
    @Option(names = "--verbose", description = "Print the diagnostics of a release (NOT private) and the linear-algebra backend on "
            + "stderr, and stack traces of errors (for bug reports).")
    public boolean verbose;
}
