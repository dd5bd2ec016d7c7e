package io.dpspectra.release;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.ClippedRows;
import java.util.List;

/**
 * The seam between where the data lie and the release: a source of the EXACT statistics that the private
 * preprocessing and the estimator read, computed where the data are (a local file here, the partitions of a
 * cluster there), so that every noise is drawn once, by core's mechanisms, on the machine that makes the
 * release. Nothing a source returns is private by itself; the release privatises what it publishes.
 *
 * <p>The statistics are sums over contributions, one per {@linkplain #unit() privacy unit} (a row), each
 * bounded before it is added, and the summaries ({@link NormHistogram}, {@link BoundedSum}, and XᵀX behind
 * {@link io.dpspectra.data.GramStatistic}) merge across disjoint parts of the data, so that a distributed
 * source computes one per part and merges them in a fixed order. In the order a release asks for them:
 * <ol>
 *   <li>{@link #normHistogram} for a private row-norm bound;</li>
 *   <li>{@link #boundedSum} for a private mean;</li>
 *   <li>{@link #bounded} for the estimator: the bounded rows themselves, or their sufficient statistic
 *       (explicit XᵀX, products Xᵀ(XW), rows streamed in a fixed order) as a
 *       {@link io.dpspectra.data.GramStatistic}.</li>
 * </ol>
 *
 * <p>A source must behave the same on neighbouring inputs apart from its statistics: an error that depends
 * on one row must be raised before the first statistic a release asks for, or never.
 */
public interface StatisticSource {
    /**
     * The width d of every contribution.
     *
     * @return d
     */
    int dimension();

    /**
     * The names of the d features, for the release.
     *
     * @return d names
     */
    List<String> featureNames();

    /**
     * The data's name in messages (a file path, "column 'features'").
     *
     * @return the description
     */
    String describe();

    /**
     * What one contribution is. Default: one row. A source whose unit is a person ({@link UnitStatistics}) bounds
     * each person's whole contribution in every statistic it returns (one value, one bounded vector, rows clipped
     * to B/√M), so that the release's calibration to B holds per person.
     *
     * @return the privacy unit
     */
    default PrivacyUnit unit() {
        return PrivacyUnit.ROW;
    }

    /**
     * The exact number of contributions, for planning a release before it spends (an automatic share of a
     * private bound, the usefulness check): public under replace-one neighbouring, where neighbours have the
     * same n; under add/remove it is a fact about the data, for its curator only. Default: the total of a norm
     * histogram over a two-point grid (one pass, where the data lie); a source that knows n may return it.
     *
     * @return n, at least 0
     */
    default long rowCount() {
        return normHistogram(new double[] {1, 2}).total();
    }

    /**
     * The exact histogram of the contributions' L2 norms over {@code grid}, as they are read (unbounded).
     *
     * @param grid the public grid, ascending
     * @return the histogram
     */
    NormHistogram normHistogram(double[] grid);

    /**
     * The exact sum and number of the contributions bounded by {@code bounding} (without a mean).
     *
     * @param bounding the bound and policy
     * @return the sum
     */
    BoundedSum boundedSum(Bounding bounding);

    /**
     * What the estimator reads: the contributions bounded by {@code bounding} (see {@link Bounding#apply} for
     * rows as read, {@link Bounding#declare} for a statistic bounded where the rows lie), declaring the final
     * bound.
     *
     * @param bounding the whole chain: bound, policy, released mean, final bound
     * @return the bounded rows, or their statistic
     */
    ClippedRows bounded(Bounding bounding);

    /**
     * Facts the source learned from the data WITHOUT privacy (rows clipped in the last pass, cells clamped by
     * a schema), for the data's curator; never part of a release. Default: none.
     *
     * @return the facts
     */
    default Diagnostics curatorFacts() {
        return Diagnostics.empty();
    }
}
