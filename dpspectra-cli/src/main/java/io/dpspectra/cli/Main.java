package io.dpspectra.cli;

import io.dpspectra.data.InvalidDataException;
import io.dpspectra.privacy.BudgetExceededException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Entry point of the {@code dpspectra} command. Errors are printed to stderr as one or two readable
 * lines ({@code dpspectra: error: ...} and a hint) with the exit codes of {@link ExitCodes}; a stack
 * trace only with {@code --verbose}.
 */
public final class Main {
    /** Held strongly so that the levels set in {@link #quietLibraryLogging} are not garbage-collected. */
    private static final java.util.logging.Logger NETLIB_LOG = java.util.logging.Logger.getLogger("dev.ludovic.netlib");
    private static final java.util.logging.Logger DPSPECTRA_LOG = java.util.logging.Logger.getLogger("io.dpspectra");

    private Main() {
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        if (!verbose(args)) {
            quietLibraryLogging();
        }
        System.exit(newCommandLine().execute(args));
    }

    /**
     * Keeps stderr for dpspectra's own messages: netlib's notes about optional implementations it could
     * not load, and the backend's one-line info log, are shown only with --verbose.
     */
    public static void quietLibraryLogging() {
        NETLIB_LOG.setLevel(java.util.logging.Level.SEVERE);
        DPSPECTRA_LOG.setLevel(java.util.logging.Level.WARNING);
    }

    /** The configured command line (tests set its out/err writers and call {@code execute}). */
    public static CommandLine newCommandLine() {
        return configure(new CommandLine(new DpspectraCommand()));
    }

    /** Installs the error handlers (exit codes and messages) on {@code cl}. */
    static CommandLine configure(CommandLine cl) {
        cl.setParameterExceptionHandler(Main::onParameterError);
        CommandLine fit = cl.getSubcommands().get("fit");
        if (fit != null) {
            fit.getCommandSpec().usageMessage().footer(FitCommand.algorithmFooter());
        }
        CommandLine reproduce = cl.getSubcommands().get("reproduce");
        if (reproduce != null) {
            reproduce.getCommandSpec().usageMessage().footer(ReproduceCommand.paperFooter());
        }
        cl.setExecutionExceptionHandler((ex, cmd, parseResult) -> onExecutionError(ex, cmd, parseResult));
        return cl;
    }

    private static int onParameterError(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("dpspectra: error: " + ex.getMessage());
        err.println("hint: run '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options");
        if (verbose(args)) {
            ex.printStackTrace(err);
        }
        err.flush();
        return ExitCodes.USAGE;
    }

    private static int onExecutionError(Exception ex, CommandLine cmd, ParseResult parseResult) {
        PrintWriter err = cmd.getErr();
        Throwable t = ex;
        int code;
        String hint;
        String message = t.getMessage() == null ? t.toString() : t.getMessage();
        if (t instanceof CliException c) {
            code = c.exitCode();
            hint = c.hint();
        } else if (t instanceof IllegalArgumentException) {
            code = ExitCodes.USAGE;
            hint = "run '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options";
        } else if (t instanceof InvalidDataException) {
            code = ExitCodes.BAD_DATA;
            hint = "fix the input (or, for a row over --norm-bound, use --clip-norm to clip rows instead); "
                    + "no output was written";
        } else if (t instanceof NoSuchFileException || t instanceof AccessDeniedException
                || t instanceof UncheckedIOException && (t.getCause() instanceof NoSuchFileException
                || t.getCause() instanceof AccessDeniedException)) {
            code = ExitCodes.BAD_DATA;
            hint = "check the file path and permissions";
        } else if (t instanceof BudgetExceededException) {
            code = ExitCodes.BUDGET_REFUSED;
            hint = "lower --epsilon/--delta or start from a larger total budget";
        } else if (t instanceof UnsupportedOperationException) {
            code = ExitCodes.INTERNAL;
            message = "not implemented yet: " + message;
            hint = "this part of dpspectra is still being built; rerun with --verbose for details";
        } else if (t instanceof IOException || t instanceof UncheckedIOException) {
            code = ExitCodes.INTERNAL;
            hint = "an I/O operation failed; no output was written";
        } else {
            code = ExitCodes.INTERNAL;
            message = t.getClass().getSimpleName() + ": " + message;
            hint = "this is a bug in dpspectra; rerun with --verbose and report the stack trace";
        }
        err.println("dpspectra: error: " + message);
        if (hint != null) {
            err.println("hint: " + hint);
        }
        if (verbose(parseResult)) {
            t.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    private static boolean verbose(ParseResult pr) {
        for (ParseResult p = pr; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }

    private static boolean verbose(String[] args) {
        for (String a : args) {
            if (a.equals("--verbose")) {
                return true;
            }
        }
        return false;
    }
}
