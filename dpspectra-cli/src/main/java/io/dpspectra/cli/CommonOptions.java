package io.dpspectra.cli;

import picocli.CommandLine.Option;

/** Options shared by every command. */
final class CommonOptions {
    @Option(names = "--verbose", description = "Print the diagnostics of a release (NOT private) and the linear-algebra backend on "
            + "stderr, and stack traces of errors (for bug reports).")
    boolean verbose;
}
