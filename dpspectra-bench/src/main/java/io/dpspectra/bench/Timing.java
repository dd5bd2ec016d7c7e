package io.dpspectra.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Arrays;

/** The measurement helpers the benchmarks share: elapsed seconds, best of repeats, medians, peak heap, CPU time. */
public final class Timing {
    private Timing() {
    }

    /**
     * Seconds elapsed since a reading of {@link System#nanoTime()}.
     *
     * @param startNanos the earlier reading
     * @return the seconds since then
     */
    public static double secondsSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /**
     * Runs {@code r} once as a warm-up, then {@code repeat} timed times.
     *
     * @param repeat the number of timed runs, at least 1
     * @param r      the work to time
     * @return the fastest timed run, in seconds
     */
    public static double bestSeconds(int repeat, Runnable r) {
        r.run(); // warm-up
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < repeat; i++) {
            long t = System.nanoTime();
            r.run();
            best = Math.min(best, secondsSince(t));
        }
        return best;
    }

    /**
     * The median of some values (the mean of the middle two for an even count).
     *
     * @param values the values, not modified
     * @return their median
     */
    public static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** Resets the peak usage of every memory pool, so that {@link #peakHeapBytes()} measures from now. */
    public static void resetPeaks() {
        for (MemoryPoolMXBean b : ManagementFactory.getMemoryPoolMXBeans()) {
            b.resetPeakUsage();
        }
    }

    /**
     * The heap's peak usage since the last {@link #resetPeaks()} (or JVM start).
     *
     * @return the sum of the heap pools' peak usage, in bytes
     */
    public static long peakHeapBytes() {
        long s = 0;
        for (MemoryPoolMXBean b : ManagementFactory.getMemoryPoolMXBeans()) {
            if (b.getType() == MemoryType.HEAP) {
                s += b.getPeakUsage().getUsed();
            }
        }
        return s;
    }

    /**
     * The CPU time of this JVM, all threads: on a shared machine, the measure that other processes disturb least.
     *
     * @return process CPU nanoseconds, or 0 where the JVM does not report them
     */
    public static long processCpuNanos() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0L;
    }
}
