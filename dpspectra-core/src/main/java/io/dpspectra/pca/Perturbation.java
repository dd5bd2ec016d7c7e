package io.dpspectra.pca;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import java.util.Objects;

/**
 * The perturbation G_ℓ (d × p) that the noisy power method adds to A·X_{ℓ−1} in step ℓ: the "possibly
 * adversarially and adaptively chosen" noise of papers/noisy-power-method.txt Fig. 1.
 *
 * <p>A perturbation here models noise for analysis and experiments; it is NOT a privacy mechanism (the
 * private power method draws its noise from {@code io.dpspectra.noise}, see {@link PrivatePowerMethod}).
 * Implement it with a lambda for a custom (adaptive, adversarial) perturbation.
 */
@FunctionalInterface
public interface Perturbation {

    /**
     * G_ℓ for step {@code iteration} (1-based) given X_{ℓ−1} (d × p, orthonormal), or null for none. Must
     * not modify {@code previous}.
     *
     * @param iteration ℓ
     * @param previous  X_{ℓ−1}
     * @param random    the randomness
     * @return G_ℓ (d × p), or null
     */
    Matrix perturbation(int iteration, Matrix previous, RandomSource random);

    /**
     * No perturbation: the exact (subspace) power method.
     *
     * @return the perturbation
     */
    static Perturbation none() {
        return (iteration, previous, random) -> null;
    }

    /**
     * I.i.d. N(0, σ²) entries (non-private; drawn with {@link RandomSource#standardNormal()}). Then
     * ‖G‖ ≈ σ(√d + √p) and ‖UᵀG‖ ≈ σ(√k + √p) (Lemma A.2 of the paper).
     *
     * @param sigma σ, ≥ 0
     * @return the perturbation
     */
    static Perturbation gaussian(double sigma) {
        if (!(sigma >= 0) || !Double.isFinite(sigma)) {
            throw new IllegalArgumentException("perturbation sigma must be >= 0 and finite, got " + sigma);
        }
        return (iteration, previous, random) -> {
            if (sigma == 0) {
                return null;
            }
            Matrix g = new Matrix(previous.rows(), previous.cols());
            double[] a = g.data();
            for (int i = 0; i < a.length; i++) {
                a[i] = sigma * random.standardNormal();
            }
            return g;
        };
    }

    /**
     * An adversarial, non-random perturbation: G_ℓ = magnitude · V for a fixed d × p matrix V with
     * orthonormal columns, so ‖G_ℓ‖ = magnitude in every step. Pointing V at a wrong subspace pulls the
     * iterates towards it; Cor. 1.1 says this cannot stop convergence to within ε as long as
     * 5·magnitude ≤ ε(σ_k − σ_{k+1}) (and the U-component condition holds).
     *
     * @param direction V, d × p with orthonormal columns
     * @param magnitude ‖G_ℓ‖, ≥ 0
     * @return the perturbation
     */
    static Perturbation fixed(Matrix direction, double magnitude) {
        Objects.requireNonNull(direction, "direction");
        if (!(magnitude >= 0) || !Double.isFinite(magnitude)) {
            throw new IllegalArgumentException("perturbation magnitude must be >= 0 and finite, got " + magnitude);
        }
        Matrix g = direction.scaled(magnitude);
        return (iteration, previous, random) -> {
            if (previous.rows() != g.rows() || previous.cols() != g.cols()) {
                throw new IllegalArgumentException("fixed perturbation is " + g.rows() + " x " + g.cols()
                        + " but the iterate is " + previous.rows() + " x " + previous.cols());
            }
            return g.copy();
        };
    }
}
