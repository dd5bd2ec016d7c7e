package io.dpspectra.pca;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.privacy.PrivacyGuarantee;
import java.util.List;
import java.util.Optional;

/**
 * The output of a power method of the noisy-power-method family: the final orthonormal iterate X_L
 * (d × p), its top-k columns ordered by the singular values of the last product, and an optional
 * per-iteration trace.
 *
 * <p>Ordering (spec stochastic-and-power-methods.md §3.3, post-processing [choice]): with
 * Y_L = X_L R_L the last QR factorisation and R_L = W S Zᵀ an SVD, {@link #components()} is the first k
 * columns of X_L W, i.e. the top-k left singular vectors of Y_L; {@link #singularValues()} is S. Both
 * are functions of the released Y_L only.
 *
 * @param basis          X_L, d × p with orthonormal columns
 * @param components     d × k, the top-k of X_L (orthonormal)
 * @param singularValues the p singular values of R_L, descending
 * @param trace          one entry per iteration ℓ = 1..L (empty unless requested)
 * @param guarantee      the privacy guarantee, or null for a non-private method
 * @param previousBasis  X_{L−1} (d × p), the iterate the last product was taken of (X_0 when L = 1)
 * @param lastProduct    Y_L = A·X_{L−1} + G_L (d × p), the last released noisy product
 */
public record PowerMethodResult(Matrix basis, Matrix components, double[] singularValues, List<Iteration> trace,
                                PrivacyGuarantee guarantee, Matrix previousBasis, Matrix lastProduct) {

    /**
     * Copies every matrix, array and list, so that the record is immutable.
     *
     * @param basis          X_L
     * @param components     the top-k of X_L
     * @param singularValues the singular values of R_L
     * @param trace          the per-iteration trace
     * @param guarantee      the guarantee, or null
     * @param previousBasis  X_{L−1}
     * @param lastProduct    Y_L
     */
    public PowerMethodResult {
        basis = basis.copy();
        previousBasis = previousBasis.copy();
        lastProduct = lastProduct.copy();
        components = components.copy();
        singularValues = singularValues.clone();
        trace = List.copyOf(trace);
    }

    /**
     * X_L, d × p with orthonormal columns.
     *
     * @return a copy of X_L
     */
    @Override
    public Matrix basis() {
        return basis.copy();
    }

    /**
     * The top-k of X_L, d × k (orthonormal).
     *
     * @return a copy of the components
     */
    @Override
    public Matrix components() {
        return components.copy();
    }

    /**
     * The p singular values of R_L, descending.
     *
     * @return a copy of them
     */
    @Override
    public double[] singularValues() {
        return singularValues.clone();
    }

    /**
     * X_{L−1}, the iterate the last product was taken of.
     *
     * @return a copy of X_{L−1}
     */
    @Override
    public Matrix previousBasis() {
        return previousBasis.copy();
    }

    /**
     * Y_L, the last released noisy product.
     *
     * @return a copy of Y_L
     */
    @Override
    public Matrix lastProduct() {
        return lastProduct.copy();
    }

    /**
     * The privacy guarantee.
     *
     * @return the guarantee, or empty for a non-private method
     */
    public Optional<PrivacyGuarantee> privacyGuarantee() {
        return Optional.ofNullable(guarantee);
    }

    /**
     * One iteration ℓ of the trace.
     *
     * @param iteration        ℓ (1-based)
     * @param previousMaxAbs   ‖X_{ℓ−1}‖∞, the largest |entry| of the previous iterate (it scales the
     *                         entry-level noise of the private power method)
     * @param noiseScale       the per-entry noise scale used at this step (σ·‖X_{ℓ−1}‖∞ for entry-level
     *                         PPM), NaN when the method adds no calibrated noise
     * @param principalAngles  the k principal angles θ_1 ≤ … ≤ θ_k between U and X_ℓ in radians (Def. 2.1),
     *                         empty without a truth
     * @param sinThetaK        ‖(I − X_ℓX_ℓᵀ)U‖ = sin θ_k(U, X_ℓ) for the truth U given to the builder, NaN
     *                         without one
     * @param tanThetaK        tan θ_k(U, X_ℓ), NaN without a truth (∞ when X_ℓ misses a direction of U)
     */
    public record Iteration(int iteration, double previousMaxAbs, double noiseScale, double[] principalAngles,
                            double sinThetaK, double tanThetaK) {
        /**
         * Copies the angles, so that the record is immutable.
         *
         * @param iteration       ℓ
         * @param previousMaxAbs  ‖X_{ℓ−1}‖∞
         * @param noiseScale      the per-entry noise scale, or NaN
         * @param principalAngles the k principal angles (copied)
         * @param sinThetaK       sin θ_k, or NaN
         * @param tanThetaK       tan θ_k, or NaN
         */
        public Iteration {
            principalAngles = principalAngles.clone();
        }

        /**
         * The k principal angles between U and X_ℓ, ascending; empty without a truth.
         *
         * @return a copy of the angles
         */
        @Override
        public double[] principalAngles() {
            return principalAngles.clone();
        }
    }
}
