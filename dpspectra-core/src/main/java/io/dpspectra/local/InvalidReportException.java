package io.dpspectra.local;

/**
 * A report the server refuses: corrupted (bad checksum, malformed line, non-finite value), of an
 * unsupported version, or made under other public parameters. The message names where the report is
 * (line or report number) and what is wrong. Nothing of a refused report is aggregated.
 */
public final class InvalidReportException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** Where the report is, e.g. "reports.jsonl line 17". */
    private final String position;

    /**
     * A refused report.
     *
     * @param position where the report is (file and line, or file, report number and byte)
     * @param problem  what is wrong with it, for people
     */
    public InvalidReportException(String position, String problem) {
        super(position + ": " + problem);
        this.position = position;
    }

    /**
     * Where the report is, e.g. "reports.jsonl line 17" or "reports.bin report 17 (byte 113856)".
     *
     * @return the position
     */
    public String position() {
        return position;
    }
}
