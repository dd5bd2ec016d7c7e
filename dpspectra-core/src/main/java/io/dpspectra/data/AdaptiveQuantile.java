package io.dpspectra.data;

import io.dpspectra.linalg.Vectors;
import io.dpspectra.noise.NoisyMax;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Arrays;
import java.util.Objects;

/**
 * A differentially private quantile whose error does not grow with the width of the public range (only
 * with the logarithm of its number of octaves): first a noisy choice of the octave [t, 2t) that holds the
 * q-quantile, among the octaves of a public geometric ladder, then a noisy choice of one of that octave's
 * {@value #CELLS_PER_OCTAVE} cells (ratio 2^(1/8), about 9%). Used for the row-norm bound of a release
 * ({@code --clip-norm private}) and for the per-column bounds of a drafted schema.
 *
 * <p>Each choice is a report noisy max ({@link NoisyMax}) over the candidate intervals I = (a, b] with the
 * utility u(I) = −dist(q·n, [c(a), c(b)]), where c(t) counts the values ≤ t and n the values: 0 when the
 * quantile's rank q·n falls in I, else minus the number of ranks to it. A flat-grid exponential mechanism
 * scores points, not intervals: every point above the data has the same utility −(1 − q)·n, and with a
 * wide grid their number outweighs the few good points (a bound of 26,054 for a 0.9-quantile of 16.3 on
 * isolet5 at ε = 0.1). Here the bad candidates are the octaves, about 80 for a range of 24 decades, so
 * their number enters only as ln 80.
 *
 * <p>Privacy: pure ε-DP with one row as the unit, under {@link Neighbouring#REPLACE_ROW} and
 * {@link Neighbouring#ADD_REMOVE_ROW} alike, for any values of that row (none is excluded: a value below the
 * ladder counts in its first cell, above or NaN in its last). Sensitivity: replacing a row moves every
 * c(t) by at most 1 (n fixed), so both ends of [c(a), c(b)] move by at most 1 and u by at most 1; adding
 * or removing one moves each c(t) by 0 or 1 and q·n by q, so u moves by at most max(q, 1 − q) ≤ 1. Both
 * choices are {@link NoisyMax} with Δ = 1 row (the utilities are exact integers in units of 2^−20 rows; q is
 * taken to 20 binary digits, so 0.9 is used as 0.8999996). Budget: a share
 * {@link #DEFAULT_BRACKET_SHARE} of ε for the octave, the rest for the cell, adaptively composed (the second
 * candidate set depends only on the first output): ε in all. Several quantiles each take the budget they
 * are given and compose (basic composition), as {@link #columnQuantiles} states.
 *
 * <p>Accuracy: with G octaves, the chosen one holds a value within r ranks of the quantile except with
 * probability G·e^(−r·ε₁/2)/2 (ε₁ = the octave's budget): the rank error is about 2·ln(G/β)/ε₁, against
 * 2·ln(m/β)/ε for a flat grid of m ≫ G points. No private method does much better: moving
 * min(q, 1 − q)·n + 1 rows moves the quantile into any of the G octaves, so being right with probability
 * 1 − β needs ε ≳ ln((1 − β)·G/β)/(min(q, 1 − q)·n) (group privacy). {@link #budgetFor} turns that into the
 * budget a given n needs.
 *
 * <p>Timing: one pass over the rows (time proportional to n, the row pass that every release makes), then a
 * fixed number of noise draws (the ladder's octaves, then one octave's cells) whose time depends on the
 * random words only. No exception depends on the data: every check is on public parameters and runs before
 * the pass; non-finite values fall into a fixed cell.
 *
 * <p>Reference: report noisy max (Dwork &amp; Roth 2014, Claim 3.9 and Section 3.4) with one-sided noise, the
 * permute-and-flip mechanism of McKenna &amp; Sheldon (NeurIPS 2020) in the form of Ding, Kifer et al. (2021);
 * the geometric (doubling) bracketing of unbounded private quantiles as in Durfee, "Unbounded Differentially
 * Private Quantile and Maximum Estimation" (NeurIPS 2023), here with a noisy max over octaves instead of a
 * sparse-vector scan.
 *
 * <p>Cost: one pass, O(log m) per value for the m cells of the ladder; O(m) memory per statistic.
 */
public final class AdaptiveQuantile {
    /** Cells per octave: the released value is a cell edge, so its relative resolution is 2^(1/8) − 1. */
    public static final int CELLS_PER_OCTAVE = 8;
    /** Default share of ε for choosing the octave; the rest chooses the cell within it. */
    public static final double DEFAULT_BRACKET_SHARE = 0.75;
    /**
     * The bottom 2^−30 (about 9.3e−10) of the default public ladder, for values without a public range: a
     * value below it counts as at most this.
     */
    public static final double DEFAULT_LO = 0x1.0p-30;
    /** The top 2^50 (about 1.1e15) of the default public ladder: 80 octaves from {@link #DEFAULT_LO}. */
    public static final double DEFAULT_HI = 0x1.0p50;
    /** Utilities are integers in units of 2^−{@value #UNIT_BITS} rows. */
    static final int UNIT_BITS = 20;
    private static final long ROW = 1L << UNIT_BITS;
    /** Counts are capped here (2^41 rows) so that count·2^20 never overflows; a 1-Lipschitz map, so harmless. */
    private static final long MAX_COUNT = 1L << 41;
    private static final String REFERENCE = "report noisy max with one-sided geometric noise (Dwork & Roth 2014, "
            + "Claim 3.9; McKenna & Sheldon 2020, permute-and-flip; Ding, Kifer et al. 2021) over the octaves of a "
            + "public geometric ladder, then over the chosen octave's cells (geometric bracketing as in Durfee, "
            + "NeurIPS 2023)";

    /**
     * A public geometric ladder of cells. Its edges e_0 &lt; … &lt; e_{m−1} make m + 1 cells: cell 0 is
     * (−∞, e_0], cell i is (e_{i−1}, e_i], cell m is everything above e_{m−1} (and NaN). The cells are grouped
     * into octaves of {@value #CELLS_PER_OCTAVE}; the end cells (and, on a signed ladder, the cell around
     * 0) are groups of their own.
     */
    public static final class Ladder {
        private final double[] edges;
        /** groupStart[g] = first cell of group g; groupStart[groups] = m + 1. */
        private final int[] groupStart;
        private final double lo;
        private final double hi;
        private final boolean signed;

        private Ladder(double[] edges, int[] groupStart, double lo, double hi, boolean signed) {
            this.edges = edges;
            this.groupStart = groupStart;
            this.lo = lo;
            this.hi = hi;
            this.signed = signed;
        }

        /**
         * Octaves from lo up to the first edge ≥ hi (0 &lt; lo &lt; hi, finite): for non-negative values such as
         * norms. Values ≤ lo fall in the first cell, values above the top in the last.
         *
         * @param lo the smallest edge, &gt; 0
         * @param hi the top (the first edge at or above it closes the ladder)
         * @return the ladder
         */
        public static Ladder positive(double lo, double hi) {
            int octaves = octaves(lo, hi);
            double[] e = new double[CELLS_PER_OCTAVE * octaves + 1];
            for (int i = 0; i < e.length; i++) {
                e[i] = edge(lo, i);
            }
            int[] start = new int[octaves + 3];
            start[0] = 0;
            for (int o = 0; o <= octaves; o++) {
                start[o + 1] = 1 + o * CELLS_PER_OCTAVE;
            }
            start[octaves + 2] = e.length + 1;
            return new Ladder(e, start, lo, e[e.length - 1], false);
        }

        /**
         * −top … −lo, lo … top by octaves (0 &lt; lo &lt; hi): for signed values such as table columns. The cell
         * (−lo, lo] around 0 is one group; values below −top fall in the first cell, above top in the last.
         *
         * @param lo the smallest positive edge, &gt; 0
         * @param hi the top on each side
         * @return the ladder
         */
        public static Ladder signed(double lo, double hi) {
            int octaves = octaves(lo, hi);
            int half = CELLS_PER_OCTAVE * octaves + 1;
            double[] e = new double[2 * half];
            for (int i = 0; i < half; i++) {
                e[half - 1 - i] = -edge(lo, i);
                e[half + i] = edge(lo, i);
            }
            // groups: {cell 0}, octaves of the negative side, {(−lo, lo]}, octaves of the positive side, {top}
            int[] start = new int[2 * octaves + 4];
            int g = 0;
            start[g++] = 0;
            for (int o = 0; o < octaves; o++) {
                start[g++] = 1 + o * CELLS_PER_OCTAVE;
            }
            start[g++] = half; // the cell (−lo, lo]
            for (int o = 0; o < octaves; o++) {
                start[g++] = half + 1 + o * CELLS_PER_OCTAVE;
            }
            start[g++] = 2 * half; // top cell
            start[g] = 2 * half + 1;
            return new Ladder(e, start, lo, e[e.length - 1], true);
        }

        /**
         * The ladder for row norms: 40 octaves below {@code publicTop} when the rows have a public bound (a
         * bounded schema's, by construction), else {@link #DEFAULT_LO} to {@link #DEFAULT_HI} (NaN).
         *
         * @param publicTop the largest norm a row can have, or NaN when there is none
         * @return the ladder
         */
        public static Ladder rowNorms(double publicTop) {
            return Double.isNaN(publicTop) ? positive(DEFAULT_LO, DEFAULT_HI)
                    : positive(Math.scalb(publicTop, -40), publicTop);
        }

        private static int octaves(double lo, double hi) {
            if (!(lo > 0 && hi > lo && Double.isFinite(hi))) {
                throw new IllegalArgumentException("a ladder needs 0 < lo < hi (finite), got lo = " + lo + ", hi = " + hi);
            }
            int octaves = (int) Math.ceil(Math.log(hi / lo) / Math.log(2) - 1e-12);
            if (octaves > 2000) {
                throw new IllegalArgumentException("the ladder from " + lo + " to " + hi + " has " + octaves
                        + " octaves; narrow the range");
            }
            return Math.max(1, octaves);
        }

        private static double edge(double lo, int i) {
            return i % CELLS_PER_OCTAVE == 0 ? Math.scalb(lo, i / CELLS_PER_OCTAVE)
                    : lo * Math.pow(2, (double) i / CELLS_PER_OCTAVE);
        }

        /**
         * The edges, ascending (a copy): the grid whose histogram PrivateQuantile's row histogram counts.
         *
         * @return the edges
         */
        public double[] edges() {
            return edges.clone();
        }

        /**
         * Number of noisy-max candidates in the first step (octaves and end cells).
         *
         * @return the number of groups
         */
        public int groups() {
            return groupStart.length - 1;
        }

        /**
         * The smallest positive edge.
         *
         * @return lo
         */
        public double lo() {
            return lo;
        }

        /**
         * The top edge.
         *
         * @return the top
         */
        public double top() {
            return hi;
        }

        /**
         * Whether the ladder covers negative values too ({@link #signed}).
         *
         * @return true for a signed ladder
         */
        public boolean isSigned() {
            return signed;
        }

        int cells() {
            return edges.length + 1;
        }

        /** The released value of cell i: its upper edge when {@code upper}, else its lower edge (end cells: their finite edge). */
        double value(int cell, boolean upper) {
            if (cell == 0) {
                return edges[0];
            }
            if (cell == edges.length) {
                return edges[edges.length - 1];
            }
            return upper ? edges[cell] : edges[cell - 1];
        }

        /** The cell of v: first i with v ≤ e_i, or m for v above every edge or NaN. */
        int cellOf(double v) {
            if (Double.isNaN(v)) {
                return edges.length;
            }
            int at = Arrays.binarySearch(edges, v);
            return at >= 0 ? at : -at - 1;
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%s%.6g * 2^(i/%d) up to %.6g", signed ? "+-" : "",
                    lo, CELLS_PER_OCTAVE, hi);
        }
    }

    /**
     * @param value     the released cell edge (the upper edge for q ≥ 0.5, the lower one below)
     * @param quantile  the requested q
     * @param atEnd     true when the chosen cell is an end cell of the ladder: the quantile may lie beyond the
     *                  public range (or the budget was too small to find it); a function of the release alone
     * @param guarantee what the release satisfies
     */
    public record Result(double value, double quantile, boolean atEnd, PrivacyGuarantee guarantee) {
    }

    /** Per-column quantiles and their joint guarantee; values[column][quantile index], atEnd likewise. */
    public record ColumnQuantiles(double[][] values, boolean[][] atEnd, PrivacyGuarantee guarantee) {
    }

    private final RandomSource random;
    private final double bracketShare;
    private final long sensitivityUnits;

    private AdaptiveQuantile(RandomSource random, double bracketShare, long sensitivityUnits) {
        this.random = Objects.requireNonNull(random, "random");
        this.bracketShare = bracketShare;
        this.sensitivityUnits = sensitivityUnits;
    }

    /**
     * A quantile mechanism drawing from {@code random}, with the default octave share.
     *
     * @param random the noise source (secure unless a test or experiment says otherwise)
     * @return the mechanism
     */
    public static AdaptiveQuantile using(RandomSource random) {
        return new AdaptiveQuantile(random, DEFAULT_BRACKET_SHARE, ROW);
    }

    /**
     * The share of ε spent on choosing the octave, in (0, 1]; at 1 the cell step is skipped and the released
     * value is the octave's middle edge, within 2^(1/2) of every value in the octave (what a small n can
     * afford: see {@link #plan}).
     *
     * @param share the octave's share of ε, in (0, 1]
     * @return this mechanism with that share
     */
    public AdaptiveQuantile bracketShare(double share) {
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("the octave share must be in (0, 1], got " + share);
        }
        return new AdaptiveQuantile(random, share, sensitivityUnits);
    }

    /**
     * Calibrates the noise to {@code rows} rows of sensitivity instead of one: package-private, for the
     * auditor's broken twin in tests only. A value below 1 makes the release NOT private.
     */
    AdaptiveQuantile sensitivityForAuditTests(double rows) {
        return new AdaptiveQuantile(random, bracketShare, Math.max(1, Math.round(DpPreconditions.checkPositive(
                "sensitivity", rows) * ROW)));
    }

    /**
     * The budget with which the octave step avoids, with probability at least 1 − β, every octave whose
     * utility is −min(q, 1 − q)·n or lower (those lying wholly below or above the data, among others): by the
     * accuracy bound, G·e^(−r·ε₁/2)/2 ≤ β with r = min(q, 1 − q)·n; divided by {@code bracketShare}. n must be
     * public (replace-one) or a public lower bound on the number of rows.
     *
     * @param n the number of rows, public or a public lower bound
     * @param q the quantile, in (0, 1)
     * @param ladder the public ladder
     * @param beta the failure probability aimed at, in (0, 1)
     * @param bracketShare the octave's share of the budget, in (0, 1]
     * @return the budget ε for the whole quantile
     */
    public static double budgetFor(long n, double q, Ladder ladder, double beta, double bracketShare) {
        checkQuantile(q);
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        if (!(beta > 0 && beta < 1)) {
            throw new IllegalArgumentException("beta must be in (0, 1), got " + beta);
        }
        if (!(bracketShare > 0 && bracketShare <= 1)) {
            throw new IllegalArgumentException("the octave share must be in (0, 1], got " + bracketShare);
        }
        double ranks = Math.min(q, 1 - q) * n;
        double eps1 = 2 * Math.log(ladder.groups() / (2 * beta)) / ranks;
        return eps1 / bracketShare;
    }

    /** Smallest budget share {@link #plan} gives a quantile. */
    public static final double MIN_AUTO_SHARE = 0.05;
    /** Largest budget share {@link #plan} gives a quantile: at least half is left for what it serves. */
    public static final double MAX_AUTO_SHARE = 0.5;
    /** The failure probability {@link #plan} aims at. */
    public static final double AUTO_BETA = 0.02;

    /**
     * The share of a release's ε that a quantile gets under {@code auto}, and how it splits it.
     *
     * @param share        the share of the release's ε
     * @param bracketShare the share of that spent on the octave (1: no cell step)
     * @param sufficient   false when even {@link #MAX_AUTO_SHARE} falls short of {@link #budgetFor}: the quantile
     *                     may then land beyond the data (too few rows for this ε)
     */
    public record Plan(double share, double bracketShare, boolean sufficient) {
    }

    /**
     * The {@code auto} plan for a q-quantile over {@code ladder} with n (public) rows and a release budget ε:
     * the budget {@link #budgetFor}(n, q, ladder, {@value #AUTO_BETA}, {@value #DEFAULT_BRACKET_SHARE}) needs, as
     * a share of ε between {@value #MIN_AUTO_SHARE} and {@value #MAX_AUTO_SHARE}; when that does not fit, the
     * cell step is dropped (the octave gets everything) and the share is what the octave alone needs, up to
     * {@value #MAX_AUTO_SHARE}. A function of public numbers only.
     *
     * @param n the number of rows, public (replace-one) or a public lower bound
     * @param q the quantile, in (0, 1)
     * @param epsilon the release's total ε
     * @param ladder the public ladder
     * @return the share, the octave's share of it, and whether it suffices
     */
    public static Plan plan(long n, double q, double epsilon, Ladder ladder) {
        DpPreconditions.checkEpsilon(epsilon);
        double withCells = budgetFor(n, q, ladder, AUTO_BETA, DEFAULT_BRACKET_SHARE) / epsilon;
        if (withCells <= MAX_AUTO_SHARE) {
            return new Plan(Math.max(MIN_AUTO_SHARE, withCells), DEFAULT_BRACKET_SHARE, true);
        }
        double octaveOnly = budgetFor(n, q, ladder, AUTO_BETA, 1) / epsilon;
        return new Plan(Math.min(MAX_AUTO_SHARE, octaveOnly), 1, octaveOnly <= MAX_AUTO_SHARE);
    }

    /**
     * The q-quantile of the rows' L2 norms over {@code ladder}, spending {@code budget.epsilon()} (δ unused).
     *
     * @param rows the rows
     * @param q the quantile, in (0, 1)
     * @param ladder the public ladder
     * @param budget the ε to spend
     * @param neighbouring the relation the guarantee is stated for
     * @return the released value, whether it is at an end of the ladder, and the guarantee
     */
    public Result rowNormQuantile(RowSource rows, double q, Ladder ladder, PrivacyParams budget,
                                  Neighbouring neighbouring) {
        checkQuantile(q);
        return rowNormQuantile(rowNormHistogram(rows, ladder.edges), q, ladder, budget, neighbouring);
    }

    /**
     * The rows' L2-norm histogram over {@code grid} (ascending): h[i] counts the rows whose norm lies in
     * (grid[i − 1], grid[i]] (h[0]: norm ≤ grid[0]; norms above the last point, and NaN, fall in no cell), and
     * h[m] = n, the number of rows. Histograms of disjoint parts of the rows add up elementwise to the
     * histogram of their union (they are counts), so a cluster can compute one per partition and sum them.
     * Not private by itself: it is the exact statistic the mechanism privatises.
     *
     * @param rows the rows
     * @param grid the public edges, ascending ({@link Ladder#edges})
     * @return m + 1 counts for m edges, the row count last
     */
    public static long[] rowNormHistogram(RowSource rows, double[] grid) {
        checkGrid(grid);
        return PrivateQuantile.histogram(rows, new PrivateQuantile.RowStatistic[] {Vectors::norm2}, grid)[0];
    }

    /**
     * The q-quantile of the row norms from their {@linkplain #rowNormHistogram histogram} over
     * {@code ladder.edges()}: the same mechanism and guarantee as {@link #rowNormQuantile(RowSource, double,
     * Ladder, PrivacyParams, Neighbouring)}, for a histogram summed elsewhere (across a cluster's partitions).
     *
     * @param histogram the histogram over {@code ladder.edges()}, the row count last
     * @param q the quantile, in (0, 1)
     * @param ladder the public ladder
     * @param budget the ε to spend
     * @param neighbouring the relation the guarantee is stated for
     * @return the released value, whether it is at an end of the ladder, and the guarantee
     */
    public Result rowNormQuantile(long[] histogram, double q, Ladder ladder, PrivacyParams budget,
                                  Neighbouring neighbouring) {
        checkQuantile(q);
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(neighbouring, "neighbouring");
        if (histogram.length != ladder.edges.length + 1) {
            throw new IllegalArgumentException("a histogram over " + ladder.edges.length + " grid points has "
                    + (ladder.edges.length + 1) + " entries, got " + histogram.length);
        }
        int cell = select(PrivateQuantile.cumulative(histogram), q, ladder, budget.epsilon());
        return new Result(ladder.value(cell, q >= 0.5), q, cell == 0 || cell == ladder.edges.length,
                guarantee("row L2-norm " + q + "-quantile", budget.epsilon(), neighbouring, 1));
    }

    /**
     * For each column j and each q in {@code quantiles}, the q-quantile of column j over {@code ladder}, from
     * one pass; each of the d·|quantiles| releases spends {@code each} (basic composition: the guarantee is
     * their sum).
     *
     * @param rows the rows
     * @param quantiles the quantiles, each in (0, 1)
     * @param ladder the public (signed) ladder
     * @param each the ε each quantile spends
     * @param neighbouring the relation the guarantee is stated for
     * @return the released values per column and quantile, their end flags, and the composed guarantee
     */
    public ColumnQuantiles columnQuantiles(RowSource rows, double[] quantiles, Ladder ladder, PrivacyParams each,
                                           Neighbouring neighbouring) {
        for (double q : quantiles) {
            checkQuantile(q);
        }
        Objects.requireNonNull(each, "each");
        int d = rows.dimension();
        PrivateQuantile.RowStatistic[] columns = new PrivateQuantile.RowStatistic[d];
        for (int j = 0; j < d; j++) {
            int col = j;
            columns[j] = r -> r[col];
        }
        long[][] counts = PrivateQuantile.histogram(rows, columns, ladder.edges);
        double[][] out = new double[d][quantiles.length];
        boolean[][] atEnd = new boolean[d][quantiles.length];
        for (int j = 0; j < d; j++) {
            long[] c = PrivateQuantile.cumulative(counts[j]);
            for (int i = 0; i < quantiles.length; i++) {
                int cell = select(c, quantiles[i], ladder, each.epsilon());
                out[j][i] = ladder.value(cell, quantiles[i] >= 0.5);
                atEnd[j][i] = cell == 0 || cell == ladder.edges.length;
            }
        }
        int releases = d * quantiles.length;
        return new ColumnQuantiles(out, atEnd, guarantee(releases + " column quantiles", each.epsilon() * releases,
                neighbouring, releases));
    }

    /**
     * The two noisy maxima on cumulative counts c (c[i] = #values ≤ e_i for the m edges, c[m] = n): returns
     * the chosen cell.
     */
    int select(long[] c, double q, Ladder ladder, double epsilon) {
        DpPreconditions.checkEpsilon(epsilon);
        long qUnits = Math.round(q * ROW);
        int groups = ladder.groups();
        long[] u = new long[groups];
        for (int g = 0; g < groups; g++) {
            u[g] = utility(c, ladder.groupStart[g], ladder.groupStart[g + 1] - 1, qUnits);
        }
        double eps1 = bracketShare >= 1 ? epsilon : epsilon * bracketShare;
        int g = NoisyMax.select(u, sensitivityUnits, eps1, random);
        int first = ladder.groupStart[g];
        int last = ladder.groupStart[g + 1] - 1;
        if (first == last) {
            return first;
        }
        if (bracketShare >= 1) {
            // the octave alone: its middle edge is within 2^(1/2) of every value in it
            return q >= 0.5 ? first + CELLS_PER_OCTAVE / 2 - 1 : first + CELLS_PER_OCTAVE / 2;
        }
        long[] cu = new long[last - first + 1];
        for (int i = first; i <= last; i++) {
            cu[i - first] = utility(c, i, i, qUnits);
        }
        return first + NoisyMax.select(cu, sensitivityUnits, epsilon - eps1, random);
    }

    /** −dist(q·n, [c(before first), c(last)]) in units of 2^−20 rows (cells first..last). */
    private static long utility(long[] c, int first, int last, long qUnits) {
        long n = Math.min(c[c.length - 1], MAX_COUNT);
        long below = first == 0 ? 0 : Math.min(c[first - 1], MAX_COUNT);
        long upTo = Math.min(c[last], MAX_COUNT);
        long rank = qUnits * n;
        return -Math.max(0, Math.max(below * ROW - rank, rank - upTo * ROW));
    }

    private static PrivacyGuarantee guarantee(String what, double epsilon, Neighbouring neighbouring, int releases) {
        return new PrivacyGuarantee("private quantile (" + what + ")", PrivacyParams.pure(epsilon), neighbouring,
                "one row (any values)", "utility -dist(q n, [#{v <= a}, #{v <= b}]) of an interval (a, b] has "
                        + "sensitivity 1 under add/remove and replace; octave then cell"
                        + (releases > 1 ? "; " + releases + " quantiles at epsilon/" + releases + " each, basic "
                        + "composition" : ""), REFERENCE);
    }

    static void checkQuantile(double q) {
        if (!(q > 0 && q < 1)) {
            throw new IllegalArgumentException("the quantile must be in (0, 1), got " + q + "; e.g. 0.5");
        }
        long units = Math.round(q * ROW);
        if (units < 1 || units >= ROW) {
            throw new IllegalArgumentException("the quantile " + q + " is within 2^-20 of 0 or 1; use e.g. 0.001");
        }
    }

    private static void checkGrid(double[] grid) {
        if (grid.length < 2) {
            throw new IllegalArgumentException("the grid needs at least two points");
        }
        for (int i = 0; i < grid.length; i++) {
            if (!Double.isFinite(grid[i]) || i > 0 && !(grid[i] > grid[i - 1])) {
                throw new IllegalArgumentException("the grid must be finite and strictly increasing; point " + (i + 1)
                        + " is " + grid[i]);
            }
        }
    }
}
