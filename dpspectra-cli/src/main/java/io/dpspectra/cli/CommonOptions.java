package io.dpspectra.cli;

import picocli.CommandLine.Option;

/** Options shared by every command. */
final class CommonOptions {
    @Option(names = "--verbose", description = "Print stack traces of errors (for bug reports).")
    boolean verbose;
}
