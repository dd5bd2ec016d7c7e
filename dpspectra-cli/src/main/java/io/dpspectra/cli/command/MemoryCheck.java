package io.dpspectra.cli.command;

import io.dpspectra.cli.Main;
import io.dpspectra.cli.options.ExternalInputs;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.linalg.MatrixTooLargeException;
import java.util.Locale;

/**
 * The memory a run needs, estimated from (d, k) before any data row is read, and its refusal (exit 2)
 * with the figure and the fix when it cannot fit: more heap ({@code JAVA_OPTS=-Xmx...}) or a streaming
 * algorithm that needs O(dk). An OutOfMemoryError that still happens gets the same hint (see {@link Main}).
 * When INPUT is read elsewhere ({@link ExternalInputs}, e.g. a Spark cluster), that reader checks first.
 */
public final class MemoryCheck {
    /** d x d matrices of doubles alive at the peak of a Gram-based run (XᵀX, its noisy copy, eigen workspace). */
    static final int DENSE_MATRICES = 4;
    public static final String STREAMING_HINT = "a streaming algorithm that needs O(dk) memory: 'fit --algorithm k-dp-ojas' "
            + "(private) or 'fit --algorithm streaming-power' (not private)";

    private MemoryCheck() {
    }

    /** Bytes of an algorithm that forms d x d matrices. */
    static double denseBytes(long d) {
        return 8.0 * DENSE_MATRICES * d * d;
    }

    /**
     * Refuses (exit 2) a run of {@code what} that forms d x d matrices when d x d exceeds one Java array or
     * the estimate exceeds the heap Java may use ({@code maxHeapBytes}).
     */
    static void checkDense(String what, int d, long maxHeapBytes) {
        ExternalInputs.installed().ifPresent(opener -> opener.checkDense(what, d));
        if ((long) d * d > MatrixTooLargeException.MAX_ARRAY_LENGTH) {
            throw CliException.usage(what + " forms a d x d matrix, and for d = " + d + " its " + String.format(
                    Locale.ROOT, "%.3g", (double) d * d) + " entries exceed what one Java array can hold, whatever the "
                    + "memory", "select fewer columns with --columns, or use " + STREAMING_HINT);
        }
        double need = denseBytes(d);
        if (need > maxHeapBytes) {
            throw CliException.usage(String.format(Locale.ROOT, "%s needs about %s of memory for d = %d (%d d x d "
                            + "matrices of doubles) but Java may use at most %s", what, human(need), d, DENSE_MATRICES,
                    human(maxHeapBytes)), "give Java more memory, e.g. JAVA_OPTS=-Xmx" + suggestedHeap(need)
                    + " ./dpspectra ..., or use " + STREAMING_HINT);
        }
    }

    /** The hint for an OutOfMemoryError that still happened. */
    public static String outOfMemoryHint(long maxHeapBytes) {
        return "Java may use at most " + human(maxHeapBytes) + "; give it more, e.g. JAVA_OPTS=-Xmx"
                + suggestedHeap(2.0 * maxHeapBytes) + " ./dpspectra ..., or use " + STREAMING_HINT
                + "; no output was written";
    }

    static String human(double bytes) {
        if (bytes >= 1e9) {
            return String.format(Locale.ROOT, "%.1f GB", bytes / 1e9);
        }
        return String.format(Locale.ROOT, "%.0f MB", Math.max(1, bytes / 1e6));
    }

    /** A -Xmx value comfortably above {@code bytes}: whole gigabytes (or megabytes below 1 GB), plus 25%. */
    static String suggestedHeap(double bytes) {
        double target = bytes * 1.25 + 256e6;
        if (target >= 1e9) {
            return (long) Math.ceil(target / (1L << 30)) + "g";
        }
        return (long) Math.ceil(target / (1L << 20)) + "m";
    }
}
