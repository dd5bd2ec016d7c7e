package io.dpspectra.release;

import io.dpspectra.data.PrivateBoundedMean;
import io.dpspectra.data.RowSource;
import java.util.Objects;

/**
 * The exact sum of the bounded contributions and their number: the statistic a private mean privatises
 * ({@link PrivateBoundedMean#estimate(PrivateBoundedMean.Sum, double, io.dpspectra.privacy.PrivacyParams)}). A mergeable
 * summary: sums of disjoint parts of the data {@linkplain #merge merge} into the sum of their union (in a
 * fixed order, floating-point addition being order-dependent), so a cluster computes one per partition
 * where the data lie. Not private by itself.
 *
 * @param sum   the sum of the bounded contributions (not copied: do not modify it)
 * @param count their number
 */
public record BoundedSum(double[] sum, long count) {
    /**
     * Checks the fields.
     *
     * @param sum   the sum
     * @param count the number, at least 0
     */
    public BoundedSum {
        Objects.requireNonNull(sum, "sum");
        if (count < 0) {
            throw new IllegalArgumentException("a count is >= 0, got " + count);
        }
    }

    /**
     * The sum of nothing, the identity of {@link #merge}.
     *
     * @param d the width
     * @return zeros
     */
    public static BoundedSum empty(int d) {
        return new BoundedSum(new double[d], 0);
    }

    /**
     * The sum of {@code rows} (already bounded), in their order: one pass.
     *
     * @param rows the bounded rows, each one contribution
     * @return the sum
     */
    public static BoundedSum of(RowSource rows) {
        PrivateBoundedMean.Sum s = PrivateBoundedMean.sum(rows);
        return new BoundedSum(s.sum(), s.rows());
    }

    /**
     * The sum of the union of the two parts (this one's terms first).
     *
     * @param other the sum of a disjoint part, of the same width
     * @return the merged sum
     */
    public BoundedSum merge(BoundedSum other) {
        if (other.sum.length != sum.length) {
            throw new IllegalArgumentException("sums of width " + sum.length + " and " + other.sum.length
                    + " do not merge");
        }
        double[] s = sum.clone();
        for (int j = 0; j < s.length; j++) {
            s[j] += other.sum[j];
        }
        return new BoundedSum(s, count + other.count);
    }

    /**
     * The statistic in the private mean's terms.
     *
     * @return the sum and count as {@link PrivateBoundedMean.Sum}
     */
    public PrivateBoundedMean.Sum asMeanInput() {
        return new PrivateBoundedMean.Sum(sum, count);
    }
}
