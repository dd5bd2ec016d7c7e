package io.dpspectra.cli.output;

import io.dpspectra.cli.options.CommonOptions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --json} of the {@code dpspectra bench} subcommands and the printing of their results (an ordered
 * map: indented JSON with {@code --json}, else a table), plus the measurement helpers they share: elapsed
 * seconds, best-of-repeats, medians and the peak heap. Used as a picocli mixin; the helpers are static.
 */
public final class BenchReport {
    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @picocli.CommandLine.Mixin
    CommonOptions common = new CommonOptions();

    /** Prints {@code results} as indented JSON with {@code --json}, else one aligned {@code key value} line each. */
    public void print(Map<String, Object> results) throws IOException {
        print(results, () -> results.forEach((k, v) -> System.out.printf(Locale.ROOT, "%-34s %s%n", k, v)));
    }

    /** Prints {@code results} as indented JSON with {@code --json}, else runs the bench's own {@code table}. */
    public void print(Map<String, Object> results, Runnable table) throws IOException {
        if (json) {
            System.out.println(Json.MAPPER.writeValueAsString(results));
        } else {
            table.run();
        }
    }

    /** Seconds elapsed since {@code startNanos}, a {@link System#nanoTime()} reading. */
    public static double secondsSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Runs {@code r} once as a warm-up, then {@code repeat} timed times; returns the fastest run in seconds. */
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

    /** The median of {@code values} (the mean of the middle two for an even count); the array is not modified. */
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

    /** The sum of the heap pools' peak usage since the last {@link #resetPeaks()} (or JVM start), in bytes. */
    public static long peakHeapBytes() {
        long s = 0;
        for (MemoryPoolMXBean b : ManagementFactory.getMemoryPoolMXBeans()) {
            if (b.getType() == MemoryType.HEAP) {
                s += b.getPeakUsage().getUsed();
            }
        }
        return s;
    }
}
