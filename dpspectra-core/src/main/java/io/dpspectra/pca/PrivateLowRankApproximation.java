package io.dpspectra.pca;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricOperator;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Objects;

/**
 * A differentially private rank-2k approximation B = X_L·Y_{L+1}ᵀ of a symmetric matrix A, kept in factored
 * form (two d × 2k matrices, never densified): the private power method with p = 2k run for L + 1 noisy
 * products, X_L its iterate after L steps and Y_{L+1} = A·X_L + G_{L+1} the last noisy product.
 *
 * <p>Privacy: exactly that of {@link PrivatePowerMethod} with p = 2k and L + 1 products — σ is calibrated
 * with L + 1 in place of L (spec §8 #33: Cor. 4.3 runs L + 1 products while Fig. 3's σ counts L). Gaussian
 * entry-level (default; Cor. 4.3) or spectral (Cor. 4.6) noise gives (ε, δ); Laplace spectral noise gives
 * (ε, 0) (Cor. 4.7, whose statement says (ε, δ) by mistake; spec §8 #31). B is post-processing.
 *
 * <p>Utility (Cor. 4.3/4.6): with γ = 1 − σ_{k+1}/σ_k and L = O(γ⁻¹ log d), with probability 9/10,
 * ‖A − B‖ ≤ σ_{k+1} + Õ(σ_1·√((k/γ)·d·log d·log(1/δ)) / (ε(σ_k − σ_{k+1}))).
 *
 * <p>Reference: papers/noisy-power-method.txt §4.1, Cor. 4.3, 4.6, 4.7; spec
 * stochastic-and-power-methods.md §3.4 and §8 #31, #33.
 *
 * <p>Cost: as {@link PrivatePowerMethod} with p = 2k and L + 1 products; memory O(d·k).
 */
public final class PrivateLowRankApproximation {
    private final int k;
    private final int iterations;
    private final PpmNoise noise;
    private final double sensitivityScale;
    private final PrivatePowerMethod.Calibration calibration;
    private final RandomSource random;

    private PrivateLowRankApproximation(Builder b) {
        this.calibration = b.calibration;
        this.k = b.k;
        this.iterations = b.iterations;
        this.noise = b.noise;
        this.sensitivityScale = b.sensitivityScale;
        this.random = b.random;
    }

    /**
     * A builder; {@code rank} is required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** The factored release B = left · rightᵀ (both d × 2k). */
    public record Result(Matrix left, Matrix right, PrivacyGuarantee guarantee) {
        /**
         * Copies the factors, so that the record is immutable.
         *
         * @param left      the left factor, d × 2k
         * @param right     the right factor, d × 2k
         * @param guarantee what the release satisfies
         */
        public Result {
            left = left.copy();
            right = right.copy();
        }

        /**
         * The left factor, d × 2k.
         *
         * @return a copy of it
         */
        @Override
        public Matrix left() {
            return left.copy();
        }

        /**
         * The right factor, d × 2k.
         *
         * @return a copy of it
         */
        @Override
        public Matrix right() {
            return right.copy();
        }

        /**
         * B·v = left·(rightᵀ·v), without forming B. Not modified: v.
         *
         * @param v a vector of length d
         * @return B·v
         */
        public double[] times(double[] v) {
            return left.times(right.transposeTimes(v));
        }

        /**
         * The dense d × d matrix B (for small d only: tests, diagnostics).
         *
         * @return a new d × d matrix
         */
        public Matrix toDense() {
            return left.times(right.transpose());
        }
    }

    /** Configuration. */
    public static final class Builder {
        private int k = -1;
        private int iterations = NoisyPowerMethod.DEFAULT_ITERATIONS;
        private PpmNoise noise = PpmNoise.ENTRY_LEVEL_GAUSSIAN;
        private double sensitivityScale = 1.0;
        private PrivatePowerMethod.Calibration calibration = PrivatePowerMethod.Calibration.EXACT;
        private RandomSource random;

        /**
         * How σ is set for (ε, δ) (default exact composition; {@code PAPER} for Fig. 3's σ with L + 1 products).
         *
         * @param calibration the calibration
         * @return this builder
         */
        public Builder calibration(PrivatePowerMethod.Calibration calibration) {
            this.calibration = java.util.Objects.requireNonNull(calibration, "calibration");
            return this;
        }

        /**
         * The target rank k ≥ 1 (the release has rank ≤ 2k; requires 2k ≤ d).
         *
         * @param k k
         * @return this builder
         */
        public Builder rank(int k) {
            this.k = DpPreconditions.checkAtLeast("rank", k, 1);
            return this;
        }

        /**
         * L ≥ 1: the release uses L + 1 noisy products (default {@value NoisyPowerMethod#DEFAULT_ITERATIONS}).
         *
         * @param iterations L
         * @return this builder
         */
        public Builder iterations(int iterations) {
            this.iterations = DpPreconditions.checkAtLeast("iterations", iterations, 1);
            return this;
        }

        /**
         * The noise variant and relation (default {@link PpmNoise#ENTRY_LEVEL_GAUSSIAN}).
         *
         * @param noise the noise variant
         * @return this builder
         */
        public Builder noise(PpmNoise noise) {
            this.noise = Objects.requireNonNull(noise, "noise");
            return this;
        }

        /**
         * s, the size of one neighbouring change (default 1).
         *
         * @param s s, &gt; 0
         * @return this builder
         */
        public Builder sensitivityScale(double s) {
            this.sensitivityScale = DpPreconditions.checkSensitivity("sensitivityScale", s);
            return this;
        }

        /**
         * Default {@link RandomSource#secure()}.
         *
         * @param random the randomness of the noise
         * @return this builder
         */
        public Builder randomSource(RandomSource random) {
            this.random = Objects.requireNonNull(random, "randomSource");
            return this;
        }

        /**
         * The mechanism with this configuration.
         *
         * @return a new mechanism
         */
        public PrivateLowRankApproximation build() {
            if (k < 0) {
                throw new IllegalArgumentException("rank k was not set; call rank(k) with 1 <= 2k <= d");
            }
            if (random == null) {
                random = RandomSource.secure();
            }
            return new PrivateLowRankApproximation(this);
        }
    }

    /**
     * Releases B for {@code a}, spending {@code budget} (σ calibrated for L + 1 products).
     *
     * @param a      A, d × d symmetric
     * @param budget the (ε, δ) to spend
     * @return B with its guarantee
     */
    public Result release(SymmetricOperator a, PrivacyParams budget) {
        if (2 * k > a.dimension()) {
            throw new IllegalArgumentException("rank k = " + k + " needs 2k <= d = " + a.dimension()
                    + " (the private power method runs with p = 2k)");
        }
        PowerMethodResult r = PrivatePowerMethod.builder().components(k).blockSize(2 * k).iterations(iterations + 1)
                .noise(noise).sensitivityScale(sensitivityScale).calibration(calibration).randomSource(random).build()
                .iterate(a, budget);
        return new Result(r.previousBasis(), r.lastProduct(), r.guarantee());
    }
}
