/**
 * Rows and what is done to them before a private release: row sources that need not fit in memory
 * ({@link io.dpspectra.data.RowSource}: CSV in {@link io.dpspectra.data.csv}, binary, in memory,
 * schema-mapped), declared norm bounds and clipping
 * ({@link io.dpspectra.data.DataBounds}, {@link io.dpspectra.data.Clipping}), public schemas, and the private
 * preprocessing statistics (mean, norm quantile, trace) with the exact sufficient statistics they and the
 * algorithms read (XᵀX, bounded sums, norm histograms), which distributed readers compute the same way.
 */
package io.dpspectra.data;
