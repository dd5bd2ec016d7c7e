package io.dpspectra.cli.command;

import io.dpspectra.bench.GramBenchmark;
import io.dpspectra.bench.PassBenchmark;
import io.dpspectra.cli.output.BenchReport;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.data.BinaryRows;
import io.dpspectra.linalg.Backend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra bench pass} ({@link PassBenchmark}): one pass over a {@code .dpsr} file taken apart, against a raw
 * read of the same bytes, and the file's Gram pass against the in-memory one, in one JVM. Without {@code --file}
 * the rows are benchmark data (uniform in [−1, 1), seeded; not a privacy mechanism) in a temporary file.
 */
@Command(name = "pass", mixinStandardHelpOptions = true,
        description = {
            "Times one pass over a .dpsr file layer by layer, against a raw read of the same bytes.",
            "The steps, each in turn in every round of one JVM:",
            "  rawRead           the file's bytes through a 1 MiB direct buffer, nothing decoded (the floor);",
            "  decode            the .dpsr reader into blocks of rows (with its finiteness check);",
            "  decodeClip        the same through an L2 clip to --clip-norm (how a bounded release reads);",
            "  streamingProduct  the clipped rows folded into X^T(X W), W d x p (one streaming-power step);",
            "  fileGram          the clipped Gram pass of a release (analyze-gauss and the covariances);",
            "  inMemoryGram      X^T X of the same clipped rows held in memory (same blocks, same bits).",
            "One warm-up round, then --repeat rounds; the best wall time and the best CPU time of the calling",
            "thread of each step are shown, in GB of row data (8*n*d bytes) per second, with the ratios to the",
            "raw read and of the file Gram to the in-memory one. The CPU column misses the BLAS's own threads:",
            "run with OPENBLAS_NUM_THREADS=1 to have every step's work on the calling thread. On a shared",
            "machine, compare the CPU ratios of one run; the load average is shown.",
            "Heap: the in-memory step holds the matrix, 8*n*d bytes (320 MB at the default 200000 x 200)."})
final class PassBench implements Callable<Integer> {
    @Option(names = "--file", paramLabel = "FILE", description = "The .dpsr file to read; created with benchmark data"
            + " of --rows x --dim if missing (then kept). Without it a temporary file is used and deleted.")
    Path file;

    @Option(names = "--rows", paramLabel = "N", defaultValue = "200000",
            description = "n of the generated data (default ${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--dim", paramLabel = "D", defaultValue = "200",
            description = "d of the generated data (default ${DEFAULT-VALUE}).")
    int dim;

    @Option(names = "--clip-norm", paramLabel = "B", defaultValue = "1.0",
            description = "L2 bound of the clipped steps (default ${DEFAULT-VALUE}: every generated row is clipped).")
    double clipNorm;

    @Option(names = "--block-size", paramLabel = "P", defaultValue = "4",
            description = "p, the columns of W in the streaming product (default ${DEFAULT-VALUE}, as streaming-power's).")
    int p;

    @Option(names = "--backend", paramLabel = "native|java|default", defaultValue = "default",
            description = "native, java or default (native if OpenBLAS loads). Default: ${DEFAULT-VALUE}.")
    String backend;

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "5",
            description = "Timed rounds after the warm-up; the best of each step is shown (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Seed of the generated data (default ${DEFAULT-VALUE}).")
    long seed;

    @Mixin
    BenchReport report;

    @Override
    public Integer call() throws Exception {
        if (rows < 1 || dim < 1 || repeat < 1 || p < 1) {
            throw CliException.usage("--rows, --dim, --block-size and --repeat must all be >= 1; got --rows " + rows
                    + " --dim " + dim + " --block-size " + p + " --repeat " + repeat, "pass positive sizes");
        }
        if (!(clipNorm > 0) || Double.isInfinite(clipNorm)) {
            throw CliException.usage("--clip-norm must be a finite number > 0, got " + clipNorm, "pass e.g. --clip-norm 1");
        }
        Backend be = switch (backend.toLowerCase(Locale.ROOT)) {
            case "java" -> Backend.PURE_JAVA;
            case "default", "native" -> Backend.DEFAULT;
            default -> throw CliException.usage("--backend must be native, java or default, got '" + backend + "'",
                    "see 'dpspectra bench pass --help'");
        };
        if (backend.equalsIgnoreCase("native") && !be.isNative()) {
            throw CliException.usage("--backend native: native BLAS could not be loaded (active: " + be.describe() + ")",
                    "install OpenBLAS (apt-get install libopenblas0) or use --backend java");
        }
        boolean temporary = file == null;
        Path path = temporary ? Files.createTempFile("dpspectra-pass-", ".dpsr") : file;
        try {
            if (temporary || !Files.exists(path)) {
                BinaryRows.write(GramBenchmark.benchmarkData(rows, dim, seed), path);
            }
            BinaryRows data = BinaryRows.open(path);
            if (!GramBenchmark.fitsInMemory(data.size(), data.dimension())) {
                throw CliException.usage("the in-memory step needs rows x columns <= 2^31, got " + data.size() + " x "
                        + data.dimension(), "use a smaller file or --rows");
            }
            if (p > data.dimension()) {
                throw CliException.usage("--block-size " + p + " is larger than the file's " + data.dimension()
                        + " columns", "pass --block-size <= " + data.dimension());
            }
            Map<String, Object> out = PassBenchmark.run(path, clipNorm, p, be, repeat);
            report.print(out, () -> table(out));
            return 0;
        } finally {
            if (temporary) {
                Files.deleteIfExists(path);
            }
        }
    }

    private void table(Map<String, Object> out) {
        System.out.printf(Locale.ROOT, "pass over %s: n=%d d=%d (%.3f GB), clip L2 %s, p=%d, block rows %d, backend %s,"
                + " %d cores, best of %d%n", out.get("file"), out.get("rows"), out.get("dim"), out.get("gigabytes"),
                out.get("clipNorm"), out.get("p"), out.get("blockRows"), out.get("backend"), out.get("cores"), repeat);
        System.out.printf(Locale.ROOT, "load average %.2f before, %.2f after%n", out.get("loadAverageBefore"),
                out.get("loadAverageAfter"));
        System.out.printf(Locale.ROOT, "%-18s %9s %8s %11s %10s%n", "step", "seconds", "GB/s", "cpu seconds",
                "GB/cpu-s");
        for (String s : PassBenchmark.STEPS) {
            System.out.printf(Locale.ROOT, "%-18s %9.4f %8.2f %11.4f %10.2f%n", s, out.get(s + "Seconds"),
                    out.get(s + "GBps"), out.get(s + "CpuSeconds"), out.get(s + "GBperCpuSecond"));
        }
        System.out.printf(Locale.ROOT, "%-34s %6s %6s%n", "ratio", "wall", "cpu");
        for (String r : new String[] {"decodeOverRaw", "decodeClipOverRaw", "streamingProductOverRaw",
            "fileGramOverInMemory"}) {
            System.out.printf(Locale.ROOT, "%-34s %6.2f %6.2f%n", r, out.get(r), out.get(r + "Cpu"));
        }
        System.out.println("file and in-memory Gram bit-identical: " + out.get("gramsBitIdentical"));
    }
}
