/**
 * Private principal subspaces ({@link io.dpspectra.pca.SubspaceEstimator} and its result
 * {@link io.dpspectra.result.PrivateSubspace}): DP-Gauss-1 and DP-Gauss-2 (Analyze Gauss), the noisy and private
 * power methods (Hardt &amp; Price) and the private low-rank approximation, streaming power method, and the
 * Oja-type stochastic methods of the k-DP-PCA paper (DP-Oja, k-DP-Ojas, k-DP-PCA with its adaptive noise) on
 * a generic deflation driver. Each class's javadoc states its privacy unit, sensitivity, budget and paper.
 */
package io.dpspectra.pca;
