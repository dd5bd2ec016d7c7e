/**
 * Privacy-loss-distribution accounting: the exact privacy curves of the mechanisms this library runs (Gaussian,
 * Laplace, discrete Laplace, the (ε, δ) point, the Poisson-subsampled Gaussian), discretised pessimistically
 * ({@link io.dpspectra.privacy.pld.PrivacyLossDistribution}) and composed by convolution with a bounded
 * floating-point error; {@link io.dpspectra.privacy.pld.ProfileAccounting} composes the profiles a PLD ledger
 * records, {@link io.dpspectra.privacy.pld.PldCalibration} and {@link io.dpspectra.privacy.pld.GaussianPrivacy}
 * calibrate noise against it. Every approximation errs on the safe side (δ is never underestimated).
 */
package io.dpspectra.privacy.pld;
