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

/** Writes {@link LocalReport}s in a {@link LocalReportFormat}; closes the stream it was given. */
public final class LocalReportWriter implements AutoCloseable {
    private final LocalReportFormat format;
    private final OutputStream out;
    private final CRC32 crc = new CRC32();
    private ByteBuffer record;
    private final StringBuilder line = new StringBuilder();

    /**
     * A writer of reports in {@code format} to {@code out} (buffered; {@link #close()} flushes and closes it).
     *
     * @param out    the destination
     * @param format the encoding
     */
    public LocalReportWriter(OutputStream out, LocalReportFormat format) {
        this.out = new BufferedOutputStream(Objects.requireNonNull(out, "out"), 1 << 20);
        this.format = Objects.requireNonNull(format, "format");
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
     * Writes the report of {@code parameters} whose values are {@code values[from .. from + p(p+1)/2)}.
     *
     * @param parameters the report's public parameters
     * @param values     holds the values
     * @param from       the index of the first value in {@code values}
     */
    public void write(ReportParameters parameters, double[] values, int from) {
        int m = parameters.reportLength();
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
                .putDouble(q.epsilon()).putDouble(q.delta()).putDouble(q.clipNorm()).putDouble(q.sigma());
        record.asDoubleBuffer().put(values, from, m);
        crc.reset();
        crc.update(record.array(), 0, size - 4);
        record.putInt(size - 4, (int) crc.getValue());
        out.write(record.array(), 0, size);
    }

    private void writeJson(ReportParameters q, double[] values, int from, int m) throws IOException {
        line.setLength(0);
        line.append("{\"dpspectraLdpReport\":").append(q.version())
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

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not finish writing the reports: " + e.getMessage(), e);
        }
    }
}
