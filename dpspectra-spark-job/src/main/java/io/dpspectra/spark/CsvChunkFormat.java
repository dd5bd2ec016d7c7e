package io.dpspectra.spark;

import io.dpspectra.data.csv.CsvRanges;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * A CSV file (or the visible files of a folder or glob) as {@link RowChunk}s, each split parsed by core's CSV
 * parser or mapped by its schema reader ({@link CsvRanges}: the CLI's cell rules and messages; with an id column,
 * each row's id), for Spark's {@code newAPIHadoopFile}, which
 * counts the bytes each task reads from the file (Spark's input metrics). A split {@code [start, start + length)}
 * of a file holds the lines that begin after a line break inside it (the first split also the file's first line),
 * as Hadoop's line reader splits text; a compressed file is one split. The splits are ordered by file name, then
 * position, so that the rows are numbered in the order of the files' names and lines (the partition index is the
 * split's place). Each split's last chunk carries its {@link CsvRanges.Part}.
 *
 * <p>The reader's settings travel in the Hadoop configuration: the ranges' layout (serialized), INPUT as typed
 * and the one file it names, if it names one (then named in messages as typed).
 */
public final class CsvChunkFormat extends FileInputFormat<LongWritable, RowChunk> {
    static final String RANGES = "dpspectra.csv.ranges";
    static final String TYPED = "dpspectra.csv.typed";
    static final String TYPED_FILE = "dpspectra.csv.typedFile";

    /** Puts the reader's settings into {@code conf}. */
    static void configure(Configuration conf, CsvRanges ranges, String typed, Path typedFile) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(ranges);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialize the CSV layout", e);
        }
        conf.set(RANGES, Base64.getEncoder().encodeToString(bytes.toByteArray()));
        conf.set(TYPED, typed);
        if (typedFile != null) {
            conf.set(TYPED_FILE, typedFile.toString());
        }
    }

    private static CsvRanges ranges(Configuration conf) throws IOException {
        byte[] bytes = Base64.getDecoder().decode(conf.get(RANGES));
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return (CsvRanges) in.readObject();
        } catch (ClassNotFoundException e) {
            throw new IOException("cannot read the CSV layout", e);
        }
    }

    @Override
    protected boolean isSplitable(JobContext context, Path file) {
        return new CompressionCodecFactory(context.getConfiguration()).getCodec(file) == null;
    }

    @Override
    public List<InputSplit> getSplits(JobContext job) throws IOException {
        List<InputSplit> splits = new ArrayList<>(super.getSplits(job));
        splits.sort(Comparator.comparing((InputSplit s) -> ((FileSplit) s).getPath().toString())
                .thenComparingLong(s -> ((FileSplit) s).getStart()));
        return splits;
    }

    @Override
    public RecordReader<LongWritable, RowChunk> createRecordReader(InputSplit split, TaskAttemptContext context) {
        return new Reader();
    }

    /** One split's chunks: one per piece of rows, then one with the split's part (and no rows). */
    private static final class Reader extends RecordReader<LongWritable, RowChunk> {
        private InputStream in;
        private CsvRanges.Reader reader;
        private int d;
        private long start;
        private long length;
        private long chunks;
        private RowChunk value;
        private boolean done;

        @Override
        public void initialize(InputSplit genericSplit, TaskAttemptContext context) throws IOException {
            FileSplit split = (FileSplit) genericSplit;
            Configuration conf = context.getConfiguration();
            CsvRanges ranges = ranges(conf);
            d = ranges.dimension();
            Path file = split.getPath();
            FileSystem fs = file.getFileSystem(conf);
            FSDataInputStream raw = fs.open(file);
            String typedFile = conf.get(TYPED_FILE);
            String name = typedFile != null && typedFile.equals(fs.makeQualified(file).toString()) ? conf.get(TYPED)
                    : file.toString();
            CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(file);
            start = split.getStart();
            length = split.getLength();
            if (codec != null) {
                in = codec.createInputStream(raw);
                reader = ranges.open(in, name, 0, Long.MAX_VALUE);
            } else {
                raw.seek(start);
                in = raw;
                reader = ranges.open(in, name, start, start + length);
            }
        }

        @Override
        public boolean nextKeyValue() throws IOException {
            if (done) {
                return false;
            }
            double[] rows = reader.next();
            if (rows != null) {
                value = new RowChunk(rows, rows.length / d, null, reader.ids());
            } else {
                value = new RowChunk(new double[0], 0, reader.part());
                done = true;
            }
            chunks++;
            return true;
        }

        @Override
        public LongWritable getCurrentKey() {
            return new LongWritable(start + chunks);
        }

        @Override
        public RowChunk getCurrentValue() {
            return value;
        }

        @Override
        public float getProgress() {
            return done ? 1f : 0.5f;
        }

        @Override
        public void close() throws IOException {
            if (in != null) {
                in.close();
            }
        }
    }
}
