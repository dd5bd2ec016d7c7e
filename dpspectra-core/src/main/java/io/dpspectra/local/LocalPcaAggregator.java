package io.dpspectra.local;

import io.dpspectra.linalg.Matrix;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The server side of the Local Gaussian Mechanism: streams clients' reports, checks each one, and averages
 * them into S̃ = (1/n) Σ (x_i x_iᵀ + Z_i), from which {@link LocalAggregate} releases the top-k subspace (or
 * {@link SparseFantopePca} the sparse one).
 *
 * <p>Checks: every report must be readable, of this library's format version, with finite values no larger
 * in magnitude than an honest report's can be ({@link ReportParameters#entryBound()}: B² + 10σ√(2 ln(p + 1)),
 * exceeded by an honest report with probability below 10⁻²⁹), made under parameters whose σ is the calibrated
 * one ({@link ReportParameters#inconsistency()}), and under the same public parameters as the others: the ones
 * given to {@link #expecting}, or else those of the first report accepted. A report that fails is refused with
 * an {@link InvalidReportException} naming it, and nothing of it enters the average (the check comes before any
 * addition). Reading a file ({@link #addAll}), the reports must also come in the order their writer numbered
 * them ({@link ReportSequence}): reports missing from a file cut short, even at a report boundary, or taken out
 * of it, are a {@link MissingReportsException} with their number. (A report made under other parameters is
 * refused as such, and takes its place in the sequence only where it is the report due: else it came from
 * another file.)
 *
 * <p>What the checks cannot stop (poisoning): a client can still send any report within the bound, made up
 * rather than randomized, and so move each entry of the average by up to 2·bound/n (from its honest value to
 * the other end of the range); k colluding clients by k times that.
 *
 * <p>Privacy: post-processing of (ε, δ)-LDP reports; it spends nothing and needs no randomness.
 *
 * <p>Reference: Wang &amp; Xu, Algorithm 1 step 4 (and Algorithm 2 step 4).
 *
 * <p>Cost: O(p²) per report and O(p²) memory whatever n is: the reports are summed in blocks of
 * {@value #BLOCK} by plain addition and the block sums are folded into the total with Neumaier's
 * compensated summation, so the rounding error of the mean does not grow with n.
 */
public final class LocalPcaAggregator {
    static final int BLOCK = 1024;

    private ReportParameters expected;
    private double entryBound;
    private double[] block;
    private double[] sum;
    private double[] compensation;
    private int inBlock;
    private long count;
    /** A segment of a file whose first report was accepted elsewhere (so a mismatch is with "the reports before it"). */
    private boolean follows;

    private LocalPcaAggregator(ReportParameters expected) {
        if (expected != null) {
            adopt(expected);
        }
    }

    /**
     * An aggregator that takes the public parameters of the first report it accepts.
     *
     * @return a new, empty aggregator
     */
    public static LocalPcaAggregator create() {
        return new LocalPcaAggregator(null);
    }

    /**
     * An aggregator that accepts only reports made under {@code expected}.
     *
     * @param expected the parameters every report must carry
     * @return a new, empty aggregator
     */
    public static LocalPcaAggregator expecting(ReportParameters expected) {
        String why = Objects.requireNonNull(expected, "expected").inconsistency();
        if (why != null) {
            throw new IllegalArgumentException("the expected report parameters are inconsistent: " + why);
        }
        return new LocalPcaAggregator(expected);
    }

    private void adopt(ReportParameters parameters) {
        expected = parameters;
        entryBound = parameters.entryBound();
        int m = parameters.reportLength();
        block = new double[m];
        sum = new double[m];
        compensation = new double[m];
    }

    /**
     * Adds one report, or refuses it (nothing added) naming {@code position}.
     *
     * @param report   the report
     * @param position where it was read, for the message of a refusal
     * @throws InvalidReportException when the report is refused
     */
    public void add(LocalReport report, String position) {
        add(report.parameters(), report.values(), position);
    }

    /**
     * Adds the report with these parameters and values (not modified), or refuses it with an
     * {@link InvalidReportException} naming {@code position}; a refused report changes nothing.
     *
     * @param parameters the report's public parameters
     * @param values     its p(p+1)/2 values
     * @param position   where it was read, for the message of a refusal
     */
    public void add(ReportParameters parameters, double[] values, String position) {
        add(parameters, values, () -> position);
    }

    /** As {@link #add(ReportParameters, double[], String)}, naming the position only when a report is refused. */
    void add(ReportParameters parameters, double[] values, java.util.function.Supplier<String> position) {
        if (expected == null) {
            String why = parameters.inconsistency();
            if (why != null) {
                throw new InvalidReportException(position.get(), why);
            }
            adopt(parameters);
        } else if (parameters != expected && !parameters.equals(expected)) {
            throw new InvalidReportException(position.get(), "made under other public parameters than the "
                    + (count == 0 && !follows ? "expected ones" : "reports before it") + ": " + expected.mismatch(parameters));
        }
        int m = expected.reportLength();
        if (values.length != m) {
            throw new InvalidReportException(position.get(), "holds " + values.length
                    + " values, a report of dimension " + expected.dimension() + " holds " + m);
        }
        double bound = entryBound;
        for (int i = 0; i < m; i++) {
            if (!(Math.abs(values[i]) <= bound)) {
                throw new InvalidReportException(position.get(), Double.isFinite(values[i])
                        ? "value " + (i + 1) + " is " + values[i] + ", beyond " + bound + " = B^2 + 10 sigma sqrt(2 ln(p+1)), "
                        + "the largest an honest report holds but with probability below 1e-29; it was not made by "
                        + "the randomizer under these parameters"
                        : "value " + (i + 1) + " is " + values[i] + "; a report holds finite numbers only");
            }
        }
        double[] b = block;
        for (int i = 0; i < m; i++) {
            b[i] += values[i];
        }
        count++;
        if (++inBlock == BLOCK) {
            fold();
        }
    }

    /** Folds the block sum into the total (Neumaier's compensated summation) and clears it. */
    private void fold() {
        for (int i = 0; i < block.length; i++) {
            double s = sum[i];
            double v = block[i];
            double t = s + v;
            compensation[i] += Math.abs(s) >= Math.abs(v) ? (s - t) + v : (v - t) + s;
            sum[i] = t;
            block[i] = 0;
        }
        inBlock = 0;
    }

    /**
     * Adds every report {@code reader} yields, a whole file (or files concatenated) from its start: each report in
     * its place ({@link ReportSequence}). A refused report, or reports found missing (a
     * {@link MissingReportsException}, also when the input ends inside a file or inside a report), either end the
     * reading (the exception is thrown; the reports before it stay added) or, with {@code skipInvalid}, are
     * recorded and the reading goes on. A reader that cannot go on ({@link LocalReportReader#broken()}) always
     * throws.
     *
     * @param reader      the reports (closed by the caller)
     * @param skipInvalid whether a refused report, or reports found missing, are recorded and the reading goes
     *                    on instead of thrown
     * @return the refused reports and the missing ones, in file order (empty unless skipInvalid)
     */
    public List<InvalidReportException> addAll(LocalReportReader reader, boolean skipInvalid) {
        List<InvalidReportException> refused = new ArrayList<>();
        ReportSequence sequence = ReportSequence.atStart();
        java.util.function.Supplier<String> position = reader::position; // built only for a refused report
        while (true) {
            boolean more;
            try {
                more = reader.next();
            } catch (InvalidReportException e) {
                if (!skipInvalid || reader.broken()) {
                    throw e;
                }
                refused.add(e);
                sequence.unreadable();
                continue;
            }
            if (!more) {
                note(sequence.end(reader.endPosition(), reader.partialBytes(), reader.recordBytes()), skipInvalid,
                        refused);
                return refused;
            }
            // a report made under other parameters takes its place only where it is the one due (else it came
            // from another file, and nothing is missing because of it)
            if (accepts(reader.parameters()) || sequence.isDue(reader.index(), reader.count())) {
                note(sequence.arrive(reader.index(), reader.count(), position), skipInvalid, refused);
            }
            try {
                add(reader.parameters(), reader.values(), position);
            } catch (InvalidReportException e) {
                note(e, skipInvalid, refused);
            }
        }
    }

    /**
     * Where a contiguous span of a report file begins and ends in the file's numbering.
     *
     * @param firstIndex    the first report's index i (report i of firstCount)
     * @param firstCount    the first report's file count N
     * @param firstPosition where the first report is, for messages
     * @param lastIndex     the last report's index
     * @param lastCount     the last report's file count
     * @serial exclude
     */
    public record Span(long firstIndex, long firstCount, String firstPosition, long lastIndex, long lastCount)
            implements java.io.Serializable {
    }

    /**
     * Adds every report {@code reader} yields, a contiguous part of a report file that may begin and end inside
     * one of its files (a partition of a cluster's input): each report must follow the one before it in the
     * file's numbering, and the first is taken as it comes; a refused report or a gap ends the reading (thrown).
     * The spans of all parts, joined in file order by {@link #checkJoined}, give the verdicts of
     * {@link #addAll(LocalReportReader, boolean)} on the whole.
     *
     * @param reader the part's reports (closed by the caller)
     * @return the span read, or null when the part holds no report
     * @throws InvalidReportException at the first refused report or gap
     */
    public Span addSpan(LocalReportReader reader) {
        ReportSequence sequence = ReportSequence.anywhere();
        java.util.function.Supplier<String> position = reader::position;
        Span first = null;
        while (reader.next()) {
            if (!accepts(reader.parameters()) && !sequence.isDue(reader.index(), reader.count())) {
                add(reader.parameters(), reader.values(), position); // another file's report: refused with the reason
            }
            note(sequence.arrive(reader.index(), reader.count(), position), false, null);
            if (first == null) {
                first = new Span(reader.index(), reader.count(), reader.position(), 0, 0);
            }
            add(reader.parameters(), reader.values(), position);
        }
        if (reader.partialBytes() > 0) {
            note(sequence.end(reader.endPosition(), reader.partialBytes(), reader.recordBytes()), false, null);
        }
        return first == null ? null : new Span(first.firstIndex(), first.firstCount(), first.firstPosition(),
                reader.index(), reader.count());
    }

    /**
     * Checks that the spans of the parts of a report file (in file order; null for a part without reports) join
     * up: the whole starts with a file's report 1, each span continues the one before it, and the whole ends
     * after a file's last report.
     *
     * @param spans the parts' spans in file order (null for a part without reports)
     * @param end   names the end of the whole in messages, e.g. "reports.bin end"
     * @throws MissingReportsException at the first gap
     */
    public static void checkJoined(List<Span> spans, String end) {
        ReportSequence sequence = ReportSequence.atStart();
        for (Span span : spans) {
            if (span != null) {
                note(sequence.arrive(span.firstIndex(), span.firstCount(), span::firstPosition), false, null);
                sequence.jumpTo(span.lastIndex(), span.lastCount());
            }
        }
        note(sequence.end(end, 0, -1), false, null);
    }

    /** Throws {@code problem}, or with skipping records it; nothing for null. */
    static void note(InvalidReportException problem, boolean skipInvalid, List<InvalidReportException> refused) {
        if (problem == null) {
            return;
        }
        if (!skipInvalid) {
            throw problem;
        }
        refused.add(problem);
    }

    /**
     * The reports found missing among the refusals of {@link #addAll}.
     *
     * @param refused the refusals
     * @return the sum of their {@link MissingReportsException#lost()} (0 when none)
     */
    public static long missing(List<InvalidReportException> refused) {
        return refused.stream().filter(e -> e instanceof MissingReportsException)
                .mapToLong(e -> ((MissingReportsException) e).lost()).sum();
    }

    /**
     * Adds every report in the file at {@code path}, as {@link #addAll(LocalReportReader, boolean)} does with
     * {@link LocalReportReader#open}: the same checks, the same refusals by report number (the lowest-numbered
     * refused report is thrown; with {@code skipInvalid} the list is in file order), nothing of a refused
     * report added. A binary file whose first report is accepted is read in one pass on every core (see
     * {@link ReportFileAggregation}); JSON lines and a binary file whose first report is refused are read by
     * one {@link LocalReportReader}.
     *
     * @param path        the report file (JSON lines or binary)
     * @param skipInvalid whether a refused report is skipped (and returned) instead of thrown
     * @return the refused reports (empty unless skipInvalid)
     */
    public List<InvalidReportException> addAll(java.nio.file.Path path, boolean skipInvalid) {
        return ReportFileAggregation.addAll(this, path, skipInvalid);
    }

    /** An empty aggregator for a segment of a file whose first report, made under {@code parameters}, was accepted. */
    static LocalPcaAggregator segmentAfterFirst(ReportParameters parameters) {
        LocalPcaAggregator a = new LocalPcaAggregator(parameters);
        a.follows = true;
        return a;
    }

    /** Whether a report under {@code parameters} would pass the parameter check (without adding it). */
    boolean accepts(ReportParameters parameters) {
        return expected == null ? parameters.inconsistency() == null : parameters.equals(expected);
    }

    /**
     * Adds the reports {@code segment} accepted: its running sum is added to this one by Neumaier's
     * compensated summation, and its compensation to this compensation. Segments absorbed in file order into an
     * empty aggregator give, for a single segment, the bits a sequential pass gives.
     */
    void absorb(LocalPcaAggregator segment) {
        if (segment.count == 0) {
            return;
        }
        if (expected == null) {
            adopt(segment.expected);
        }
        segment.fold();
        fold();
        for (int i = 0; i < sum.length; i++) {
            double s = sum[i];
            double v = segment.sum[i];
            double t = s + v;
            compensation[i] += (Math.abs(s) >= Math.abs(v) ? (s - t) + v : (v - t) + s) + segment.compensation[i];
            sum[i] = t;
        }
        count += segment.count;
    }

    /**
     * Reports accepted so far.
     *
     * @return the number of accepted reports
     */
    public long count() {
        return count;
    }

    /**
     * The parameters reports must match (null before the first report when none were given).
     *
     * @return the expected parameters, or null
     */
    public ReportParameters parameters() {
        return expected;
    }

    /**
     * The average S̃ of the reports accepted so far (p × p, symmetric).
     *
     * @return S̃ with n and the reports' parameters
     * @throws IllegalStateException when no report was accepted
     */
    public LocalAggregate aggregate() {
        if (count == 0) {
            throw new IllegalStateException("no report was accepted, so there is nothing to aggregate; pass the "
                    + "file written by `dpspectra ldp randomize`");
        }
        return average(expected, count, sum());
    }

    /**
     * The sum of the accepted reports' values (the packed upper triangle, as a report holds it): the block
     * sums folded by compensated summation, each entry its running sum plus its compensation. Sums of
     * disjoint sets of reports add up (a cluster computes one per partition, then {@link #average}).
     *
     * @return a new array of p(p+1)/2 sums
     * @throws IllegalStateException when no report was accepted
     */
    public double[] sum() {
        if (count == 0) {
            throw new IllegalStateException("no report was accepted, so there is no sum");
        }
        fold();
        double[] total = new double[sum.length];
        for (int i = 0; i < total.length; i++) {
            total[i] = sum[i] + compensation[i];
        }
        return total;
    }

    /**
     * The average S̃ of {@code count} reports made under {@code parameters} from the {@linkplain #sum sum}
     * of their values: what {@link #aggregate()} releases, for reports summed elsewhere.
     *
     * @param parameters the reports' public parameters
     * @param count      n, the number of reports summed, ≥ 1
     * @param packedSum  the p(p+1)/2 sums (packed upper triangle). Not modified.
     * @return S̃ with n and the parameters
     */
    public static LocalAggregate average(ReportParameters parameters, long count, double[] packedSum) {
        Objects.requireNonNull(parameters, "parameters");
        if (count < 1) {
            throw new IllegalArgumentException("an average needs at least one report, got " + count);
        }
        if (packedSum.length != parameters.reportLength()) {
            throw new IllegalArgumentException("a sum of reports of dimension " + parameters.dimension() + " holds "
                    + parameters.reportLength() + " values, got " + packedSum.length);
        }
        int p = parameters.dimension();
        Matrix mean = new Matrix(p, p);
        for (int j = 0, at = 0; j < p; j++) {
            for (int i = 0; i <= j; i++, at++) {
                mean.set(i, j, packedSum[at] / count);
            }
        }
        mean.mirrorUpperToLower();
        return new LocalAggregate(parameters, count, mean);
    }
}
