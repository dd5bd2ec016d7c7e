package io.dpspectra.local;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * Writes a file of {@link LocalReport}s in a {@link LocalReportFormat}: exactly {@code count} reports, numbered
 * 1 … count in the file ("report i of count"), so that a reader can tell a file cut short from a whole one.
 * Closes the stream it was given.
 */
public final class LocalReportWriter implements AutoCloseable {
    private final LocalReportFormat format;
    private final OutputStream out;
    private final long count;
    private long written;
    private final CRC32 crc = new CRC32();
    private ByteBuffer record;
    private final StringBuilder line = new StringBuilder();

    /**
     * A writer of a file of {@code count} reports in {@code format} to {@code out} (buffered; {@link #close()}
     * flushes and closes it).
     *
     * @param out    the destination
     * @param format the encoding
     * @param count  the number of reports the file will hold, ≥ 1 (each report carries its place, i of count)
     */
    public LocalReportWriter(OutputStream out, LocalReportFormat format, long count) {
        if (count < 1) {
            throw new IllegalArgumentException("a report file holds at least one report, got " + count);
        }
        this.out = new BufferedOutputStream(Objects.requireNonNull(out, "out"), 1 << 20);
        this.format = Objects.requireNonNull(format, "format");
        this.count = count;
    }

    /**
     * Writes one report.
     *
     * @param report the report
     */
    public void write(LocalReport report) {
        write(report.parameters(), report.values(), 0);
    }

    /**
     * Writes the report of {@code parameters} whose values are {@code values[from .. from + p(p+1)/2)}, as the next
     * report of the file.
     *
     * @param parameters the report's public parameters
     * @param values     holds the values
     * @param from       the index of the first value in {@code values}
     * @throws IllegalStateException when the file already holds its {@code count} reports
     */
    public void write(ReportParameters parameters, double[] values, int from) {
        int m = parameters.reportLength();
        if (written == count) {
            throw new IllegalStateException("this report file was declared with " + count + " reports, and they "
                    + "are written");
        }
        written++;
        try {
            if (format == LocalReportFormat.BINARY) {
                writeBinary(parameters, values, from, m);
            } else {
                writeJson(parameters, values, from, m);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write a report: " + e.getMessage(), e);
        }
    }

    private void writeBinary(ReportParameters q, double[] values, int from, int m) throws IOException {
        int size = LocalReportFormat.binaryRecordBytes(q.dimension());
        if (record == null || record.capacity() != size) {
            record = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        }
        record.clear();
        record.putInt(LocalReportFormat.MAGIC).putInt(q.version()).putInt(q.dimension())
                .putInt(q.calibration().ordinal())
                .putDouble(q.epsilon()).putDouble(q.delta()).putDouble(q.clipNorm()).putDouble(q.sigma())
                .putLong(written).putLong(count);
        record.asDoubleBuffer().put(values, from, m);
        crc.reset();
        crc.update(record.array(), 0, size - 4);
        record.putInt(size - 4, (int) crc.getValue());
        out.write(record.array(), 0, size);
    }

    private void writeJson(ReportParameters q, double[] values, int from, int m) throws IOException {
        line.setLength(0);
        line.append("{\"dpspectraLdpReport\":").append(q.version())
                .append(",\"index\":").append(written)
                .append(",\"count\":").append(count)
                .append(",\"dimension\":").append(q.dimension())
                .append(",\"epsilon\":").append(q.epsilon())
                .append(",\"delta\":").append(q.delta())
                .append(",\"clipNorm\":").append(q.clipNorm())
                .append(",\"calibration\":\"").append(q.calibration().name()).append('"')
                .append(",\"sigma\":").append(q.sigma())
                .append(",\"values\":[");
        for (int i = 0; i < m; i++) {
            if (i > 0) {
                line.append(',');
            }
            line.append(values[from + i]);
        }
        line.append("]}\n");
        out.write(line.toString().getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Reports written so far.
     *
     * @return their number
     */
    public long written() {
        return written;
    }

    /**
     * Closes the stream. A file with fewer than its {@code count} reports is incomplete (a reader would refuse
     * it as truncated): that is an {@link IllegalStateException}, after the stream is closed.
     */
    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not finish writing the reports: " + e.getMessage(), e);
        }
        if (written != count) {
            throw new IllegalStateException("the report file was declared with " + count + " reports but " + written
                    + " were written; it is incomplete");
        }
    }
}
