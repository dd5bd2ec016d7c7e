package io.dpspectra.release;

import io.dpspectra.data.PrivateQuantile;
import io.dpspectra.data.RowSource;
import java.util.Arrays;
import java.util.Objects;

/**
 * The exact histogram of the contributions' L2 norms over a public grid: the statistic a private row-norm
 * quantile privatises ({@link PrivateQuantile#rowNormQuantile(long[], double, double[],
 * io.dpspectra.privacy.PrivacyParams, io.dpspectra.privacy.Neighbouring)}). {@code counts[i]} counts the norms
 * in (grid[i − 1], grid[i]] (counts[0]: at most grid[0]; norms above the last point fall in no cell) and the
 * last entry is the number of contributions. A mergeable summary: histograms of disjoint parts of the data
 * {@linkplain #merge merge} into the histogram of their union, exactly (they are counts), so a cluster
 * computes one per partition where the data lie. Not private by itself.
 *
 * @param grid   the public grid, ascending (not copied: do not modify it)
 * @param counts grid.length + 1 counts
 */
public record NormHistogram(double[] grid, long[] counts) {
    /**
     * Checks the shape.
     *
     * @param grid   the grid
     * @param counts the counts
     */
    public NormHistogram {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(counts, "counts");
        if (counts.length != grid.length + 1) {
            throw new IllegalArgumentException("a histogram over " + grid.length + " grid points has "
                    + (grid.length + 1) + " counts, got " + counts.length);
        }
    }

    /**
     * The histogram of nothing, the identity of {@link #merge}.
     *
     * @param grid the grid
     * @return zero counts
     */
    public static NormHistogram empty(double[] grid) {
        return new NormHistogram(grid, new long[grid.length + 1]);
    }

    /**
     * The histogram of the rows of {@code rows} (one pass).
     *
     * @param rows the rows, each one contribution
     * @param grid the grid
     * @return the histogram
     */
    public static NormHistogram of(RowSource rows, double[] grid) {
        return new NormHistogram(grid, PrivateQuantile.rowNormHistogram(rows, grid));
    }

    /**
     * The histogram of the union of the two parts of the data.
     *
     * @param other the histogram of a disjoint part, over the same grid
     * @return the summed counts
     */
    public NormHistogram merge(NormHistogram other) {
        if (!Arrays.equals(grid, other.grid)) {
            throw new IllegalArgumentException("histograms over different grids do not merge");
        }
        long[] c = counts.clone();
        for (int i = 0; i < c.length; i++) {
            c[i] += other.counts[i];
        }
        return new NormHistogram(grid, c);
    }

    /**
     * The number of contributions counted.
     *
     * @return the last count
     */
    public long total() {
        return counts[counts.length - 1];
    }
}
