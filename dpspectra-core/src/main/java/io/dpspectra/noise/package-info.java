/**
 * Where every privacy noise comes from: Laplace and Gaussian noise rounded to a power-of-two granularity and
 * sampled exactly from discrete distributions ({@link io.dpspectra.noise.LaplaceNoise},
 * {@link io.dpspectra.noise.GaussianNoise}), the exponential mechanism, stable histograms and the Bingham
 * sampler, all drawing from a {@link io.dpspectra.noise.RandomSource}: secure by default, seeded only for
 * reproducible experiments and tests.
 */
package io.dpspectra.noise;
