package io.dpspectra.spark;

import io.dpspectra.data.InvalidDataException;
import io.dpspectra.linalg.ReproducibleSum;
import io.dpspectra.local.InvalidReportException;
import io.dpspectra.local.LocalAggregate;
import io.dpspectra.local.LocalPcaAggregator;
import io.dpspectra.local.LocalReportFormat;
import io.dpspectra.local.LocalReportReader;
import io.dpspectra.local.ReportParameters;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The server side of local-DP PCA (Wang &amp; Xu, Algorithm 1 step 4) on Spark: the reports written by
 * {@code dpspectra ldp randomize} (JSON lines or binary, in one file, a directory or a glob) are read and
 * checked where they lie, each partition by core's {@link LocalReportReader} and {@link LocalPcaAggregator}
 * (format version, checksum, finite values, calibrated σ, and the public parameters of the first report),
 * and the partitions' sums are merged on the executors ({@link CombineTree}) in core's order-free
 * {@link ReproducibleSum}, so that the driver receives one sum whatever the number of partitions. The
 * driver averages it with core's {@link LocalPcaAggregator#average}, so {@code ldp aggregate} releases
 * from it what it releases from a local file (bit for bit when the reports are one partition; otherwise
 * up to the rounding of each partition's own sum, the same on every run and after task retries).
 *
 * <p>A refused report stops the run: the first one in partition order is reported, with its partition
 * and its line (JSON) or report number (binary) within it, and nothing is released.
 *
 * <p>Partitioning: JSON lines split by lines, binary reports by whole records (each has a fixed size,
 * taken from the first report), so one large file is read in parallel.
 *
 * <p>Privacy: post-processing of (ε, δ)-LDP reports; it spends nothing and draws no noise.
 */
public final class DistributedReports {
    private DistributedReports() {
    }

    /**
     * The average of the reports at {@code path}, or null when there is no report.
     *
     * @throws InvalidReportException for the first refused report
     * @throws InvalidDataException   when the path has no file, or a binary file ends inside a report
     */
    public static LocalAggregate aggregate(SparkSession spark, String path) {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<FileStatus> files = files(jsc, path);
        ReportParameters expected;
        LocalReportFormat format;
        FileStatus first = files.get(0);
        try (LocalReportReader reader = LocalReportReader.of(open(jsc, first), first.getPath().toString())) {
            if (!reader.next()) {
                return null;
            }
            expected = reader.parameters();
            format = reader.format();
        }
        int m = expected.reportLength();
        String name = path;
        JavaRDD<Partial> partials;
        if (format == LocalReportFormat.BINARY) {
            int recordBytes = LocalReportFormat.binaryRecordBytes(expected.dimension());
            for (FileStatus f : files) {
                if (f.getLen() % recordBytes != 0) {
                    throw new InvalidReportException(f.getPath() + " byte " + (f.getLen() / recordBytes * recordBytes
                            + 1), "the file ends inside a report (its reports have " + recordBytes + " bytes each); "
                            + "it is truncated or holds reports of another dimension");
                }
            }
            partials = jsc.binaryRecords(path, recordBytes).mapPartitionsWithIndex((Integer index, Iterator<byte[]> it) ->
                    partial(index, stream(it, ByteArrayInputStream::new), expected, m, name), true);
        } else {
            // partitioned as Spark's file sources partition a text file (one partition for a small file)
            partials = spark.read().textFile(path).javaRDD().mapPartitionsWithIndex((Integer index, Iterator<String> it) ->
                    partial(index, stream(it, line -> new ByteArrayInputStream((line + "\n")
                            .getBytes(StandardCharsets.UTF_8))), expected, m, name), true);
        }
        Partial total = DistributedGram.sparkJob(() -> CombineTree.combine(partials, Partial::merge, p -> p,
                new Partial(m)));
        if (!total.refusals.isEmpty()) {
            String[] r = total.refusals.firstEntry().getValue();
            throw new InvalidReportException(r[0], r[1]);
        }
        if (total.count == 0) {
            return null;
        }
        double[] sum = new double[m];
        total.sums.round(sum, 0);
        return LocalPcaAggregator.average(expected, total.count, sum);
    }

    /** One partition's (or several partitions') sums, counts and first refusals. */
    private static final class Partial implements Serializable {
        private static final long serialVersionUID = 1L;
        private final ReproducibleSum sums;
        private long count;
        private final TreeMap<Integer, String[]> refusals = new TreeMap<>();

        Partial(int m) {
            sums = new ReproducibleSum(m);
        }

        Partial(int index, double[] sum, long count, String[] refusal) {
            sums = new ReproducibleSum(sum.length);
            sums.add(sum, 0);
            this.count = count;
            if (refusal != null) {
                refusals.put(index, refusal);
            }
        }

        Partial merge(Partial other) {
            sums.merge(other.sums);
            count += other.count;
            for (Map.Entry<Integer, String[]> e : other.refusals.entrySet()) {
                refusals.put(e.getKey(), e.getValue());
            }
            return this;
        }
    }

    /** One partition's reports, checked and summed by core's aggregator; a refusal is returned, not thrown. */
    private static Iterator<Partial> partial(int index, InputStream reports, ReportParameters expected, int m,
                                             String name) {
        LocalPcaAggregator aggregator = LocalPcaAggregator.expecting(expected);
        String[] refusal = null;
        try (LocalReportReader reader = LocalReportReader.of(reports, name + " partition " + index)) {
            aggregator.addAll(reader, false);
        } catch (InvalidReportException e) {
            refusal = new String[] {e.position(), e.getMessage().substring(e.position().length() + 2)};
        }
        double[] sum = aggregator.count() > 0 ? aggregator.sum() : new double[m];
        return List.of(new Partial(index, sum, aggregator.count(), refusal)).iterator();
    }

    /** The items of a partition as one stream, read lazily (a partition's records are never all held at once). */
    private static <T> InputStream stream(Iterator<T> it, java.util.function.Function<T, InputStream> f) {
        return new SequenceInputStream(new java.util.Enumeration<InputStream>() {
            @Override
            public boolean hasMoreElements() {
                return it.hasNext();
            }

            @Override
            public InputStream nextElement() {
                return f.apply(it.next());
            }
        });
    }

    /** The files at {@code path} (a file, a directory's visible files, or a glob), in name order. */
    private static List<FileStatus> files(JavaSparkContext jsc, String path) {
        try {
            Path p = new Path(path);
            FileSystem fs = p.getFileSystem(jsc.hadoopConfiguration());
            FileStatus[] matched = fs.globStatus(p);
            List<FileStatus> out = new ArrayList<>();
            for (FileStatus s : matched == null ? new FileStatus[0] : matched) {
                if (s.isDirectory()) {
                    Arrays.stream(fs.listStatus(s.getPath())).filter(FileStatus::isFile)
                            .filter(f -> !f.getPath().getName().startsWith("_") && !f.getPath().getName().startsWith("."))
                            .forEach(out::add);
                } else {
                    out.add(s);
                }
            }
            if (out.isEmpty()) {
                throw new InvalidDataException("REPORTS " + path + " does not exist or holds no file; pass the file "
                        + "written by 'dpspectra ldp randomize'");
            }
            out.sort(Comparator.comparing(f -> f.getPath().toString()));
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the reports at " + path + ": " + e.getMessage(), e);
        }
    }

    private static InputStream open(JavaSparkContext jsc, FileStatus file) {
        try {
            return file.getPath().getFileSystem(jsc.hadoopConfiguration()).open(file.getPath());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the reports in " + file.getPath() + ": " + e.getMessage(), e);
        }
    }
}
