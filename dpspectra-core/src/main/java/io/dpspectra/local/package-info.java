/**
 * PCA under local differential privacy (Wang &amp; Xu): each client privatises its own record into a report
 * ({@link io.dpspectra.local.LocalCovarianceRandomizer}), the server checks and averages the reports
 * ({@link io.dpspectra.local.LocalPcaAggregator}) and computes a (sparse) principal subspace from the average,
 * which is post-processing. Reports are stored as JSON lines or checksummed binary records.
 */
package io.dpspectra.local;
