package io.dpspectra.local;

import io.dpspectra.covariance.GaussianCalibration;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackInputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Streams {@link LocalReport}s from a file or stream in either {@link LocalReportFormat}, detected from the
 * first byte ('{' for JSON lines, "DPLR" for binary). One report is held at a time: {@link #next()} reads
 * it, {@link #parameters()} and {@link #values()} show it until the next call.
 *
 * <p>A report that cannot be read (malformed line, bad checksum, unsupported version, invalid parameter)
 * makes {@link #next()} throw an {@link InvalidReportException} naming its line (JSON) or report number
 * (binary); the following call goes on with the next report. Binary reports have a fixed size, taken from
 * the first report; when even that cannot be read (or the file is of format version 1), the reader is
 * {@link #broken()} and can go no further. A binary file that ends inside a report ends there:
 * {@link #partialBytes()} says how much of it there was. Each report's place in its file ("report i of N",
 * {@link #index()}, {@link #count()}) is read but not judged here; {@link LocalPcaAggregator} checks the
 * sequence.
 *
 * <p>JSON lines are parsed by a strict RFC 8259 parser ({@link io.dpspectra.json.JsonReader}): whitespace
 * between tokens and any order of the keys are accepted; every key of the format is required, once, and no
 * other.
 *
 * <p>Cost: O(p²) memory; the binary path reads 4 MiB at a time into direct buffers, on a background thread that also checks
 * each report's CRC-32 while the caller uses the previous chunk (two chunk buffers, 8 MiB off the heap); no allocation per report.
 */
public final class LocalReportReader implements AutoCloseable {
    private static final int CHUNK_BYTES = 4 << 20;

    private final String name;
    private final LocalReportFormat format;
    private final ReadableByteChannel channel;
    private final BufferedReader lines;
    private ByteBuffer buffer;
    /** The binary path reads the next chunk on a background thread while this one is checked and summed. */
    private ByteBuffer spare;
    private java.util.concurrent.ExecutorService prefetcher;
    private java.util.concurrent.Future<Chunk> nextChunk;
    /** Whether each whole record of {@link #buffer} passed its CRC-32 (computed where the chunk was read). */
    private boolean[] intact;
    /** The per-record steps on {@link #buffer} (remade when the buffer changes). */
    private BinaryRecords records;

    /** A chunk of binary reports and the CRC-32 verdict of each whole record in it. */
    private record Chunk(ByteBuffer bytes, boolean[] intact) {
    }
    private int recordBytes = -1;
    /** The parameter block of the last report whose parameters were parsed, as longs (48 bytes). */
    private final long[] lastHeader = new long[LocalReportFormat.PARAMETER_BYTES / 8];
    private long reportNumber;

    private ReportParameters parameters;
    private double[] values;
    private long index;
    private long count;
    private boolean broken;
    private boolean ended;
    private long partialBytes;

    private LocalReportReader(InputStream in, ReadableByteChannel file, String name) throws IOException {
        this.name = name;
        int first;
        InputStream source = in;
        if (file != null) {
            ByteBuffer one = ByteBuffer.allocate(1);
            first = file.read(one) > 0 ? one.get(0) & 0xff : -1;
            ((java.nio.channels.SeekableByteChannel) file).position(0);
        } else {
            PushbackInputStream peek = new PushbackInputStream(in, 1);
            first = peek.read();
            if (first >= 0) {
                peek.unread(first);
            }
            source = peek;
        }
        if (first == '{' || first < 0) {
            format = LocalReportFormat.JSON_LINES;
            lines = new BufferedReader(new InputStreamReader(file != null ? Channels.newInputStream(file) : source,
                    StandardCharsets.UTF_8), 1 << 16);
            channel = null;
        } else if (first == 'D') {
            format = LocalReportFormat.BINARY;
            channel = file != null ? file : Channels.newChannel(source);
            lines = null;
        } else {
            if (file != null) {
                file.close();
            } else {
                source.close();
            }
            throw new InvalidReportException(name + " byte 1", "this is not a report file: it starts with byte "
                    + first + ", neither '{' (JSON lines) nor \"DPLR\" (binary); pass the output of "
                    + "`dpspectra ldp randomize`");
        }
    }

    /**
     * Opens a report file.
     *
     * @param path a JSON-lines or binary report file (the format is detected from its first bytes)
     * @return a reader; close it
     * @throws java.io.UncheckedIOException when the file cannot be opened
     */
    public static LocalReportReader open(Path path) {
        try {
            return new LocalReportReader(null, Files.newByteChannel(path), path.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the reports in " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads reports from {@code in} (closed by {@link #close()}); {@code name} appears in messages.
     *
     * @param in   the reports, JSON lines or binary
     * @param name the input's name for messages, e.g. "standard input"
     * @return a reader; close it
     */
    public static LocalReportReader of(InputStream in, String name) {
        try {
            return new LocalReportReader(in, null, name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the reports in " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * The encoding of the input, detected from its first bytes.
     *
     * @return JSON lines or binary
     */
    public LocalReportFormat format() {
        return format;
    }

    /**
     * Reads the next report; false at the end.
     *
     * @return true when a report was read, false at the end of the input
     * @throws InvalidReportException if this report is unreadable (the next call continues after it, unless
     *                                the reader is {@link #broken()})
     */
    public boolean next() {
        if (ended || broken) {
            return false;
        }
        try {
            return format == LocalReportFormat.BINARY ? nextBinary() : nextJson();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the reports in " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * The parameters of the current report.
     *
     * @return the current report's parameters
     */
    public ReportParameters parameters() {
        return parameters;
    }

    /**
     * The values of the current report (reused by the next call; do not keep).
     *
     * @return the p(p+1)/2 values
     */
    public double[] values() {
        return values;
    }

    /**
     * The current report's index i in its file (report i of {@link #count()}).
     *
     * @return i, from 1
     */
    public long index() {
        return index;
    }

    /**
     * The number of reports N of the current report's file.
     *
     * @return N
     */
    public long count() {
        return count;
    }

    /**
     * After the end: the bytes of a last binary report the file ends inside.
     *
     * @return those bytes, 0 when the file ends after a report
     */
    public long partialBytes() {
        return partialBytes;
    }

    /**
     * The size of a binary report of this file.
     *
     * @return its bytes, -1 for JSON lines or before the first report
     */
    public long recordBytes() {
        return recordBytes;
    }

    /**
     * Where the reports ended, for messages.
     *
     * @return "file end", or for a binary file that ends inside a report, that report's position
     */
    public String endPosition() {
        if (format == LocalReportFormat.BINARY && partialBytes > 0) {
            return BinaryRecords.position(name, reportNumber, recordBytes);
        }
        return name + " end";
    }

    /**
     * Where the current (or the refused) report is: "file line 17" or "file report 17 (byte 113856)".
     *
     * @return the position
     */
    public String position() {
        return format == LocalReportFormat.BINARY
                ? BinaryRecords.position(name, reportNumber, recordBytes)
                : name + " line " + reportNumber;
    }

    /**
     * True when a fault leaves no way to find the next report.
     *
     * @return whether reading must stop
     */
    public boolean broken() {
        return broken;
    }

    private boolean nextJson() throws IOException {
        String line = lines.readLine();
        if (line == null) {
            ended = true;
            return false;
        }
        reportNumber++;
        if (line.isBlank()) {
            throw new InvalidReportException(position(), "empty line where a report was expected");
        }
        try {
            JsonReport parsed = JsonReport.parse(line);
            parameters = parsed.parameters;
            values = parsed.values;
            index = parsed.index;
            count = parsed.count;
            return true;
        } catch (io.dpspectra.json.JsonReader.SyntaxError e) {
            throw new InvalidReportException(position(), "not valid JSON at " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new InvalidReportException(position(), e.getMessage());
        }
    }

    private boolean nextBinary() throws IOException {
        if (buffer == null) {
            if (!startBinary()) {
                return false;
            }
        } else if (!buffer.hasRemaining()) {
            spare = buffer;
            Chunk next = awaitChunk();
            buffer = next.bytes();
            intact = next.intact();
            if (buffer.hasRemaining()) {
                prefetch();
            } else {
                ended = true;
                return false;
            }
        }
        reportNumber++;
        int at = buffer.position();
        if (buffer.remaining() < recordBytes) {
            partialBytes = buffer.remaining(); // the file ends inside this report: the sequence check says what is lost
            ended = true;
            return false;
        }
        buffer.position(at + recordBytes);
        if (!intact[at / recordBytes]) {
            throw new InvalidReportException(position(), "checksum mismatch: the report is corrupted");
        }
        if (parameters == null || !sameHeader(at)) {
            parameters = binaryParameters(at);
            for (int i = 0; i < lastHeader.length; i++) {
                lastHeader[i] = buffer.getLong(at + 8 * i);
            }
        }
        index = buffer.getLong(at + LocalReportFormat.INDEX_AT);
        count = buffer.getLong(at + LocalReportFormat.COUNT_AT);
        ReportSequence.checkPlace(index, count, this::position);
        if (records == null || records.chunk() != buffer) {
            records = new BinaryRecords(buffer);
        }
        records.decodeValues(at, values);
        return true;
    }

    private boolean sameHeader(int at) {
        for (int i = 0; i < lastHeader.length; i++) {
            if (buffer.getLong(at + 8 * i) != lastHeader[i]) {
                return false;
            }
        }
        return true;
    }

    /** Reads the first chunk and learns the record size from the first header; false for an empty file. */
    private boolean startBinary() throws IOException {
        ByteBuffer head = ByteBuffer.allocate(LocalReportFormat.BINARY_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        while (head.hasRemaining() && channel.read(head) >= 0) {
            // fill the header
        }
        reportNumber = 1;
        if (head.position() >= 8 && head.getInt(0) == LocalReportFormat.MAGIC && head.getInt(4) == 1) {
            broken = true;
            throw new InvalidReportException(position(), LocalReportFormat.VERSION_1);
        }
        if (head.hasRemaining()) {
            broken = true;
            throw new InvalidReportException(position(), "the file ends inside the first report header; it was "
                    + "truncated");
        }
        int dimension = head.getInt(8);
        if (head.getInt(0) != LocalReportFormat.MAGIC || dimension < 1 || dimension > ReportParameters.MAX_DIMENSION) {
            broken = true;
            throw new InvalidReportException(position(), "the first report's header is corrupted (magic or "
                    + "dimension), so the size of the reports is unknown");
        }
        recordBytes = LocalReportFormat.binaryRecordBytes(dimension);
        values = new double[dimension * (dimension + 1) / 2];
        int capacity = Math.max(1, CHUNK_BYTES / recordBytes) * recordBytes;
        buffer = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
        spare = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
        buffer.put(head.array());
        intact = fillAndCheck(buffer).intact();
        if (buffer.remaining() == capacity) {
            prefetcher = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "dpspectra-report-prefetch");
                t.setDaemon(true);
                return t;
            });
            prefetch();
        } else {
            spare.limit(0); // the whole file is in the first chunk
            nextChunk = java.util.concurrent.CompletableFuture.completedFuture(new Chunk(spare, new boolean[0]));
        }
        reportNumber = 0;
        return true;
    }

    /** Reads until {@code target} is full or the stream ends, then flips it. */
    private void fill(ByteBuffer target) throws IOException {
        while (target.hasRemaining() && channel.read(target) >= 0) {
            // keep reading
        }
        target.flip();
    }

    /** Starts reading the next chunk into the spare buffer. */
    private void prefetch() {
        ByteBuffer target = spare;
        spare = null;
        target.clear();
        nextChunk = prefetcher.submit(() -> fillAndCheck(target));
    }

    /** Fills {@code target} and checks the CRC-32 of each whole record in it (on the prefetching thread). */
    private Chunk fillAndCheck(ByteBuffer target) throws IOException {
        fill(target);
        boolean[] ok = new boolean[target.remaining() / recordBytes];
        BinaryRecords checks = new BinaryRecords(target);
        for (int i = 0, at = 0; i < ok.length; i++, at += recordBytes) {
            ok[i] = checks.checksumOk(at, recordBytes);
        }
        return new Chunk(target, ok);
    }

    /** The chunk being prefetched, once read and checked (empty at the end of the file). */
    private Chunk awaitChunk() throws IOException {
        try {
            return nextChunk.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + name, e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    private ReportParameters binaryParameters(int at) {
        return headerParameters(buffer, at, this::position);
    }

    /** The parameters in the binary header at {@code at} of {@code bytes}, or a refusal naming {@code position}. */
    static ReportParameters headerParameters(ByteBuffer bytes, int at, java.util.function.Supplier<String> position) {
        if (bytes.getInt(at) != LocalReportFormat.MAGIC) {
            throw new InvalidReportException(position.get(), "bad magic bytes: not a dpspectra report");
        }
        int calibration = bytes.getInt(at + 12);
        if (calibration < 0 || calibration >= GaussianCalibration.values().length) {
            throw new InvalidReportException(position.get(), "unknown calibration code " + calibration);
        }
        try {
            return new ReportParameters(bytes.getInt(at + 4), bytes.getInt(at + 8), bytes.getDouble(at + 16),
                    bytes.getDouble(at + 24), bytes.getDouble(at + 32), GaussianCalibration.values()[calibration],
                    bytes.getDouble(at + 40));
        } catch (IllegalArgumentException e) {
            throw new InvalidReportException(position.get(), e.getMessage());
        }
    }

    @Override
    public void close() {
        try {
            if (lines != null) {
                lines.close();
            } else {
                if (prefetcher != null) {
                    prefetcher.shutdown();
                    try {
                        prefetcher.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                channel.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * One JSON-lines report, read by the strict JSON parser: every key of the format once, in any order, and no
     * other; the version first checked (a version-1 report is refused with how to make it again).
     */
    private static final class JsonReport {
        private static final java.util.Set<String> KEYS = java.util.Set.of("dpspectraLdpReport", "index", "count",
                "dimension", "epsilon", "delta", "clipNorm", "calibration", "sigma", "values");
        ReportParameters parameters;
        double[] values;
        long index;
        long count;

        static JsonReport parse(String line) {
            io.dpspectra.json.JsonReader json = new io.dpspectra.json.JsonReader(line);
            JsonReport r = new JsonReport();
            java.util.Map<String, Object> fields = new java.util.HashMap<>();
            json.beginObject();
            while (json.hasNext()) {
                String key = json.nextName();
                if (!KEYS.contains(key)) {
                    throw new IllegalArgumentException("unknown key \"" + key + "\" at column " + json.column()
                            + "; a report holds the keys " + String.join(", ", new java.util.TreeSet<>(KEYS)));
                }
                switch (key) {
                    case "dpspectraLdpReport", "index", "count", "dimension" -> {
                        long v = json.nextLong();
                        if (key.equals("dpspectraLdpReport") && v == 1) {
                            throw new IllegalArgumentException(LocalReportFormat.VERSION_1);
                        }
                        fields.put(key, v);
                    }
                    case "calibration" -> fields.put(key, json.nextString());
                    case "values" -> fields.put(key, values(json, fields.get("dimension")));
                    default -> fields.put(key, json.nextDouble());
                }
            }
            json.endObject();
            json.endDocument();
            for (String key : KEYS) {
                if (!fields.containsKey(key)) {
                    throw new IllegalArgumentException("the key \"" + key + "\" is missing");
                }
            }
            GaussianCalibration rule;
            try {
                rule = GaussianCalibration.valueOf((String) fields.get("calibration"));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown calibration \"" + fields.get("calibration") + "\"");
            }
            r.parameters = new ReportParameters(intValue(fields, "dpspectraLdpReport"), intValue(fields, "dimension"),
                    (Double) fields.get("epsilon"), (Double) fields.get("delta"), (Double) fields.get("clipNorm"), rule,
                    (Double) fields.get("sigma"));
            r.index = (Long) fields.get("index");
            r.count = (Long) fields.get("count");
            ReportSequence.checkPlace(r.index, r.count, () -> "");
            double[] v = (double[]) fields.get("values");
            if (v.length != r.parameters.reportLength()) {
                throw new IllegalArgumentException("\"values\" holds " + v.length + " numbers; a report of dimension "
                        + r.parameters.dimension() + " holds " + r.parameters.reportLength());
            }
            r.values = v;
            return r;
        }

        private static int intValue(java.util.Map<String, Object> fields, String key) {
            long v = (Long) fields.get(key);
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("\"" + key + "\" is " + v + ", out of range");
            }
            return (int) v;
        }

        /** The "values" array; sized by the dimension when it came first. */
        private static double[] values(io.dpspectra.json.JsonReader json, Object dimension) {
            long p = dimension instanceof Long l && l >= 1 && l <= ReportParameters.MAX_DIMENSION ? l : 0;
            double[] v = new double[(int) (p * (p + 1) / 2)];
            int n = 0;
            json.beginArray();
            while (json.hasNext()) {
                if (n == v.length) {
                    v = java.util.Arrays.copyOf(v, Math.max(16, 2 * n));
                }
                v[n++] = json.nextDouble();
            }
            json.endArray();
            return n == v.length ? v : java.util.Arrays.copyOf(v, n);
        }
    }
}
