package io.dpspectra.data;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Private per-column ranges for a drafted schema: for each of c numeric columns, first its median m by
 * {@link AdaptiveQuantile} over a public signed ladder, then the q- and (1 − q)-quantiles of x − m over the
 * same ladder (so that a column's spread is found to 9% whatever its offset: a year between 1990 and 2020 gets
 * a range of about 30, not of the octave 1024…2048 it lies in), and a check of every range, so that a draft
 * whose bounds would destroy the data is refused instead of written.
 *
 * <p>Privacy: pure ε-DP with one row as the unit, under {@link Neighbouring#REPLACE_ROW} and
 * {@link Neighbouring#ADD_REMOVE_ROW} alike: 3c quantiles, each an {@link AdaptiveQuantile} release at ε/(3c)
 * (ε/(3c)-DP with sensitivity 1 in every column's counts; the second pass shifts each column by its released
 * median, a public constant by then), composed by basic composition; one row moves every column's counts, so
 * no parallel composition applies. The checks ({@link Problem}) look at the released values only:
 * post-processing.
 *
 * <p>The split: every quantile gets the same ε/(3c). What varies is the quantile: a quantile q can be located
 * only when min(q, 1 − q)·n exceeds the rank error of a release at ε/(3c) (about 2·ln(G/(2β))/ε₁, see
 * {@link AdaptiveQuantile#budgetFor}), so {@link #plan} raises q from the requested value to the most extreme
 * quantile this budget locates (a wider share of clamped cells, instead of a range that lands beyond the
 * data), and refuses, before anything is spent, when even {@link #MAX_QUANTILE} cannot be located: then no
 * private draft can work at this ε for this many columns and rows. All of this is a function of public numbers.
 *
 * <p>Reference: see {@link AdaptiveQuantile}; centre first, then radius, in the spirit of CoinPress (Biswas,
 * Dong, Kamath &amp; Ullman, NeurIPS 2020); basic composition (Dwork &amp; Roth 2014, Theorem 3.16).
 *
 * <p>Cost: two passes over the rows; memory c·m counts for the ladder's m cells.
 */
public final class PrivateColumnRanges {
    /** The smallest quantile {@link #plan} uses: about 1% of each column's cells are clamped at each end. */
    public static final double MIN_QUANTILE = 0.01;
    /** The largest: 10% of each column's cells clamped at each end. Beyond it, a range distorts the column. */
    public static final double MAX_QUANTILE = 0.1;
    /** The failure probability the plan allows each quantile. */
    static final double BETA = 0.05;

    /**
     * The plan of a draft, from public numbers only.
     *
     * @param quantile     the lower quantile q used (the upper is 1 − q)
     * @param perQuantile  the budget of each of the 3c quantiles
     * @param feasible     false when not even {@link #MAX_QUANTILE} can be located: do not spend
     * @param why          for people: what limits the plan (the rank error against n), or null
     */
    public record Plan(double quantile, PrivacyParams perQuantile, boolean feasible, String why) {
    }

    /**
     * What is wrong with one drafted column.
     *
     * @param column the column's index among the numeric columns given
     * @param why    for people, with the released values
     */
    public record Problem(int column, String why) {
    }

    /**
     * A drafted set of ranges.
     *
     * @param median    the private medians
     * @param lo        median + the lower quantile of x − median (a cell's lower edge)
     * @param hi        median + the upper quantile of x − median (a cell's upper edge)
     * @param problems  the columns whose range is degenerate or implausible (empty when the draft is usable)
     * @param guarantee what the draft satisfies
     */
    public record Draft(double[] median, double[] lo, double[] hi, double quantile, List<Problem> problems,
                        PrivacyGuarantee guarantee) {
        /**
         * A scale for column j: the standard deviation a normal column with these q- and (1 − q)-quantiles would
         * have, (hi − lo)/(2·z_{1−q}); dividing by it after subtracting the median makes a column close to its
         * z-score (post-processing of the release).
         *
         * @param j the column
         * @return the scale, &gt; 0 for a column without a {@link Problem}
         */
        public double scale(int j) {
            return (hi[j] - lo[j]) / (2 * normalQuantile(1 - quantile));
        }
    }

    /** Φ⁻¹(p) for p in (0.5, 1), by bisection on {@link io.dpspectra.noise.ErrorFunction#normalCdf}: exact to 1e−12. */
    static double normalQuantile(double p) {
        double a = 0;
        double b = 40;
        for (int i = 0; i < 200 && b - a > 1e-13; i++) {
            double m = (a + b) / 2;
            if (io.dpspectra.noise.ErrorFunction.normalCdf(m) < p) {
                a = m;
            } else {
                b = m;
            }
        }
        return (a + b) / 2;
    }

    private final RandomSource random;
    private final AdaptiveQuantile.Ladder ladder;
    private final double sensitivityRows;

    private PrivateColumnRanges(RandomSource random, AdaptiveQuantile.Ladder ladder, double sensitivityRows) {
        this.random = Objects.requireNonNull(random, "random");
        this.ladder = Objects.requireNonNull(ladder, "ladder");
        this.sensitivityRows = sensitivityRows;
    }

    /**
     * Ranges drawn from {@code random} over the default signed ladder ±2^−30 … ±2^50.
     *
     * @param random the noise source
     * @return the drafter
     */
    public static PrivateColumnRanges using(RandomSource random) {
        return new PrivateColumnRanges(random, defaultLadder(), 1);
    }

    /**
     * The default public ladder of a draft: ±{@link AdaptiveQuantile#DEFAULT_LO} … ±{@link AdaptiveQuantile#DEFAULT_HI}.
     *
     * @return the ladder
     */
    public static AdaptiveQuantile.Ladder defaultLadder() {
        return AdaptiveQuantile.Ladder.signed(AdaptiveQuantile.DEFAULT_LO, AdaptiveQuantile.DEFAULT_HI);
    }

    /** The same drafter over another ladder (tests only: a short ladder makes an audit's runs fast). */
    PrivateColumnRanges ladderForTests(AdaptiveQuantile.Ladder other) {
        return new PrivateColumnRanges(random, other, sensitivityRows);
    }

    /** The auditor's broken twin (tests only): noise calibrated to {@code rows} rows of sensitivity. */
    PrivateColumnRanges sensitivityForAuditTests(double rows) {
        return new PrivateColumnRanges(random, ladder, DpPreconditions.checkPositive("sensitivity", rows));
    }

    /**
     * The plan for c numeric columns and n rows (public: replace-one, or a public lower bound) at total ε, with
     * the lower quantile {@code requested} if the budget locates it, else the most extreme one it locates (up
     * to {@link #MAX_QUANTILE}).
     *
     * @param rows      n
     * @param columns   c ≥ 1
     * @param epsilon   the draft's total ε
     * @param requested the requested lower quantile in (0, 0.5)
     * @return the plan
     */
    public static Plan plan(long rows, int columns, double epsilon, double requested) {
        DpPreconditions.checkEpsilon(epsilon);
        DpPreconditions.checkAtLeast("columns", columns, 1);
        if (!(requested > 0 && requested < 0.5)) {
            throw new IllegalArgumentException("the lower quantile must be in (0, 0.5), got " + requested);
        }
        if (rows < 1) {
            throw new IllegalArgumentException("the number of rows must be >= 1, got " + rows);
        }
        double each = epsilon / (3.0 * columns);
        PrivacyParams per = PrivacyParams.pure(each);
        AdaptiveQuantile.Ladder ladder = defaultLadder();
        // the ranks a release at ε/(3c) can miss by: min(q, 1 − q)·n must exceed them
        double ranks = 2 * Math.log(ladder.groups() / (2 * BETA)) / (each * AdaptiveQuantile.DEFAULT_BRACKET_SHARE);
        double needed = ranks / rows;
        double q = Math.max(Math.max(requested, MIN_QUANTILE), needed);
        String why = String.format(Locale.ROOT, "at epsilon = %s over %d numeric columns (3 quantiles each, epsilon "
                + "%.3g per quantile) a quantile is located to within about %.0f rows", epsilon, columns, each, ranks);
        if (q > MAX_QUANTILE) {
            return new Plan(MAX_QUANTILE, per, false, why + String.format(Locale.ROOT, ", more than a tenth of the "
                    + "%d rows: even the %s- and %s-quantiles cannot be located; a private draft needs epsilon >= %.3g "
                    + "here, or fewer columns", rows, MAX_QUANTILE, 1 - MAX_QUANTILE,
                    epsilon * ranks / (MAX_QUANTILE * rows)));
        }
        return new Plan(q, per, true, q > requested ? why + String.format(Locale.ROOT, ", so the %s- and %s-quantiles "
                + "are drafted instead of the %s- and %s-quantiles asked for", round(q), round(1 - q), requested,
                1 - requested) : null);
    }

    private static String round(double q) {
        return String.format(Locale.ROOT, "%.3g", q);
    }

    /**
     * Drafts the ranges of every column of {@code rows} (all numeric) under {@code plan}, and checks them.
     *
     * @param rows         the numeric columns
     * @param plan         from {@link #plan} (a plan that is not feasible is refused here, before the pass)
     * @param neighbouring the relation stated in the guarantee
     * @return the draft
     */
    public Draft fit(RowSource rows, Plan plan, Neighbouring neighbouring) {
        Objects.requireNonNull(plan, "plan");
        if (!plan.feasible()) {
            throw new IllegalArgumentException("this draft cannot work: " + plan.why());
        }
        double q = plan.quantile();
        AdaptiveQuantile quantiles = sensitivityRows == 1 ? AdaptiveQuantile.using(random)
                : AdaptiveQuantile.using(random).sensitivityForAuditTests(sensitivityRows);
        AdaptiveQuantile.ColumnQuantiles medians = quantiles.columnQuantiles(rows, new double[] {0.5}, ladder,
                plan.perQuantile(), neighbouring);
        int c = rows.dimension();
        double[] m = new double[c];
        for (int j = 0; j < c; j++) {
            // a median beyond the ladder is still a public constant; the spread step and the checks judge it
            m[j] = medians.values()[j][0];
        }
        AdaptiveQuantile.ColumnQuantiles spread = quantiles.columnQuantiles(ShiftedRows.of(rows, m),
                new double[] {q, 1 - q}, ladder, plan.perQuantile(), neighbouring);
        double[] lo = new double[c];
        double[] hi = new double[c];
        List<Problem> problems = new ArrayList<>();
        for (int j = 0; j < c; j++) {
            double below = spread.values()[j][0];
            double above = spread.values()[j][1];
            lo[j] = m[j] + below;
            hi[j] = m[j] + above;
            String why = check(m[j], below, above, medians.atEnd()[j][0], spread.atEnd()[j][0], spread.atEnd()[j][1], q);
            if (why != null) {
                problems.add(new Problem(j, why));
            }
        }
        PrivacyGuarantee g = medians.guarantee();
        PrivacyGuarantee all = new PrivacyGuarantee("private column ranges (" + 3 * c + " quantiles: each column's "
                + "median, then the " + round(q) + "- and " + round(1 - q) + "-quantiles of its distance to it)",
                PrivacyParams.pure(plan.perQuantile().epsilon() * 3 * c), neighbouring, g.privacyUnit(),
                g.sensitivity() + "; " + 3 * c + " quantiles at epsilon " + plan.perQuantile().epsilon()
                        + " each, basic composition", g.reference());
        return new Draft(m, lo, hi, q, List.copyOf(problems), all);
    }

    /**
     * Why the released range cannot be used, or null (post-processing of the release): m the median, below and
     * above the quantiles of x − m.
     */
    private String check(double m, double below, double above, boolean mAtEnd, boolean loAtEnd, boolean hiAtEnd,
                         double q) {
        String range = String.format(Locale.ROOT, "[%.6g, %.6g]", m + below, m + above);
        if (mAtEnd || loAtEnd || hiAtEnd) {
            return "its private " + (mAtEnd ? "median" : (loAtEnd ? round(q) : round(1 - q)) + "-quantile")
                    + " fell at the end of the public range (beyond " + String.format(Locale.ROOT, "%.3g", ladder.top())
                    + " in size): implausible, too little budget for this column or values beyond the range";
        }
        if (!(above > below)) {
            return "its private " + round(q) + "-quantile is not below its " + round(1 - q) + "-quantile " + range
                    + ": implausible, the noise won over too few rows";
        }
        double cellRatio = Math.pow(2, 2.0 / AdaptiveQuantile.CELLS_PER_OCTAVE) + 1e-12;
        boolean tiny = above - below <= 4 * ladder.lo();
        boolean oneCell = below * above > 0 && Math.max(above / below, below / above) <= cellRatio;
        if (tiny || oneCell) {
            return "both private quantiles of its distance to its median " + String.format(Locale.ROOT, "%.6g", m)
                    + " fall within " + (tiny ? "the smallest cells of the ladder" : "two cells") + ": at least a "
                    + "share " + round(1 - 2 * q) + " of the column takes (nearly) one value, so its range " + range
                    + " is degenerate";
        }
        return null;
    }
}
