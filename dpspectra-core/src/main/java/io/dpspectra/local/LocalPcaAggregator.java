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
 * <p>Checks: every report must be readable, of this library's format version, with finite values, made
 * under parameters whose σ is the calibrated one ({@link ReportParameters#inconsistency()}), and under the
 * same public parameters as the others: the ones given to {@link #expecting}, or else those of the first
 * report accepted. A report that fails is refused with an {@link InvalidReportException} naming it, and
 * nothing of it enters the average (the check comes before any addition).
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
        for (int i = 0; i < m; i++) {
            if (!Double.isFinite(values[i])) {
                throw new InvalidReportException(position.get(), "value " + (i + 1) + " is " + values[i]
                        + "; a report holds finite numbers only");
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
     * Adds every report {@code reader} yields. A refused report either ends the reading (the exception is
     * thrown; the reports before it stay added) or, with {@code skipInvalid}, is recorded and skipped.
     * A reader that cannot go on ({@link LocalReportReader#broken()}) always throws.
     *
     * @param reader      the reports (closed by the caller)
     * @param skipInvalid whether a refused report is skipped (and returned) instead of thrown
     * @return the refused reports (empty unless skipInvalid)
     */
    public List<InvalidReportException> addAll(LocalReportReader reader, boolean skipInvalid) {
        List<InvalidReportException> refused = new ArrayList<>();
        java.util.function.Supplier<String> position = reader::position; // built only for a refused report
        while (true) {
            try {
                if (!reader.next()) {
                    return refused;
                }
                add(reader.parameters(), reader.values(), position);
            } catch (InvalidReportException e) {
                if (!skipInvalid || reader.broken()) {
                    throw e;
                }
                refused.add(e);
            }
        }
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
