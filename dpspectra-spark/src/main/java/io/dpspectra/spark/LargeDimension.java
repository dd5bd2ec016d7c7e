package io.dpspectra.spark;

import io.dpspectra.release.ReleaseSettingException;
import java.util.Locale;
import org.apache.spark.SparkConf;

/**
 * The refusal, before anything is spent (before any statistic of the rows is computed), of a release that forms
 * d × d matrices when d is too large for them: XᵀX is summed on the executors (each running task holds a partial of about three d × d matrices:
 * the order-free sum and a scratch block) and lands on the driver, which adds noise and decomposes it (about
 * {@value #DRIVER_MATRICES} d × d matrices at the peak, as for the CLI). Refused are d above
 * {@value #MAX_DIMENSION}, where one d × d matrix of doubles is over half a gigabyte and the executors' partials
 * several times that, and any d whose matrices do not fit the driver's heap (with local mode's tasks, which run
 * in the driver) or the executors' memory ({@code spark.executor.memory}). The alternative named is the private
 * power method, which never forms XᵀX: each iteration is one distributed product Xᵀ(XW), d × k numbers on the
 * driver.
 *
 * <p>Public because the job's classes (io.dpspectra.spark.DpPcaJob) are loaded by spark-submit's own class
 * loader, which may not reach this module's package-private members.
 *
 * <p>Privacy: the check reads d (the width of the column or the number of selected columns, public) and the
 * cluster's configuration only, never a row.
 */
public final class LargeDimension {
    /** The largest d for which an algorithm may form d × d matrices on a cluster. */
    public static final int MAX_DIMENSION = 8000;
    /** d × d matrices of doubles alive on the driver at the peak of a Gram-based release. */
    static final int DRIVER_MATRICES = 4;
    /** d × d matrices of doubles a running task holds while it sums its partial XᵀX. */
    static final int TASK_MATRICES = 3;

    /** How the user names things: the estimators' setters or the job's options. */
    public enum Front {
        /** DpPca / DpCovariance. */
        ESTIMATOR,
        /** DpPcaJob (the CLI's options). */
        JOB;

        String algorithm(String name) {
            return this == ESTIMATOR ? "setAlgorithm(\"" + name + "\")" : "--algorithm " + name;
        }

        String driverMemory(String size) {
            return this == ESTIMATOR ? "spark.driver.memory=" + size + " (spark-submit --driver-memory " + size + ")"
                    : "spark-submit --driver-memory " + size;
        }

        String executorMemory(String size) {
            return this == ESTIMATOR ? "spark.executor.memory=" + size : "spark-submit --executor-memory " + size;
        }

        String fewerColumns() {
            return this == ESTIMATOR ? "select fewer features into the vector column" : "select fewer columns with "
                    + "--columns";
        }
    }

    private LargeDimension() {
    }

    /**
     * Refuses {@code what} (an algorithm that forms d × d matrices, or a covariance release) at width {@code d}
     * when the matrices do not fit comfortably.
     *
     * @param what       what forms them, as the user named it (e.g. "algorithm analyze-gauss")
     * @param pca        whether the release is a PCA (then the private power method is the alternative)
     * @param d          the width of the rows
     * @param conf       the cluster's configuration (master, executor memory and cores)
     * @param driverHeap the heap the driver may use (its {@code Runtime.maxMemory()})
     * @param front      how the user names settings
     * @throws ReleaseSettingException naming the limit, the alternative and the fix
     */
    public static void checkGram(String what, boolean pca, int d, SparkConf conf, long driverHeap, Front front) {
        String alternative = pca ? "use " + front.algorithm("private-power") + " (private; one distributed pass "
                + "Xᵀ(XW) per iteration, never forming XᵀX: d x k numbers travel, not d x d) or "
                + front.algorithm("streaming-power") + " (not private), or " + front.fewerColumns()
                : front.fewerColumns() + ", or release principal components instead of the covariance ("
                + "DpPca with " + front.algorithm("private-power") + " never forms XᵀX)";
        double matrix = 8.0 * d * d;
        if (d > MAX_DIMENSION) {
            throw new ReleaseSettingException(String.format(Locale.ROOT, "%s forms d x d matrices (XᵀX summed on the "
                            + "executors, then its noisy copy and eigendecomposition on the driver), and d = %d is "
                            + "above %d, where they no longer fit comfortably: one is %s, the executors' partials "
                            + "and the driver's work about %d times that; nothing was spent", what, d,
                    MAX_DIMENSION, human(matrix), DRIVER_MATRICES + TASK_MATRICES), alternative);
        }
        boolean local = conf.get("spark.master", "").startsWith("local");
        int tasks = local ? localTasks(conf.get("spark.master", "local")) : 0;
        double driverNeed = matrix * (DRIVER_MATRICES + (double) TASK_MATRICES * tasks);
        if (driverNeed > driverHeap) {
            throw new ReleaseSettingException(String.format(Locale.ROOT, "%s needs about %s on the driver for d = %d "
                            + "(%d d x d matrices of doubles%s) but the driver may use at most %s; nothing was spent",
                    what, human(driverNeed), d, DRIVER_MATRICES, local ? " plus " + TASK_MATRICES
                            + " for each of the " + tasks + " tasks that run in it in local mode" : "",
                    human(driverHeap)), "give the driver more memory, e.g. " + front.driverMemory(suggested(driverNeed))
                    + ", or " + alternative);
        }
        if (!local) {
            long executorHeap = conf.getSizeAsBytes("spark.executor.memory", "1g");
            int cores = conf.getInt("spark.executor.cores", 1);
            double executorNeed = matrix * TASK_MATRICES * cores;
            // Spark keeps 300 MB of an executor's heap for itself
            if (executorNeed > executorHeap - 300e6) {
                throw new ReleaseSettingException(String.format(Locale.ROOT, "%s needs about %s in each executor for "
                                + "d = %d (%d d x d matrices of doubles for each of its %d cores) but spark.executor."
                                + "memory is %s, of which Spark keeps 300 MB; nothing was spent", what,
                        human(executorNeed), d, TASK_MATRICES, cores, human(executorHeap)), "give the executors more "
                        + "memory, e.g. " + front.executorMemory(suggested(executorNeed + 300e6)) + ", or "
                        + alternative);
            }
        }
    }

    /** The number of task threads of a local master: local → 1, local[N] / local[N,F] → N, local[*] → cores. */
    static int localTasks(String master) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("local(?:-cluster)?\\[(\\*|\\d+)").matcher(master);
        if (!m.find()) {
            return 1;
        }
        return m.group(1).equals("*") ? Runtime.getRuntime().availableProcessors() : Integer.parseInt(m.group(1));
    }

    static String human(double bytes) {
        return bytes >= 1e9 ? String.format(Locale.ROOT, "%.1f GB", bytes / 1e9)
                : String.format(Locale.ROOT, "%.0f MB", Math.max(1, bytes / 1e6));
    }

    /** A memory size comfortably above {@code bytes}: whole gigabytes plus 25%. */
    static String suggested(double bytes) {
        return (long) Math.ceil((bytes * 1.25 + 256e6) / (1L << 30)) + "g";
    }
}
