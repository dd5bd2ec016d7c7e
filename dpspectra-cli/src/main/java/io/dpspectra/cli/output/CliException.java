package io.dpspectra.cli.output;

/**
 * An error the CLI reports to the user with an exit code and a hint, without a stack trace (unless
 * {@code --verbose}).
 */
public final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int exitCode;
    private final String hint;

    private CliException(int exitCode, String message, String hint, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
        this.hint = hint;
    }

    /** Bad usage or parameters: exit 2. */
    public static CliException usage(String message, String hint) {
        return new CliException(ExitCodes.USAGE, message, hint, null);
    }

    /** Bad or missing input data: exit 3. */
    public static CliException data(String message, String hint, Throwable cause) {
        return new CliException(ExitCodes.BAD_DATA, message, hint, cause);
    }

    /** A mechanism's documented refusal (exit 5): the budget was spent, nothing released. */
    public static CliException refused(io.dpspectra.privacy.ReleaseRefusedException e) {
        return new CliException(ExitCodes.MECHANISM_REFUSED, e.getMessage(), e.hint(), e);
    }

    /**
     * A refusal with exit 5 stated by the command itself: after spending (a drafted schema whose ranges are
     * unusable), or before (fit's --refuse-useless, when nothing is spent); the message says which.
     */
    public static CliException refused(String message, String hint) {
        return new CliException(ExitCodes.MECHANISM_REFUSED, message, hint, null);
    }

    public int exitCode() {
        return exitCode;
    }

    /** A second line telling the user what to do, or null. */
    public String hint() {
        return hint;
    }
}
