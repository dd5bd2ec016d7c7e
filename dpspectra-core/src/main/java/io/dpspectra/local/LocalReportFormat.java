package io.dpspectra.local;

/**
 * The two encodings of {@link LocalReport}s. Both carry, in every report, the format version and the
 * public parameters, so a report stands alone: clients share nothing with the server but those
 * parameters. Every report also carries its place in the file it was written to, "report i of N", so that
 * a file cut short (even exactly at a report boundary) or with reports removed is refused, or with skipping
 * reported with the number missing ({@link MissingReportsException}); files may be concatenated.
 *
 * <p>{@link #JSON_LINES}: one JSON object per line (RFC 8259; whitespace between tokens and any order of the
 * keys are accepted when read), written with the keys in this order:
 * <pre>{"dpspectraLdpReport":2,"index":1,"count":200,"dimension":3,"epsilon":1.0,"delta":1.0E-5,
 *  "clipNorm":1.0,"calibration":"ANALYTIC","sigma":3.9,"values":[v00,v01,v11,v02,v12,v22]}</pre>
 * (the value of {@code dpspectraLdpReport} is the format version; numbers are written with
 * {@link Double#toString}, which reads back to the same double).
 *
 * <p>{@link #BINARY}: fixed-size little-endian records of {@link #binaryRecordBytes(int) 68 + 8·p(p+1)/2}
 * bytes: the magic bytes "DPLR", int32 version, int32 dimension p, int32 calibration (0 analytic,
 * 1 classic), float64 ε, δ, clip norm, σ, int64 index i and int64 count N (report i of N in its file), then the
 * p(p+1)/2 float64 values, and last the CRC-32 of all the record's preceding bytes (int32), which catches
 * corruption in transit or storage.
 *
 * <p>Version 1 (dpspectra before the place in the file was added) is refused with a message saying how to make
 * the reports again: without it, a truncated version-1 file cannot be told from a whole one.
 */
public enum LocalReportFormat {
    /** One JSON object per line (see the class comment). */
    JSON_LINES,
    /** Fixed-size little-endian records with a CRC-32 each (see the class comment). */
    BINARY;

    /** The magic bytes "DPLR" read as a little-endian int. */
    static final int MAGIC = 'D' | 'P' << 8 | 'L' << 16 | 'R' << 24;
    /** Bytes of the binary parameter block (magic, version, p, calibration, ε, δ, B, σ). */
    static final int PARAMETER_BYTES = 48;
    /** Byte offsets of the report's index and its file's count in a binary record. */
    static final int INDEX_AT = 48;
    static final int COUNT_AT = 56;
    /** Bytes of the binary header before the values. */
    static final int BINARY_HEADER = 64;

    /**
     * The size of one binary report of dimension p.
     *
     * @param dimension p, ≥ 1
     * @return the record size in bytes
     */
    public static int binaryRecordBytes(int dimension) {
        long bytes = BINARY_HEADER + 8L * dimension * (dimension + 1) / 2 + 4;
        if (bytes > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("a binary report of dimension " + dimension + " would not fit in "
                    + "memory; use a smaller p");
        }
        return (int) bytes;
    }

    /**
     * The size of a file of reports of dimension p in this format.
     *
     * @param dimension p
     * @param reports   the number of reports
     * @return its bytes (JSON lines: an upper bound; {@link Long#MAX_VALUE} beyond a long)
     */
    public long fileBytes(int dimension, long reports) {
        long values = (long) dimension * (dimension + 1) / 2;
        // JSON: Double.toString is at most 24 characters, plus a comma; the keys and parameters under 400
        long perReport = this == BINARY ? binaryRecordBytes(dimension) : 400 + 25 * values;
        try {
            return Math.multiplyExact(perReport, reports);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** What version-1 reports are told: the reason they are refused and how to make them again. */
    static final String VERSION_1 = "this report file is of format version 1 (an earlier dpspectra), whose reports do not"
            + " carry their place in the file, so a truncated file cannot be told from a whole one; make the reports "
            + "again with this version's 'dpspectra ldp randomize'";
}
