package io.dpspectra.spark;

import io.dpspectra.data.InvalidDataException;
import java.util.Locale;

/**
 * Failures of the cluster that are not bugs of dpspectra, told apart from Spark's job failure by what
 * its message says: an executor out of memory, executors or workers lost, a full disk, a master that
 * went away. Each becomes a {@link ClusterFailure} whose message names the cause (Spark's own first
 * line, shortened) and whose {@link ClusterFailure#fix()} says what to change, instead of a 6 kB trace
 * with "this is a bug".
 */
final class SparkFailures {
    private SparkFailures() {
    }

    /** A failure of the cluster running the job: the cause, and what to change. */
    static final class ClusterFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String fix;

        ClusterFailure(String message, String fix, Throwable cause) {
            super(message, cause);
            this.fix = fix;
        }

        /** What to change before running again. */
        String fix() {
            return fix;
        }
    }

    /** Spark's message for a task that found its input changed between two passes (our own check). */
    private static final String INPUT_CHANGED = "must not change during a fit";

    /**
     * The failure of the cluster behind {@code e}, or null when {@code e} is something else (a data
     * error, or a bug that must stay visible as one).
     */
    static RuntimeException classify(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
        }
        String text = all.toString();
        String lower = text.toLowerCase(Locale.ROOT);
        String cause = firstLine(e);
        if (text.contains(INPUT_CHANGED)) {
            int at = text.lastIndexOf(INPUT_CHANGED);
            int start = text.lastIndexOf(": ", at);
            String what = text.substring(start < 0 ? 0 : start + 2, at + INPUT_CHANGED.length());
            return new InvalidDataException(what + " (files rewritten or a source that is not deterministic); "
                    + "run again on input that stays the same", e);
        }
        if (text.contains("OutOfMemoryError") || lower.contains("exit code 52") || lower.contains("exited with code 52")
                || lower.contains("exceeding memory limits") || lower.contains("exceeding physical memory")
                || lower.contains("oomkilled") || lower.contains("exit code 137")) {
            return new ClusterFailure("an executor ran out of memory while summing the statistics (" + cause + ")",
                    "give each executor more memory (spark-submit --executor-memory, or spark.executor.memory) or "
                            + "fewer cores (--executor-cores): a task holds about three d x d matrices of doubles "
                            + "(100 MB at d = 2000) besides its partition's rows; or select fewer columns", e);
        }
        if (lower.contains("no space left on device")) {
            return new ClusterFailure("an executor's disk is full (" + cause + ")",
                    "free space in the executors' scratch folders (spark.local.dir), or point them at a larger disk",
                    e);
        }
        if (text.contains("ExecutorLostFailure") || lower.contains("executor heartbeat timed out")
                || lower.contains("remote rpc client disassociated") || lower.contains("worker lost")
                || lower.contains("lost executor") || text.contains("FetchFailed")
                || lower.contains("executor lost")) {
            return new ClusterFailure("the cluster lost executors while running the job, and Spark gave up after "
                    + "its retries (" + cause + ")",
                    "check the workers' logs (a worker killed for memory, or a machine that left), then run again; "
                            + "the release of a run with the same seed does not depend on which executors failed", e);
        }
        if (lower.contains("master removed our application") || lower.contains("all masters are unresponsive")
                || lower.contains("sparkcontext was shut down") || lower.contains("application has been killed")) {
            return new ClusterFailure("the Spark application was stopped by its master (" + cause + ")",
                    "check that the master is running and has workers with enough free cores and memory for this "
                            + "job, then run again", e);
        }
        return null;
    }

    /** Spark's first line of the failure, without its stack trace, at most 300 characters. */
    static String firstLine(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int nl = m.indexOf('\n');
        String line = (nl < 0 ? m : m.substring(0, nl)).strip();
        return line.length() <= 300 ? line : line.substring(0, 297) + "...";
    }
}
