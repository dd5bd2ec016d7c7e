package io.dpspectra.data;

import io.dpspectra.linalg.Vectors;
import io.dpspectra.noise.ExponentialMechanism;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Arrays;
import java.util.Objects;

/**
 * A differentially private quantile over a public finite grid, by the exponential mechanism: grid
 * point t_i is released with probability ∝ exp(ε·u_i/2), u_i = −|c_i − q·n|, where c_i counts the values
 * ≤ t_i and n the values. Used to choose a row-norm bound ({@link #rowNormQuantile}: q = 0.95 gives a
 * bound that clips about 5% of the rows) and per-column bounds for a drafted schema
 * ({@link #columnQuantiles}).
 *
 * <p>Privacy: pure ε-DP under both {@link Neighbouring#REPLACE_ROW} and {@link Neighbouring#ADD_REMOVE_ROW}
 * with one row as the unit, for any value of that row: replacing a row moves c_i by at most 1 (n is
 * fixed); adding one moves c_i − q·n by 1 − q or by q. So Δu ≤ 1 and the exponential mechanism (McSherry
 * &amp; Talwar 2007, Theorem 6) gives ε-DP. The grid must be public (chosen without the data): a
 * {@linkplain #geometricGrid geometric grid} covers many orders of magnitude with relative resolution
 * (ratio − 1). The released value is a grid point; if the true quantile lies beyond the grid, the
 * nearest end is the likeliest output. Several quantiles from one pass ({@link #columnQuantiles}) split
 * ε evenly and compose (basic composition).
 *
 * <p>Reference: the exponential-mechanism quantile of Smith (STOC 2011) as used for private clipping
 * bounds (e.g. Gillenwater, Joseph &amp; Kulesza, ICML 2021, "Differentially Private Quantiles", §2);
 * McSherry &amp; Talwar (FOCS 2007).
 *
 * <p>Cost: one pass over the rows, O(log m) per value for m grid points; O(m) memory per quantile.
 */
public final class PrivateQuantile {
    /**
     * @param value     the released grid point
     * @param quantile  the requested q
     * @param guarantee what the release satisfies
     */
    public record Result(double value, double quantile, PrivacyGuarantee guarantee) {
    }

    private static final String REFERENCE = "exponential-mechanism quantile over a public grid (McSherry & Talwar "
            + "2007, Theorem 6; Smith 2011; Gillenwater, Joseph & Kulesza 2021, Sec. 2)";

    private final RandomSource random;
    private final double utilityMultiplier;

    private PrivateQuantile(RandomSource random, double utilityMultiplier) {
        this.random = Objects.requireNonNull(random, "random");
        this.utilityMultiplier = utilityMultiplier;
    }

    /**
     * A quantile mechanism drawing from {@code random}.
     *
     * @param random the randomness of the exponential mechanism
     * @return the mechanism
     */
    public static PrivateQuantile using(RandomSource random) {
        return new PrivateQuantile(random, 1.0);
    }

    /**
     * Multiplies the utilities (so the exponent) by {@code m}: package-private, for the auditor's broken
     * twin in tests only. A value above 1 makes the release NOT private.
     */
    PrivateQuantile utilityMultiplierForAuditTests(double m) {
        return new PrivateQuantile(random, DpPreconditions.checkPositive("utilityMultiplier", m));
    }

    /**
     * lo, lo·r, lo·r², … up to the first point ≥ hi (0 &lt; lo &lt; hi, r &gt; 1).
     *
     * @param lo    the first point
     * @param hi    the point to reach
     * @param ratio r
     * @return the ascending grid
     */
    public static double[] geometricGrid(double lo, double hi, double ratio) {
        if (!(lo > 0 && hi > lo && Double.isFinite(hi) && ratio > 1 && Double.isFinite(ratio))) {
            throw new IllegalArgumentException("a geometric grid needs 0 < lo < hi (finite) and ratio > 1, got lo = "
                    + lo + ", hi = " + hi + ", ratio = " + ratio);
        }
        int m = (int) Math.ceil(Math.log(hi / lo) / Math.log(ratio)) + 1;
        if (m > 1_000_000) {
            throw new IllegalArgumentException("the grid from " + lo + " to " + hi + " with ratio " + ratio + " has "
                    + m + " points; use a larger ratio");
        }
        double[] g = new double[m];
        for (int i = 0; i < m; i++) {
            g[i] = lo * Math.pow(ratio, i);
        }
        return g;
    }

    /**
     * −g_m … −g_0, 0, g_0 … g_m for the geometric grid g from lo to hi: for signed values.
     *
     * @param lo    the smallest magnitude
     * @param hi    the largest magnitude to reach
     * @param ratio r
     * @return the ascending grid
     */
    public static double[] signedGeometricGrid(double lo, double hi, double ratio) {
        double[] g = geometricGrid(lo, hi, ratio);
        double[] s = new double[2 * g.length + 1];
        for (int i = 0; i < g.length; i++) {
            s[g.length - 1 - i] = -g[i];
            s[g.length + 1 + i] = g[i];
        }
        return s;
    }

    /**
     * The q-quantile of the rows' L2 norms over {@code grid} (ascending), spending {@code budget.epsilon()}
     * (δ is not used).
     *
     * @param rows         the rows
     * @param q            the quantile, in [0, 1]
     * @param grid         the public candidate values, ascending
     * @param budget       the ε to spend
     * @param neighbouring the relation the guarantee is stated for
     * @return the released grid value, q and the guarantee
     */
    public Result rowNormQuantile(RowSource rows, double q, double[] grid, PrivacyParams budget,
                                  Neighbouring neighbouring) {
        checkQuantile(q);
        checkGrid(grid);
        return rowNormQuantile(rowNormHistogram(rows, grid), q, grid, budget, neighbouring);
    }

    /**
     * The rows' L2-norm histogram over {@code grid} (ascending): h[i] counts the rows whose norm lies in
     * (grid[i − 1], grid[i]] (h[0]: norm ≤ grid[0]; norms above the last point fall in no cell), and
     * h[m] = n, the number of rows. Histograms of disjoint parts of the rows add up elementwise to the
     * histogram of their union (exactly: they are counts), so a cluster can compute one per partition and
     * sum them before {@link #rowNormQuantile(long[], double, double[], PrivacyParams, Neighbouring)}.
     * Not private by itself: it is the exact statistic the mechanism privatises.
     *
     * @param rows the rows
     * @param grid the public grid, ascending
     * @return m + 1 counts for a grid of m points
     */
    public static long[] rowNormHistogram(RowSource rows, double[] grid) {
        checkGrid(grid);
        return histogram(rows, new RowStatistic[] {Vectors::norm2}, grid)[0];
    }

    /**
     * The q-quantile of the row norms from their {@linkplain #rowNormHistogram histogram} over
     * {@code grid}: the same mechanism and guarantee as {@link #rowNormQuantile(RowSource, double, double[],
     * PrivacyParams, Neighbouring)}, for a histogram summed elsewhere (across a cluster's partitions).
     *
     * @param histogram    the histogram over {@code grid}, the row count last
     * @param q            the quantile, in [0, 1]
     * @param grid         the public grid, ascending
     * @param budget       the ε to spend
     * @param neighbouring the relation the guarantee is stated for
     * @return the released grid value, q and the guarantee
     */
    public Result rowNormQuantile(long[] histogram, double q, double[] grid, PrivacyParams budget,
                                  Neighbouring neighbouring) {
        checkQuantile(q);
        checkGrid(grid);
        if (histogram.length != grid.length + 1) {
            throw new IllegalArgumentException("a histogram over " + grid.length + " grid points has "
                    + (grid.length + 1) + " entries, got " + histogram.length);
        }
        double v = grid[select(cumulative(histogram), q, budget.epsilon())];
        return new Result(v, q, guarantee("row L2-norm " + q + "-quantile", budget.epsilon(), neighbouring, 1));
    }

    /**
     * For each column j and each q in {@code quantiles}, the q-quantile of column j over {@code grid},
     * from one pass; ε is split evenly over the d·|quantiles| releases (basic composition).
     *
     * @param rows         the rows
     * @param quantiles    the quantiles, each in [0, 1]
     * @param grid         the public candidate values, ascending
     * @param budget       the ε to spend in all
     * @param neighbouring the relation the guarantee is stated for
     * @return [column][quantile index] grid values, and one guarantee for all of them
     */
    public ColumnQuantiles columnQuantiles(RowSource rows, double[] quantiles, double[] grid, PrivacyParams budget,
                                           Neighbouring neighbouring) {
        for (double q : quantiles) {
            checkQuantile(q);
        }
        checkGrid(grid);
        int d = rows.dimension();
        RowStatistic[] columns = new RowStatistic[d];
        for (int j = 0; j < d; j++) {
            int col = j;
            columns[j] = r -> r[col];
        }
        long[][] counts = histogram(rows, columns, grid);
        for (int j = 0; j < d; j++) {
            counts[j] = cumulative(counts[j]);
        }
        int releases = d * quantiles.length;
        double each = budget.epsilon() / releases;
        double[][] out = new double[d][quantiles.length];
        for (int j = 0; j < d; j++) {
            for (int i = 0; i < quantiles.length; i++) {
                out[j][i] = grid[select(counts[j], quantiles[i], each)];
            }
        }
        return new ColumnQuantiles(out, guarantee(releases + " column quantiles", budget.epsilon(), neighbouring,
                releases));
    }

    /** Per-column quantiles and their joint guarantee. */
    public record ColumnQuantiles(double[][] values, PrivacyGuarantee guarantee) {
    }

    /**
     * One exponential-mechanism draw: counts[i] = #values ≤ grid[i] (the last entry of counts is n, the
     * number of values, one past the grid).
     */
    int select(long[] counts, double q, double epsilon) {
        int m = counts.length - 1;
        long n = counts[m];
        double[] utility = new double[m];
        for (int i = 0; i < m; i++) {
            utility[i] = -Math.abs(counts[i] - q * n) * utilityMultiplier;
        }
        return ExponentialMechanism.sample(utility, 1.0, epsilon, random);
    }

    /** A scalar of one row (shared with {@link AdaptiveQuantile}). */
    interface RowStatistic {
        double of(double[] row);
    }

    /**
     * For each statistic f_s: counts[s][i] = #rows with f_s(row) in (grid[i − 1], grid[i]] (i &lt; m), and
     * counts[s][m] = n; NaN (which {@link Arrays#binarySearch(double[], double)} orders last) and values above
     * the last point are counted in n only. Shared with {@link AdaptiveQuantile}.
     */
    static long[][] histogram(RowSource rows, RowStatistic[] stats, double[] grid) {
        int m = grid.length;
        long[][] counts = new long[stats.length][m + 1];
        double[] row = new double[rows.dimension()];
        try (RowCursor c = rows.open()) {
            while (c.next(row)) {
                for (int s = 0; s < stats.length; s++) {
                    double v = stats[s].of(row);
                    int at = Arrays.binarySearch(grid, v);
                    int first = at >= 0 ? at : -at - 1; // first grid index with grid[i] >= v
                    if (first < m) {
                        counts[s][first]++;
                    }
                    counts[s][m]++;
                }
            }
        }
        return counts;
    }

    /** counts[i] = #values ≤ grid[i] from a histogram h (cells summed up to i), with counts[m] = h[m] = n. */
    static long[] cumulative(long[] h) {
        long[] c = h.clone();
        for (int i = 1; i < c.length - 1; i++) {
            c[i] += c[i - 1];
        }
        return c;
    }

    private static PrivacyGuarantee guarantee(String what, double epsilon, Neighbouring neighbouring, int releases) {
        return new PrivacyGuarantee("private quantile (" + what + ")", PrivacyParams.pure(epsilon), neighbouring,
                "one row (any values)", "utility -|#{v <= t} - q n| has sensitivity 1 under add/remove and replace"
                        + (releases > 1 ? "; " + releases + " quantiles at epsilon/" + releases + " each, basic "
                        + "composition" : ""), REFERENCE);
    }

    private static void checkQuantile(double q) {
        if (!(q > 0 && q < 1)) {
            throw new IllegalArgumentException("the quantile must be in (0, 1), got " + q + "; e.g. 0.95");
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
