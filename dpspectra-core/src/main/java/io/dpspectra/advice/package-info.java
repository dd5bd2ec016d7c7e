/**
 * What a release can be expected to show, said before anything is spent: {@link io.dpspectra.advice.ReleaseAdvisor}
 * predicts from public facts alone ({@link io.dpspectra.advice.ReleaseFacts}: n, d, k, ε, δ, the row bound) each
 * algorithm's noise level in XᵀX units and the variance share a direction needs to be recovered, from the
 * mechanisms' own calibrations; {@link io.dpspectra.advice.SpectrumCheck} is the curator's check on the exact rows
 * (NOT private: for the data's owner, before spending). The release chain runs the public check
 * ({@link io.dpspectra.release.Usefulness}); {@code dpspectra advise} prints the advice.
 */
package io.dpspectra.advice;
