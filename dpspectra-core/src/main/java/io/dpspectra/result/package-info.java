/**
 * The results every estimator family returns: a private subspace ({@link io.dpspectra.result.PrivateSubspace},
 * from the subspace, robust and local estimators, and from the top k of a covariance release), a private
 * second-moment matrix ({@link io.dpspectra.result.PrivateCovariance}) and the ridge regression computed from one
 * ({@link io.dpspectra.result.CovarianceRidge}, post-processing). Each carries its
 * {@link io.dpspectra.privacy.PrivacyGuarantee}, and the run's non-private facts in a
 * {@link io.dpspectra.Diagnostics}. This package depends on no estimator package, so every estimator package
 * can depend on it.
 */
package io.dpspectra.result;
