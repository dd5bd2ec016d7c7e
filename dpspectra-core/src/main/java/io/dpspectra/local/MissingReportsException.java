package io.dpspectra.local;

/**
 * Reports that should be in a report file and are not: every report carries its place in the file it was
 * written to ("report i of N"), so a file cut short, even exactly at a report boundary, or with reports taken
 * out of it, is told apart from a whole one. The message says where the gap was found and which reports are
 * missing; {@link #lost()} counts them (a lower bound when the gap is next to a report that could not be read).
 */
public final class MissingReportsException extends InvalidReportException {
    private static final long serialVersionUID = 1L;
    private final long lost;

    public MissingReportsException(String position, String problem, long lost) {
        super(position, problem);
        this.lost = lost;
    }

    /** How many reports are missing. */
    public long lost() {
        return lost;
    }
}
