package io.dpspectra.local;

/**
 * The two encodings of {@link LocalReport}s. Both carry, in every report, the format version and the
 * public parameters, so a report stands alone: clients share nothing with the server but those
 * parameters.
 *
 * <p>{@link #JSON_LINES}: one JSON object per line, keys in this order:
 * <pre>{"dpspectraLdpReport":1,"dimension":3,"epsilon":1.0,"delta":1.0E-5,"clipNorm":1.0,
 *  "calibration":"ANALYTIC","sigma":3.9,"values":[v00,v01,v11,v02,v12,v22]}</pre>
 * (the value of {@code dpspectraLdpReport} is the format version; numbers are written with
 * {@link Double#toString}, which reads back to the same double).
 *
 * <p>{@link #BINARY}: fixed-size little-endian records of {@link #binaryRecordBytes(int) 52 + 8·p(p+1)/2}
 * bytes: the magic bytes "DPLR", int32 version, int32 dimension p, int32 calibration (0 analytic,
 * 1 classic), float64 ε, δ, clip norm, σ, then the p(p+1)/2 float64 values, and last the CRC-32 of all
 * the record's preceding bytes (int32), which catches corruption in transit or storage.
 */
public enum LocalReportFormat {
    /** One JSON object per line (see the class comment). */
    JSON_LINES,
    /** Fixed-size little-endian records with a CRC-32 each (see the class comment). */
    BINARY;

    /** The magic bytes "DPLR" read as a little-endian int. */
    static final int MAGIC = 'D' | 'P' << 8 | 'L' << 16 | 'R' << 24;
    /** Bytes of the binary header before the values. */
    static final int BINARY_HEADER = 48;

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
}
