package io.dpspectra.local;

/**
 * Reports that should be in a report file and are not: every report carries its place in the file it was
 * written to ("report i of N"), so a file cut short, even exactly at a report boundary, or with reports taken
 * out of it, is told apart from a whole one. The message says where the gap was found and which reports are
 * missing; {@link #lost()} counts them (a lower bound when the gap is next to a report that could not be read).
 */
public final class MissingReportsException extends InvalidReportException {
    private static final long serialVersionUID = 1L;
    /** How many reports are missing. */
    private final long lost;

    /**
     * Reports missing, found at {@code position}.
     *
     * @param position where the gap was found, e.g. "reports.bin report 61 (byte 11280)" or "reports.bin end"
     * @param problem  which reports are missing, in words
     * @param lost     how many
     */
    public MissingReportsException(String position, String problem, long lost) {
        super(position, problem);
        this.lost = lost;
    }

    /**
     * How many reports are missing.
     *
     * @return the number, ≥ 1
     */
    public long lost() {
        return lost;
    }
}
