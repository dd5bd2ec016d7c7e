package io.dpspectra.spark;

import io.dpspectra.release.StatisticSource;

/**
 * A {@link StatisticSource} whose data lie in a Spark cluster: rows ({@link SparkStatistics}) or rows grouped by a
 * person's column ({@link SparkUnitStatistics}). Closing it releases what its passes persisted.
 */
interface SparkSource extends StatisticSource, AutoCloseable {
    /**
     * The number of contributions (rows, or persons): the first pass, unless an earlier one counted them.
     *
     * @return n
     */
    long rows();

    @Override
    void close();
}
