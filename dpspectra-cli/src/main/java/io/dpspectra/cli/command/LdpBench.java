package io.dpspectra.cli.command;

import static io.dpspectra.cli.output.BenchReport.median;
import static io.dpspectra.cli.output.BenchReport.secondsSince;

import io.dpspectra.cli.output.BenchReport;
import io.dpspectra.local.LocalCovarianceRandomizer;
import io.dpspectra.local.LocalPcaAggregator;
import io.dpspectra.local.LocalReportFormat;
import io.dpspectra.local.LocalReportWriter;
import io.dpspectra.local.ReportParameters;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra bench ldp}: the local-DP client and server. (1) The randomizer makes n reports of
 * dimension p (benchmark records: seeded uniform entries scaled into the unit ball; not a mechanism) with
 * the secure noise source unless {@code --seeded}, timed alone in memory and again while writing the
 * binary report file. (2) In one run, alternating, the median time of a plain read of that file (the same
 * 4 MiB reads the report reader makes, touching nothing) and of the aggregation (read, CRC-32 check,
 * parameter check, decode, summation), with the aggregation's peak heap.
 */
@Command(name = "ldp", mixinStandardHelpOptions = true,
        description = {"Times the local-DP randomizer (records per minute, secure noise by default) and the streaming "
                + "aggregation of its binary report file against a plain read of the same file (median of --repeat "
                + "alternating runs; ratio = read seconds / aggregate seconds)."})
final class LdpBench implements Callable<Integer> {
    @Option(names = "--reports", defaultValue = "1000000", description = "n, number of reports (default ${DEFAULT-VALUE}).")
    int reports;

    @Option(names = "--dim", defaultValue = "40", description = "p, record dimension (default ${DEFAULT-VALUE}).")
    int dim;

    @Option(names = "--repeat", defaultValue = "3", description = "Timed read/aggregate pairs (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--seeded", description = "Use the seeded noise source instead of the secure one.")
    boolean seeded;

    @Option(names = "--file", description = "The report file: written by the randomizer if missing (then kept), "
            + "reused if present (then the randomize-and-write time is not measured). Default: a temporary file, "
            + "deleted afterwards. It holds n*(52 + 4p(p+1)) bytes: 6.6 GB for the defaults.")
    Path file;

    @Mixin
    BenchReport report;

    @Override
    public Integer call() throws IOException {
        if (reports < 1 || dim < 1 || repeat < 1) {
            System.err.println("--reports, --dim and --repeat must all be >= 1");
            return 2;
        }
        RandomSource random = seeded ? RandomSource.seededForReproducibility(1) : RandomSource.secure();
        LocalCovarianceRandomizer randomizer = LocalCovarianceRandomizer.builder().dimension(dim)
                .privacy(PrivacyParams.of(0.5, 1e-4)).randomSource(random).build();
        ReportParameters q = randomizer.parameters();
        int m = q.reportLength();
        int block = Math.max(1, Math.min(4096, (1 << 22) / m));
        double[] records = new double[block * dim];
        double[] out = new double[block * m];
        SplittableRandom data = new SplittableRandom(7);

        // (1a) randomizer alone, in memory
        randomizeAll(randomizer, records, out, block, data, null); // warm-up, same work
        long t = System.nanoTime();
        randomizeAll(randomizer, records, out, block, data, null);
        double randomizeSeconds = secondsSince(t);

        boolean temporary = file == null;
        Path path = temporary ? Files.createTempFile("dpspectra-ldp-bench-", ".bin") : file;
        try {
            // (1b) randomizer writing the binary report file
            double randomizeWriteSeconds = Double.NaN;
            if (temporary || !Files.exists(path)) {
                t = System.nanoTime();
                try (LocalReportWriter w = new LocalReportWriter(Files.newOutputStream(path), LocalReportFormat.BINARY,
                        reports)) {
                    randomizeAll(randomizer, records, out, block, data, w);
                }
                randomizeWriteSeconds = secondsSince(t);
            }
            long bytes = Files.size(path);

            // (2) plain read vs aggregation, alternating, in one run
            plainRead(path);
            aggregate(path);
            double[] read = new double[repeat];
            double[] agg = new double[repeat];
            long peak = 0;
            for (int r = 0; r < repeat; r++) {
                t = System.nanoTime();
                plainRead(path);
                read[r] = secondsSince(t);
                System.gc();
                BenchReport.resetPeaks();
                long before = BenchReport.peakHeapBytes();
                t = System.nanoTime();
                aggregate(path);
                agg[r] = secondsSince(t);
                peak = Math.max(peak, BenchReport.peakHeapBytes() - before);
            }
            double readMedian = median(read);
            double aggMedian = median(agg);
            Map<String, Object> res = new LinkedHashMap<>();
            res.put("benchmark", "ldp");
            res.put("reports", reports);
            res.put("dim", dim);
            res.put("noise", seeded ? "seeded" : "secure");
            res.put("randomizeSeconds", randomizeSeconds);
            res.put("randomizeRecordsPerMinute", reports / randomizeSeconds * 60);
            res.put("randomizeAndWriteSeconds", randomizeWriteSeconds);
            res.put("randomizeAndWriteRecordsPerMinute", reports / randomizeWriteSeconds * 60);
            res.put("fileBytes", bytes);
            res.put("plainReadSecondsMedian", readMedian);
            res.put("plainReadGBps", bytes / readMedian / 1e9);
            res.put("aggregateSecondsMedian", aggMedian);
            res.put("aggregateGBps", bytes / aggMedian / 1e9);
            res.put("aggregateSpeedOverReadSpeed", readMedian / aggMedian);
            res.put("aggregatePeakHeapGrowthBytes", peak);
            res.put("plainReadSeconds", java.util.Arrays.toString(read));
            res.put("aggregateSeconds", java.util.Arrays.toString(agg));
            report.print(res);
            return 0;
        } finally {
            if (temporary) {
                Files.deleteIfExists(path);
            }
        }
    }

    private void randomizeAll(LocalCovarianceRandomizer randomizer, double[] records, double[] out, int block,
            SplittableRandom data, LocalReportWriter writer) {
        ReportParameters q = randomizer.parameters();
        int m = q.reportLength();
        for (int done = 0; done < reports; ) {
            int count = Math.min(block, reports - done);
            for (int r = 0; r < count; r++) {
                double s = 0;
                for (int j = 0; j < dim; j++) {
                    double v = data.nextDouble(-1, 1);
                    records[r * dim + j] = v;
                    s += v * v;
                }
                double scale = 1 / Math.max(1, Math.sqrt(s));
                for (int j = 0; j < dim; j++) {
                    records[r * dim + j] *= scale;
                }
            }
            randomizer.randomize(records, count, out);
            if (writer != null) {
                for (int r = 0; r < count; r++) {
                    writer.write(q, out, r * m);
                }
            }
            done += count;
        }
    }

    /** Reads the file in the reader's chunk size into a direct buffer, as the reader does, touching nothing. */
    private static void plainRead(Path path) throws IOException {
        int record = LocalReportFormat.binaryRecordBytes(dimOf(path));
        ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(1, (4 << 20) / record) * record);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            while (ch.read(buffer) >= 0) {
                buffer.clear();
            }
        }
    }

    private static int dimOf(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer head = ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            ch.read(head);
            return head.getInt(8);
        }
    }

    private static void aggregate(Path path) {
        LocalPcaAggregator a = LocalPcaAggregator.create();
        a.addAll(path, false);
        a.aggregate();
    }

}
