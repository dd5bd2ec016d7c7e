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
 * the first report; when even that cannot be read, or the file ends inside a report, the reader is
 * {@link #broken()} and can go no further.
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
    /** The header of the last report whose parameters were parsed, as longs (headers are 48 bytes). */
    private final long[] lastHeader = new long[LocalReportFormat.BINARY_HEADER / 8];
    private long reportNumber;

    private ReportParameters parameters;
    private double[] values;
    private boolean broken;
    private boolean ended;

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
                    StandardCharsets.US_ASCII), 1 << 16);
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
            return true;
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
            broken = true;
            throw new InvalidReportException(position(), "the file ends inside this report (" + buffer.remaining()
                    + " of " + recordBytes + " bytes); it was truncated");
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

    /** A strict parser of one JSON-lines report (the keys and order {@link LocalReportWriter} writes). */
    private static final class JsonReport {
        private final String s;
        private int at;
        ReportParameters parameters;
        double[] values;

        private JsonReport(String s) {
            this.s = s;
        }

        static JsonReport parse(String line) {
            JsonReport r = new JsonReport(line.strip());
            r.read();
            return r;
        }

        private void read() {
            expect('{');
            int version = (int) integer("dpspectraLdpReport");
            int dimension = (int) integer("dimension");
            double epsilon = number("epsilon");
            double delta = number("delta");
            double clipNorm = number("clipNorm");
            String calibration = string("calibration");
            double sigma = number("sigma");
            GaussianCalibration rule;
            try {
                rule = GaussianCalibration.valueOf(calibration);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown calibration \"" + calibration + "\"");
            }
            parameters = new ReportParameters(version, dimension, epsilon, delta, clipNorm, rule, sigma);
            key("values");
            expect('[');
            values = new double[parameters.reportLength()];
            for (int i = 0; i < values.length; i++) {
                if (i > 0) {
                    expect(',');
                }
                values[i] = Double.parseDouble(token());
            }
            if (peek() != ']') {
                throw new IllegalArgumentException("more than the " + values.length + " values a report of dimension "
                        + dimension + " holds");
            }
            expect(']');
            expect('}');
            if (at != s.length()) {
                throw new IllegalArgumentException("unexpected text after the report at column " + (at + 1));
            }
        }

        private char peek() {
            if (at >= s.length()) {
                throw new IllegalArgumentException("the line ends early; the report is truncated");
            }
            return s.charAt(at);
        }

        private void expect(char c) {
            if (peek() != c) {
                throw new IllegalArgumentException("expected '" + c + "' at column " + (at + 1) + ", found '"
                        + s.charAt(at) + "'");
            }
            at++;
        }

        private void key(String name) {
            if (s.charAt(at - 1) != '{') {
                expect(',');
            }
            String k = quoted();
            if (!k.equals(name)) {
                throw new IllegalArgumentException("expected the key \"" + name + "\" at column " + (at - k.length() - 1)
                        + ", found \"" + k + "\"");
            }
            expect(':');
        }

        private String quoted() {
            expect('"');
            int end = s.indexOf('"', at);
            if (end < 0) {
                throw new IllegalArgumentException("unterminated string at column " + at);
            }
            String out = s.substring(at, end);
            at = end + 1;
            return out;
        }

        private String token() {
            int start = at;
            while (at < s.length() && ",]}".indexOf(s.charAt(at)) < 0) {
                at++;
            }
            if (start == at) {
                throw new IllegalArgumentException("expected a number at column " + (start + 1));
            }
            return s.substring(start, at);
        }

        private double number(String name) {
            key(name);
            String t = token();
            try {
                return Double.parseDouble(t);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("\"" + name + "\" is not a number: " + t);
            }
        }

        private long integer(String name) {
            key(name);
            String t = token();
            try {
                return Long.parseLong(t);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("\"" + name + "\" is not an integer: " + t);
            }
        }

        private String string(String name) {
            key(name);
            return quoted();
        }
    }
}
