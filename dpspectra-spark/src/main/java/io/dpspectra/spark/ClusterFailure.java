package io.dpspectra.spark;

/**
 * A failure of the cluster running a fit, not of dpspectra and not of the data: an executor out of memory,
 * executors or workers lost, a full disk, a master that went away, a driver out of memory. Its message names
 * the cause (Spark's own first line, shortened), and {@link #fix()} says what to change before running again.
 * Thrown by the estimators' {@code fit} and by the Spark job instead of Spark's job failure with its trace.
 */
public final class ClusterFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String fix;

    ClusterFailure(String message, String fix, Throwable cause) {
        super(message, cause);
        this.fix = fix;
    }

    /**
     * What to change before running again.
     *
     * @return the fix, in words
     */
    public String fix() {
        return fix;
    }

    /**
     * Spark's first line of a failure, without its stack trace, at most 300 characters.
     *
     * @param e the failure
     * @return its first line
     */
    public static String firstLine(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int nl = m.indexOf('\n');
        String line = (nl < 0 ? m : m.substring(0, nl)).strip();
        return line.length() <= 300 ? line : line.substring(0, 297) + "...";
    }
}
