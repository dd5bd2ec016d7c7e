/**
 * Private release of the second moment XᵀX of bounded rows ({@link io.dpspectra.covariance.CovarianceEstimator}):
 * Laplace and Gaussian noise on the matrix, and the pure-ε eigenvector-sampling mechanisms of Amin et al.
 * (IT-U, AD) and Kapralov &amp; Talwar. The release ({@link io.dpspectra.result.PrivateCovariance}) carries its
 * guarantee, and what is computed from it (eigenpairs, ridge regression, an explained-variance spectrum) is
 * post-processing.
 */
package io.dpspectra.covariance;
