package io.dpspectra.local;

/**
 * A report the server refuses: corrupted (bad checksum, malformed line, non-finite value), of an
 * unsupported version, or made under other public parameters. The message names where the report is
 * (line or report number) and what is wrong. Nothing of a refused report is aggregated.
 */
public class InvalidReportException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String position;

    public InvalidReportException(String position, String problem) {
        super(position + ": " + problem);
        this.position = position;
    }

    /** Where the report is, e.g. "reports.jsonl line 17" or "reports.bin report 17 (byte 113856)". */
    public String position() {
        return position;
    }
}
