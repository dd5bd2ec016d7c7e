/**
 * The synthetic data of the papers' experiments (spiked covariance, Gaussian, haystack, Wang–Xu, Amin et al.'s
 * correlated sphere, stylized POPRES), each with its known truth. Seeded and NOT for private releases: these
 * are test and reproduction inputs.
 */
package io.dpspectra.synthetic;
