package io.dpspectra.local;

import java.util.function.Supplier;

/**
 * Checks that reports arrive in the order their writer numbered them. A writer numbers the reports of one file
 * 1 … N and writes "i of N" into each ({@link LocalReportWriter}); files may be concatenated (a server collecting
 * clients' files), so the reports read must be, file after file, 1 of N₁ … N₁ of N₁, 1 of N₂ …. A report out of
 * place, or the end coming while a file is unfinished, means reports are missing: a file cut short (also exactly
 * at a report boundary) or reports removed. A report that cannot be read at all takes the place of the one due;
 * where a file may have started, the next readable report is taken as it comes (what stood there is unknown).
 *
 * <p>The state after a readable report depends on that report alone ("i of N": then i + 1 of N is due, or a new
 * file when i = N), which lets {@link ReportFileAggregation} check segments of a file on separate threads and join
 * them in file order with the same verdicts as one sequential pass.
 */
final class ReportSequence {
    /** The index due next; 0 when a file's first report is due. */
    private long next;
    /** N of the file being read (when next > 0). */
    private long count;
    /** True when an unreadable report stood where a file may have started: the next report is taken as it comes. */
    private boolean unknown;

    /** A sequence at the start of a file (its report 1 is due). */
    static ReportSequence atStart() {
        return new ReportSequence();
    }

    /** A sequence that takes its first report as it comes (a segment that starts inside a file). */
    static ReportSequence anywhere() {
        ReportSequence s = new ReportSequence();
        s.unknown = true;
        return s;
    }

    /** Refuses an index or count that no writer writes. */
    static void checkPlace(long index, long count, Supplier<String> position) {
        if (count < 1 || index < 1 || index > count) {
            throw new InvalidReportException(position.get(), "its place in its file, report " + index + " of " + count
                    + ", is impossible; the report is corrupted");
        }
    }

    /**
     * The readable report "index of count" at {@code position} arrives: null when it is the one due, else the
     * reports missing before it. Either way the report itself is in place afterwards (what is due next follows
     * from it).
     */
    MissingReportsException arrive(long index, long count, Supplier<String> position) {
        MissingReportsException gap = null;
        if (!unknown) {
            if (next == 0) {
                if (index != 1) {
                    gap = new MissingReportsException(position.get(), (index - 1) + " report" + (index == 2 ? " is" : "s are")
                            + " missing before it: it is report " + index + " of " + count + " of its file, where "
                            + "a file's first report was due", index - 1);
                }
            } else if (count == this.count && index > next) {
                gap = new MissingReportsException(position.get(), (index - next) + " report" + (index - next == 1
                        ? " is" : "s are") + " missing before it: report " + next + " of " + this.count
                        + " was due, report " + index + " came", index - next);
            } else if (index != next || count != this.count) {
                long lost = this.count - next + 1 + (index - 1);
                gap = new MissingReportsException(position.get(), lost + " report" + (lost == 1 ? " is" : "s are")
                        + " missing before it: report " + next + " of " + this.count + " was due, report " + index
                        + " of " + count + " came (the file before it ends early" + (index > 1 ? ", and this one "
                        + "does not start at its report 1)" : ")"), lost);
            }
        }
        unknown = false;
        this.count = count;
        next = index == count ? 0 : index + 1;
        return gap;
    }

    /** True if "index of count" is exactly the report due (false where a file may have started unseen). */
    boolean isDue(long index, long count) {
        return !unknown && (next == 0 ? index == 1 : index == next && count == this.count);
    }

    /** As after the report "index of count", whatever came before (the end of a checked span of reports). */
    void jumpTo(long index, long count) {
        unknown = false;
        this.count = count;
        next = index == count ? 0 : index + 1;
    }

    /** A report that could not be read took the place of the one due. */
    void unreadable() {
        if (unknown) {
            return;
        }
        if (next == 0) {
            unknown = true; // a new file may have started there: its count is unknown
        } else {
            next = next == count ? 0 : next + 1;
        }
    }

    /**
     * The input ended ({@code partialBytes} &gt; 0: inside a report, of which that many bytes were there): null
     * when it ended after a file's last report, else the reports missing at the end.
     */
    MissingReportsException end(String position, long partialBytes, long recordBytes) {
        String inside = partialBytes > 0 ? " inside a report (" + partialBytes + " of its " + recordBytes + " bytes)"
                : "";
        if (!unknown && next > 0) {
            long lost = count - next + 1;
            return new MissingReportsException(position, "the reports end" + inside + " after report " + (next - 1)
                    + " of " + count + ": " + (lost == 1 ? "report " + count + " is" : "reports " + next + " to " + count
                    + " (" + lost + ") are") + " missing; the file was truncated", lost);
        }
        if (partialBytes > 0) {
            return new MissingReportsException(position, "the reports end" + inside + "; the file was truncated and at "
                    + "least that report is missing", 1);
        }
        return null;
    }

    /** Takes over the state of {@code other} (a segment's state at its end, for the segment after it). */
    void copyFrom(ReportSequence other) {
        next = other.next;
        count = other.count;
        unknown = other.unknown;
    }
}
