package io.dpspectra.data;

import io.dpspectra.linalg.Vectors;

/**
 * How the rows' squared L2 norms are spread: the number of rows, and the share of Σ‖x‖² that the longest rows
 * hold. NOT private: an exact statistic of the data, for the data's curator (a warning before a release, never
 * a release). A private release must bound each row's influence, so when a few rows hold most of Σ‖x‖², exact
 * PCA of the rows follows them and no private release can: the curator should know that before spending.
 *
 * <p>Cost: one pass; O(1) memory (counts and sums of squares over the 8-cells-per-octave cells of a fixed
 * geometric ladder from 2^−30 to 2^50, so the shares are exact to the cell: 9% in norm).
 */
public final class NormProfile {
    /** The longest rows {@link #fewRowsDominate} looks at: the top 1%. */
    public static final double TOP_FRACTION = 0.01;
    /** ... and the share of Σ‖x‖² beyond which they dominate: half. */
    public static final double DOMINANT_SHARE = 0.5;

    private final long rows;
    private final double[] edges;
    private final long[] counts;
    private final double[] squares;

    private NormProfile(long rows, double[] edges, long[] counts, double[] squares) {
        this.rows = rows;
        this.edges = edges;
        this.counts = counts;
        this.squares = squares;
    }

    /**
     * One pass over {@code rows}.
     *
     * @param rows the rows (a malformed row fails here, as every first pass does)
     * @return the profile
     */
    public static NormProfile of(RowSource rows) {
        double[] edges = AdaptiveQuantile.Ladder.rowNorms(Double.NaN).edges();
        long[] counts = new long[edges.length + 1];
        double[] squares = new double[edges.length + 1];
        double[] row = new double[rows.dimension()];
        long n = 0;
        try (RowCursor c = rows.open()) {
            while (c.next(row)) {
                double norm = Vectors.norm2(row);
                int at = java.util.Arrays.binarySearch(edges, norm);
                int cell = Double.isNaN(norm) ? edges.length : at >= 0 ? at : -at - 1;
                counts[cell]++;
                squares[cell] += norm * norm;
                n++;
            }
        }
        return new NormProfile(n, edges, counts, squares);
    }

    /**
     * The number of rows.
     *
     * @return n
     */
    public long rows() {
        return rows;
    }

    /**
     * The share of Σ‖x‖² held by the longest ⌈fraction·n⌉ rows (the cell at the boundary counted pro rata).
     *
     * @param fraction in (0, 1]
     * @return the share in [0, 1]; 0 when every row is 0
     */
    public double topShare(double fraction) {
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("fraction must be in (0, 1], got " + fraction);
        }
        double total = 0;
        for (double s : squares) {
            total += s;
        }
        if (!(total > 0) || !Double.isFinite(total)) {
            return total > 0 ? 1 : 0;
        }
        double want = Math.ceil(fraction * rows);
        double got = 0;
        double top = 0;
        for (int i = counts.length - 1; i >= 0 && got < want; i--) {
            double take = Math.min(counts[i], want - got);
            top += counts[i] == 0 ? 0 : squares[i] * take / counts[i];
            got += take;
        }
        return Math.min(1, top / total);
    }

    /**
     * True when the longest {@link #TOP_FRACTION} of the rows hold more than {@link #DOMINANT_SHARE} of Σ‖x‖²
     * (for a normal sample they hold a few percent; for rows with a heavy-tailed scale, most of it). False for
     * fewer than 1/{@link #TOP_FRACTION} rows, whose top 1% would be more than 1% of them.
     *
     * @return whether a few rows dominate
     */
    public boolean fewRowsDominate() {
        return rows >= Math.round(1 / TOP_FRACTION) && topShare(TOP_FRACTION) > DOMINANT_SHARE;
    }

    /**
     * The q-quantile of the norms, to the cell: the upper edge of the cell holding the ⌈q·n⌉-th smallest norm.
     *
     * @param q in (0, 1)
     * @return the quantile
     */
    public double quantile(double q) {
        if (!(q > 0 && q < 1)) {
            throw new IllegalArgumentException("q must be in (0, 1), got " + q);
        }
        double want = Math.ceil(q * rows);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= want) {
                return edges[Math.min(i, edges.length - 1)];
            }
        }
        return edges[edges.length - 1];
    }
}
