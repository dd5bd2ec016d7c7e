package io.dpspectra.cli.command;

import io.dpspectra.bench.CsvBenchmark;
import io.dpspectra.cli.Main;
import io.dpspectra.cli.output.BenchReport;
import io.dpspectra.cli.output.CliException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra bench csv} ({@link CsvBenchmark}): what reading a CSV costs, inside one JVM, against reading its bytes and
 * against the same fit on the binary copy: raw read of the file, the parse-only pass (the CSV reader),
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
        Map<String, Object> out = CsvBenchmark.run(file, rows, dim, repeat, CsvBench::run);
        double mb = (double) out.get("megabytes");
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
}
