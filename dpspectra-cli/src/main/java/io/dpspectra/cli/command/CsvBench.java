package io.dpspectra.cli.command;

import io.dpspectra.cli.Main;
import io.dpspectra.cli.output.BenchReport;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.data.CsvRows;
import io.dpspectra.data.RowCursor;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra bench csv}: what reading a CSV costs, inside one JVM, against reading its bytes and
 * against the same fit on the binary copy: raw read of the file, the parse-only pass ({@link CsvRows}),
 * {@code convert} to .dpsr, and {@code fit --algorithm analyze-gauss} on the CSV and on the .dpsr. The
 * data, unless {@code --file} is given, is written by {@code dpspectra generate} (spiked model, seeded;
 * benchmark data, not a privacy mechanism) into a temporary folder and deleted afterwards.
 */
@Command(name = "csv", mixinStandardHelpOptions = true,
        description = "Times, in one JVM: the raw read of a CSV file, the parse-only pass, convert to .dpsr, and"
            + " fit --algorithm analyze-gauss on the CSV and on the .dpsr copy; reports MB/s (of the CSV's bytes) and"
            + " the fit ratio CSV / .dpsr. Each step runs --repeat times after one warm-up; medians are reported"
            + " (the machine may be shared: compare ratios from one run; process CPU seconds are shown too, as the"
            + " measure that other processes disturb least). JVM start-up is not included: time"
            + " the launcher from the shell for that (docs/benchmarks/csv.md).")
final class CsvBench implements Callable<Integer> {
    @Option(names = "--file", description = "CSV file to time. Default: a generated --rows x --dim file.")
    Path file;

    @Option(names = "--rows", defaultValue = "100000", description = "Rows of the generated file (default ${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--dim", defaultValue = "100", description = "Columns of the generated file (default ${DEFAULT-VALUE}).")
    int dim;

    @Option(names = "--repeat", defaultValue = "3", description = "Timed repeats (default ${DEFAULT-VALUE}).")
    int repeat;

    @Mixin
    BenchReport report;

    @Override
    public Integer call() throws Exception {
        if (repeat < 1) {
            throw CliException.usage("--repeat must be >= 1, got " + repeat, "pass e.g. --repeat 3");
        }
        Path dir = Files.createTempDirectory("dpspectra-bench-csv-");
        try {
            Path csv = file;
            if (csv == null) {
                csv = dir.resolve("bench.csv");
                run("generate", "--model", "spiked", "--rows", Long.toString(rows), "--dim", Integer.toString(dim),
                        "--seed", "1", "--output", csv.toString());
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
                double tConvert = time(() -> run("convert", csvFinal.toString(), dpsr.toString()), c, 2);
                double tFitCsv = time(() -> run(concat(fit, csvFinal.toString())), c, 3);
                double tFitDpsr = time(() -> run(concat(fit, dpsr.toString())), c, 4);
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
            out.put("fitCsvOverDpsrMedian", BenchReport.median(ratio));
            report.print(out, () -> {
                System.out.printf(Locale.ROOT, "file: %s (%.1f MB), %d cores, load %.2f, median of %d%n",
                        out.get("file"), mb, out.get("cores"), out.get("loadAverage"), repeat);
                System.out.printf(Locale.ROOT, "%-24s %10s %10s %12s %14s%n", "step", "seconds", "MB/s", "cpu seconds",
                        "MB/cpu-second");
                for (String k : new String[] {"readBytes", "parseOnlyPass", "convertToDpsr", "fitAnalyzeGaussCsv",
                    "fitAnalyzeGaussDpsr"}) {
                    System.out.printf(Locale.ROOT, "%-24s %10.3f %10.0f %12.3f %14.0f%n", k, out.get(k + "Seconds"),
                            out.get(k + "MBps"), out.get(k + "CpuSeconds"), out.get(k + "MBperCpuSecond"));
                }
                System.out.printf(Locale.ROOT, "fit CSV / .dpsr (median of per-repeat ratios): %.2f%n",
                        out.get("fitCsvOverDpsrMedian"));
            });
            return 0;
        } finally {
            try (var s = Files.list(dir)) {
                s.forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
    }

    private static void put(Map<String, Object> out, String key, double[] seconds, double[] cpuSeconds, double mb) {
        double m = BenchReport.median(seconds);
        double c = BenchReport.median(cpuSeconds);
        out.put(key + "Seconds", m);
        out.put(key + "MBps", mb / m);
        out.put(key + "CpuSeconds", c);
        out.put(key + "MBperCpuSecond", mb / c);
    }

    private interface Step {
        void run() throws Exception;
    }

    /** Runs {@code step}; returns its wall seconds and stores the process CPU seconds it took in cpu[slot]. */
    private static double time(Step step, double[] cpu, int slot) throws Exception {
        long c = processCpuNanos();
        long t = System.nanoTime();
        step.run();
        double wall = BenchReport.secondsSince(t);
        cpu[slot] = (processCpuNanos() - c) / 1e9;
        return wall;
    }

    /** CPU time of this JVM, all threads (on a shared machine, the measure that other processes disturb least). */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static String[] concat(String[] a, String last) {
        String[] all = java.util.Arrays.copyOf(a, a.length + 1);
        all[a.length] = last;
        return all;
    }

    /** Runs a dpspectra command in this JVM; its output is dropped, a failure is an error. */
    private static void run(String... args) {
        CommandLine cl = Main.newCommandLine();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        if (code != 0) {
            throw new IllegalStateException("dpspectra " + String.join(" ", args) + " failed (exit " + code + "): " + err);
        }
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
