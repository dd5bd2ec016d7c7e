package io.dpspectra.local;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.util.zip.CRC32;

/**
 * The per-record steps of reading {@link LocalReportFormat#BINARY} reports from a chunk buffer, shared by the
 * sequential {@link LocalReportReader} and the parallel {@link ReportFileAggregation}: the CRC-32 check, the
 * decoding of the values, and how a report's position is named. One instance per thread and chunk buffer.
 */
final class BinaryRecords {
    private final ByteBuffer chunk;
    private final ByteBuffer view;
    /** Views of the chunk as doubles starting at byte 0 and byte 4 (records start at 0 or 4 mod 8). */
    private final DoubleBuffer[] doubles = new DoubleBuffer[2];
    private final CRC32 crc = new CRC32();

    BinaryRecords(ByteBuffer chunk) {
        this.chunk = chunk;
        this.view = chunk.duplicate();
        for (int shift = 0; shift < 8; shift += 4) {
            doubles[shift / 4] = chunk.duplicate().clear().position(shift).slice().order(ByteOrder.LITTLE_ENDIAN)
                    .asDoubleBuffer();
        }
    }

    /** The chunk these steps read. */
    ByteBuffer chunk() {
        return chunk;
    }

    /** True if the record at byte {@code at} of the chunk ends with the CRC-32 of its other bytes. */
    boolean checksumOk(int at, int recordBytes) {
        crc.reset();
        view.limit(at + recordBytes - 4).position(at);
        crc.update(view);
        return (int) crc.getValue() == chunk.getInt(at + recordBytes - 4);
    }

    /** Copies the values of the record at byte {@code at} of the chunk into {@code values} (one bulk copy). */
    void decodeValues(int at, double[] values) {
        int from = at + LocalReportFormat.BINARY_HEADER;
        int shift = from & 7; // records are 68 + 8m bytes long, so they start at 0 or 4 mod 8
        doubles[shift / 4].get((from - shift) / 8, values);
    }

    /** How a binary report is named in messages: "file report 17 (byte 113856)". */
    static String position(String name, long number, long recordBytes) {
        return name + " report " + number + " (byte " + (number - 1) * recordBytes + ")";
    }
}
