package io.dpspectra.bench;

import static io.dpspectra.bench.Timing.median;
import static io.dpspectra.bench.Timing.secondsSince;

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
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The local-DP client and server. (1) The randomizer makes n reports of dimension p (benchmark records: seeded
 * uniform entries scaled into the unit ball; not a mechanism), timed alone in memory and again while writing the
 * binary report file. (2) In one run, alternating, the median time of a plain read of that file (the same 4 MiB
 * reads the report reader makes, touching nothing) and of the aggregation (read, CRC-32 check, parameter check,
 * decode, summation), with the aggregation's peak heap.
 */
public final class LdpBenchmark {
    private final int reports;
    private final int dim;

    private LdpBenchmark(int reports, int dim) {
        this.reports = reports;
        this.dim = dim;
    }

    /**
     * Runs the measurement.
     *
     * @param reports n, at least 1
     * @param dim     p, at least 1
     * @param repeat  timed read/aggregate pairs, at least 1
     * @param random  the randomizer's noise source
     * @param seeded  whether {@code random} is the seeded source (reported as the noise)
     * @param file    the report file: written if missing (then kept), reused if present (then the
     *                randomize-and-write time is not measured); null for a temporary file, deleted afterwards
     * @return the results in report order (benchmark, reports, dim, noise, randomizeSeconds, ...,
     *         aggregateSeconds)
     * @throws IOException if the report file cannot be written or read
     */
    public static Map<String, Object> run(int reports, int dim, int repeat, RandomSource random, boolean seeded,
            Path file) throws IOException {
        return new LdpBenchmark(reports, dim).run(repeat, random, seeded, file);
    }

    private Map<String, Object> run(int repeat, RandomSource random, boolean seeded, Path file) throws IOException {
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
                Timing.resetPeaks();
                long before = Timing.peakHeapBytes();
                t = System.nanoTime();
                aggregate(path);
                agg[r] = secondsSince(t);
                peak = Math.max(peak, Timing.peakHeapBytes() - before);
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
            return res;
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
