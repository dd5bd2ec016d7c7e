package io.dpspectra.cli;

import io.dpspectra.cli.command.FitCommand;
import io.dpspectra.cli.command.MemoryCheck;
import io.dpspectra.cli.command.ReproduceCommand;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.OutputTargets;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.IoErrors;
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
    /** Held strongly so that the level set for --verbose is not garbage-collected. */
    private static final java.util.logging.Logger NETLIB_LOG = java.util.logging.Logger.getLogger("dev.ludovic.netlib");

    private Main() {
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        if (verbose(args)) {
            // the library silences netlib's notes unless its logger was configured: show them with --verbose
            NETLIB_LOG.setLevel(java.util.logging.Level.INFO);
        }
        if (args.length > 0 && RELEASES.contains(args[0])) {
            warmUpInBackground(largeTextInput(args));
        }
        System.exit(execute(args, null, null));
    }

    /**
     * Runs {@code args} as {@link #main} does, without exiting: the command line built for {@code args}, its
     * output to {@code out} and {@code err} (the process's streams when null). Returns the exit code.
     */
    static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = newCommandLine(args);
        if (out != null) {
            cl.setOut(out);
        }
        if (err != null) {
            cl.setErr(err);
        }
        return cl.execute(args);
    }

    /** Commands that draw noise, decompose a matrix and write JSON: worth a warm-up beside the parse. */
    private static final java.util.Set<String> RELEASES = java.util.Set.of("fit", "covariance", "ridge", "spectral");

    /**
     * Initialises, on a daemon thread while the main thread builds the command and reads the input, what
     * every release needs later and costs start-up time the first time: the secure generator's DRBG
     * seeding and cipher ({@link io.dpspectra.noise.RandomSource#secure()}; the generator made here is
     * dropped, nothing is drawn from it), the linear-algebra backend (native BLAS and LAPACK loading and,
     * with native LAPACK, a 2 x 2 eigenproblem) and the JSON writer. On two cores this takes them off the
     * critical path of a small release (docs/benchmarks/csv.md). With {@code csvParser} (the input is a
     * large text file), first the CSV byte parser, on generated numbers. Nothing here reads the input or
     * depends on the options, and nothing changes a result.
     */
    private static void warmUpInBackground(boolean csvParser) {
        Thread t = new Thread(() -> {
            try {
                if (csvParser) {
                    io.dpspectra.data.csv.CsvRows.warmUpParser();
                }
                io.dpspectra.noise.RandomSource.secure();
                if (io.dpspectra.linalg.Backend.DEFAULT.isNative()) {
                    // native LAPACK is reentrant; the pure-Java fallback (F2J) keeps some state in static fields,
                    // so it is left to the main thread
                    io.dpspectra.linalg.SymmetricEigen.top(io.dpspectra.linalg.Matrix.identity(2), 1);
                }
                Json.MAPPER.writeValueAsString(java.util.Map.of("warm", 1));
            } catch (RuntimeException | com.fasterxml.jackson.core.JsonProcessingException e) { // NOPMD
                // a warm-up only: the release itself meets and reports any real problem
            }
        }, "dpspectra-warm-up");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
    }

    /**
     * True if an argument names a regular file of 16 MB or more that is not a {@code .dpsr}: a CSV large
     * enough for the parser's warm-up ({@link io.dpspectra.data.csv.CsvRows#warmUpParser()}) to pay; the same
     * size from which the launcher compiles the parser early.
     */
    static boolean largeTextInput(String[] args) {
        for (String a : args) {
            if (a.startsWith("-") || a.endsWith(".dpsr")) {
                continue;
            }
            try {
                java.nio.file.Path p = java.nio.file.Path.of(a);
                if (java.nio.file.Files.isRegularFile(p) && java.nio.file.Files.size(p) >= 16L << 20) {
                    return true;
                }
            } catch (java.nio.file.InvalidPathException | IOException | SecurityException e) { // NOPMD
                // not a readable file name: the command reports it if it is one
            }
        }
        return false;
    }

    /**
     * For embedders (the Spark job): silences netlib's notes about optional implementations it could not
     * load. The library already does so unless netlib's logger was configured; this makes it explicit.
     */
    public static void quietLibraryLogging() {
        NETLIB_LOG.setLevel(java.util.logging.Level.SEVERE);
    }

    /** The configured command line (tests set its out/err writers and call {@code execute}). */
    public static CommandLine newCommandLine() {
        CommandLine cl = new CommandLine(new DpspectraCommand());
        for (Class<?> sub : DpspectraCommand.SUBCOMMANDS) {
            cl.addSubcommand(sub);
        }
        return configure(cl);
    }

    /**
     * The command line for {@code args}: the subcommands that {@code args} names are built in full; every
     * other one is only its name, aliases and description, read from its annotation (enough for the
     * top-level usage message and for "did you mean"), because building a subcommand's model costs
     * picocli reflection over all its options. The parse, and so the behaviour, is that of
     * {@link #newCommandLine()}: a subcommand is run only when named, and then it is the full one.
     */
    static CommandLine newCommandLine(String[] args) {
        java.util.Set<String> named = new java.util.HashSet<>(java.util.Arrays.asList(args));
        CommandLine cl = new CommandLine(new DpspectraCommand());
        for (Class<?> sub : DpspectraCommand.SUBCOMMANDS) {
            CommandLine.Command a = sub.getAnnotation(CommandLine.Command.class);
            boolean wanted = named.contains(a.name());
            for (String alias : a.aliases()) {
                wanted |= named.contains(alias);
            }
            if (wanted) {
                cl.addSubcommand(sub);
            } else {
                CommandLine.Model.CommandSpec outline = CommandLine.Model.CommandSpec.create().name(a.name())
                        .aliases(a.aliases());
                outline.usageMessage().description(a.description()).header(a.header());
                cl.addSubcommand(a.name(), new CommandLine(outline));
            }
        }
        return configure(cl);
    }

    /** Installs the error handlers (exit codes and messages) on {@code cl}. */
    public static CommandLine configure(CommandLine cl) {
        cl.setParameterExceptionHandler(Main::onParameterError);
        shareVersion(cl, cl.getCommandSpec().version());
        CommandLine fit = cl.getSubcommands().get("fit");
        if (fit != null && fit.getCommand() instanceof FitCommand) {
            footerWhenShown(fit, FitCommand::algorithmFooter);
        }
        CommandLine reproduce = cl.getSubcommands().get("reproduce");
        if (reproduce != null && reproduce.getCommand() instanceof ReproduceCommand) {
            footerWhenShown(reproduce, ReproduceCommand::paperFooter);
        }
        cl.setExecutionExceptionHandler((ex, cmd, parseResult) -> onExecutionError(ex, cmd, parseResult));
        CommandLine.IExecutionStrategy run = cl.getExecutionStrategy();
        cl.setExecutionStrategy(parseResult -> {
            try {
                if (verbose(parseResult)) {
                    leaf(parseResult).commandSpec().commandLine().getErr().println(
                            "dpspectra: linear algebra backend: " + io.dpspectra.linalg.Backend.DEFAULT.describe());
                }
                if (!helpRequested(parseResult)) {
                    ParseResult leaf = leaf(parseResult);
                    try {
                        OutputTargets.checkNoneIsAnInput(leaf);
                    } catch (RuntimeException e) {
                        // reported by the execution-error handler, as the command's own errors are
                        throw new CommandLine.ExecutionException(leaf.commandSpec().commandLine(), e.getMessage(), e);
                    }
                }
                return run.execute(parseResult);
            } catch (OutOfMemoryError e) {
                return onOutOfMemory(e, parseResult);
            }
        });
        return cl;
    }

    private static int onParameterError(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        UsageMessages.Message m = UsageMessages.of(ex);
        err.println("dpspectra: error: " + UsageMessages.printable(m.text()));
        if (m.hint() != null) {
            err.println("hint: " + UsageMessages.printable(m.hint()));
        }
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
        } else if (t instanceof io.dpspectra.release.ReleaseSettingException s && s.hint() != null) {
            code = ExitCodes.USAGE; // a setting the release layer refused, named as typed, with its fix
            hint = s.hint();
        } else if (t instanceof IllegalArgumentException) {
            code = ExitCodes.USAGE;
            hint = "run '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options";
        } else if (t instanceof InvalidDataException d && d.hint() != null) {
            code = ExitCodes.BAD_DATA;
            hint = d.hint();
        } else if (t instanceof InvalidDataException) {
            code = ExitCodes.BAD_DATA;
            hint = "fix the input (or, for a row over --norm-bound, use --clip-norm to clip rows instead); "
                    + "no output was written";
        } else if (t instanceof NoSuchFileException || t instanceof AccessDeniedException
                || t instanceof UncheckedIOException && (t.getCause() instanceof NoSuchFileException
                || t.getCause() instanceof AccessDeniedException)) {
            code = ExitCodes.BAD_DATA;
            hint = "check the file path and permissions";
        } else if (t instanceof io.dpspectra.privacy.ReleaseRefusedException r) {
            code = ExitCodes.MECHANISM_REFUSED;
            hint = r.hint();
        } else if (t instanceof io.dpspectra.linalg.MatrixTooLargeException) {
            code = ExitCodes.USAGE;
            hint = "select fewer columns with --columns, or use " + MemoryCheck.STREAMING_HINT;
        } else if (t instanceof BudgetExceededException) {
            code = ExitCodes.BUDGET_REFUSED;
            hint = "lower --epsilon/--delta or start from a larger total budget";
        } else if (t instanceof UnsupportedOperationException) {
            code = ExitCodes.INTERNAL;
            message = "not implemented yet: " + message;
            hint = "this part of dpspectra is still being built; rerun with --verbose for details";
        } else if (t instanceof IOException || t instanceof UncheckedIOException) {
            // reading or writing a file failed (a full disk, a file that vanished): not a bug of dpspectra
            code = ExitCodes.BAD_DATA;
            if (t instanceof IOException ioe) {
                message = (ioe instanceof java.nio.file.FileSystemException fs && fs.getFile() != null ? fs.getFile()
                        : "a file operation failed") + ": " + IoErrors.inWords(ioe);
            }
            hint = "check the files named, their permissions and the free disk space; no output was written";
        } else {
            code = ExitCodes.INTERNAL;
            message = t.getClass().getSimpleName() + ": " + message;
            hint = "this is a bug in dpspectra; rerun with --verbose and report the stack trace";
        }
        // a documented refusal is not an error of the user or of dpspectra
        err.println((code == ExitCodes.MECHANISM_REFUSED ? "dpspectra: " : "dpspectra: error: ")
                + UsageMessages.printable(UsageMessages.plain(message)));
        if (hint != null) {
            err.println("hint: " + UsageMessages.printable(hint));
        }
        if (verbose(parseResult)) {
            t.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    /**
     * The footer of {@code cmd}'s usage message, built only when the usage is shown (the list of algorithms
     * or papers loads every family: about 20 ms at start-up, for a command that is not asking for help).
     */
    private static void footerWhenShown(CommandLine cmd, java.util.function.Supplier<String[]> footer) {
        cmd.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER, help -> {
            help.commandSpec().usageMessage().footer(footer.get());
            return help.footer();
        });
    }

    /** Gives every subcommand the top-level version, so that {@code dpspectra CMD --version} prints it. */
    private static void shareVersion(CommandLine cl, String[] version) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            if (sub.getCommandSpec().version().length == 0) {
                sub.getCommandSpec().version(version);
            }
            shareVersion(sub, version);
        }
    }

    /** An OutOfMemoryError that the estimate did not foresee: a clean exit 2 with the memory hint. */
    private static int onOutOfMemory(OutOfMemoryError e, ParseResult parseResult) {
        PrintWriter err = leaf(parseResult).commandSpec().commandLine().getErr();
        err.println("dpspectra: error: out of memory (" + e.getMessage() + ")");
        err.println("hint: " + MemoryCheck.outOfMemoryHint(Runtime.getRuntime().maxMemory()));
        if (verbose(parseResult)) {
            e.printStackTrace(err);
        }
        err.flush();
        return ExitCodes.USAGE;
    }

    private static ParseResult leaf(ParseResult parseResult) {
        ParseResult leaf = parseResult;
        while (leaf.subcommand() != null) {
            leaf = leaf.subcommand();
        }
        return leaf;
    }

    private static boolean helpRequested(ParseResult pr) {
        for (ParseResult p = pr; p != null; p = p.subcommand()) {
            if (p.isUsageHelpRequested() || p.isVersionHelpRequested()) {
                return true;
            }
        }
        return false;
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
