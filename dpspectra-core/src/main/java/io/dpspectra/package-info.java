/**
 * dpspectra: differentially private spectral analysis. The packages below hold the library; every release
 * states its guarantee ({@link io.dpspectra.privacy.PrivacyGuarantee}) and carries non-private facts about the
 * run separately ({@link io.dpspectra.Diagnostics}).
 *
 * <ul>
 *   <li>{@link io.dpspectra.pca}: private principal subspaces (DP-Gauss, power methods, Oja-type streaming,
 *       deflation);</li>
 *   <li>{@link io.dpspectra.covariance}: private second-moment (covariance) releases;</li>
 *   <li>{@link io.dpspectra.result}: the results every estimator returns (private subspace, private covariance
 *       and the ridge regression computed from it);</li>
 *   <li>{@link io.dpspectra.robust}: outlier-robust private PCA (Grassmannian descent, REAPER);</li>
 *   <li>{@link io.dpspectra.local}: PCA under local differential privacy (client reports, server
 *       aggregation);</li>
 *   <li>{@link io.dpspectra.data}: row sources, bounds and clipping, schemas, private preprocessing
 *       statistics;</li>
 *   <li>{@link io.dpspectra.privacy} and {@link io.dpspectra.noise}: budgets, accounting and composition;
 *       floating-point-safe noise from secure randomness;</li>
 *   <li>{@link io.dpspectra.linalg}: the dense and sparse linear algebra (BLAS/LAPACK through netlib);</li>
 *   <li>{@link io.dpspectra.metrics}, {@link io.dpspectra.synthetic}, {@link io.dpspectra.audit}: accuracy
 *       metrics, the papers' synthetic data, and the empirical privacy auditor.</li>
 * </ul>
 */
package io.dpspectra;
