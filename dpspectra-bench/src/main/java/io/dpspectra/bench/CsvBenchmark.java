package io.dpspectra.bench;

import io.dpspectra.data.RowCursor;
import io.dpspectra.data.csv.CsvRows;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What reading a CSV costs, inside one JVM, against reading its bytes and against the same fit on the binary copy:
 * the raw read of the file, the parse-only pass ({@link CsvRows}), {@code convert} to .dpsr, and
 * {@code fit --algorithm analyze-gauss} on the CSV and on the .dpsr. Each step runs {@code repeat} times after one
 * warm-up; medians are reported, with the process CPU seconds (the measure that other processes disturb least).
 * The commands ({@code generate}, {@code convert}, {@code fit}) are the dpspectra command's own, run in this JVM by
 * the caller's {@link Commands}.
 */
public final class CsvBenchmark {
    private CsvBenchmark() {
    }

    /** Runs a dpspectra command in this JVM; a failure is an exception. */
    @FunctionalInterface
    public interface Commands {
        /**
         * Runs one command.
         *
         * @param args the command line, e.g. {@code convert in.csv out.dpsr}
         * @throws Exception if the command fails
         */
        void run(String... args) throws Exception;
    }

    private interface Step {
        void run() throws Exception;
    }

    /**
     * Runs the measurement in a temporary folder, deleted afterwards.
     *
     * @param file      the CSV file to time, or null for a generated {@code rows × dim} file ({@code dpspectra
     *                  generate}: spiked model, seeded; benchmark data, not a privacy mechanism)
     * @param rows      rows of the generated file
     * @param dim       columns of the generated file
     * @param repeat    timed repeats, at least 1
     * @param dpspectra runs the dpspectra commands
     * @return the results in report order (file, megabytes, cores, loadAverage, repeats, then per step its
     *         Seconds, MBps, CpuSeconds and MBperCpuSecond, then fitCsvOverDpsrMedian)
     * @throws Exception if a step fails
     */
    public static Map<String, Object> run(Path file, long rows, int dim, int repeat, Commands dpspectra)
            throws Exception {
        Path dir = Files.createTempDirectory("dpspectra-bench-csv-");
        try {
            Path csv = file;
            if (csv == null) {
                csv = dir.resolve("bench.csv");
                dpspectra.run("generate", "--model", "spiked", "--rows", Long.toString(rows), "--dim",
                        Integer.toString(dim), "--seed", "1", "--output", csv.toString());
            }
            Path csvFinal = csv;
            Path dpsr = dir.resolve("bench.dpsr");
            Path model = dir.resolve("model.json");
            double mb = Files.size(csv) / 1e6;
            String[] fit = {"fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "1", "--output", model.toString()};
            double[] read = new double[repeat];
            double[] parse = new double[repeat];
            double[] convert = new double[repeat];
            double[] fitCsv = new double[repeat];
            double[] fitDpsr = new double[repeat];
            double[] ratio = new double[repeat];
            double[][] cpu = new double[5][repeat];
            for (int r = -1; r < repeat; r++) { // r = -1 is the warm-up
                double[] c = new double[5];
                double tRead = time(() -> readBytes(csvFinal), c, 0);
                double tParse = time(() -> parseOnly(csvFinal), c, 1);
                double tConvert = time(() -> dpspectra.run("convert", csvFinal.toString(), dpsr.toString()), c, 2);
                double tFitCsv = time(() -> dpspectra.run(concat(fit, csvFinal.toString())), c, 3);
                double tFitDpsr = time(() -> dpspectra.run(concat(fit, dpsr.toString())), c, 4);
                if (r >= 0) {
                    for (int i = 0; i < 5; i++) {
                        cpu[i][r] = c[i];
                    }
                    read[r] = tRead;
                    parse[r] = tParse;
                    convert[r] = tConvert;
                    fitCsv[r] = tFitCsv;
                    fitDpsr[r] = tFitDpsr;
                    ratio[r] = tFitCsv / tFitDpsr;
                }
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("file", file == null ? "generated " + rows + " x " + dim : file.toString());
            out.put("megabytes", mb);
            out.put("cores", Runtime.getRuntime().availableProcessors());
            out.put("loadAverage", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            out.put("repeats", repeat);
            put(out, "readBytes", read, cpu[0], mb);
            put(out, "parseOnlyPass", parse, cpu[1], mb);
            put(out, "convertToDpsr", convert, cpu[2], mb);
            put(out, "fitAnalyzeGaussCsv", fitCsv, cpu[3], mb);
            put(out, "fitAnalyzeGaussDpsr", fitDpsr, cpu[4], mb);
            out.put("fitCsvOverDpsrMedian", Timing.median(ratio));
            return out;
        } finally {
            try (var s = Files.list(dir)) {
                s.forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
    }

    private static void put(Map<String, Object> out, String key, double[] seconds, double[] cpuSeconds, double mb) {
        double m = Timing.median(seconds);
        double c = Timing.median(cpuSeconds);
        out.put(key + "Seconds", m);
        out.put(key + "MBps", mb / m);
        out.put(key + "CpuSeconds", c);
        out.put(key + "MBperCpuSecond", mb / c);
    }

    /** Runs {@code step}; returns its wall seconds and stores the process CPU seconds it took in cpu[slot]. */
    private static double time(Step step, double[] cpu, int slot) throws Exception {
        long c = Timing.processCpuNanos();
        long t = System.nanoTime();
        step.run();
        double wall = Timing.secondsSince(t);
        cpu[slot] = (Timing.processCpuNanos() - c) / 1e9;
        return wall;
    }

    private static String[] concat(String[] a, String last) {
        String[] all = java.util.Arrays.copyOf(a, a.length + 1);
        all[a.length] = last;
        return all;
    }

    /** Reads every byte of the file through a 1 MiB buffer (what any reader pays at least). */
    private static void readBytes(Path p) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            while (ch.read(buf) >= 0) {
                buf.clear();
            }
        }
    }

    /** One pass of the CSV reader, rows discarded. */
    private static void parseOnly(Path p) {
        CsvRows rows = CsvRows.open(p);
        int d = rows.dimension();
        double[] block = new double[256 * d];
        try (RowCursor c = rows.open()) {
            while (c.nextBlock(block, 256, d) > 0) {
                // discard
            }
        }
    }
}
