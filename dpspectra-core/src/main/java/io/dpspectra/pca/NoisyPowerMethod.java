package io.dpspectra.pca;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.RowGramOperator;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricOperator;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.result.PrivateSubspace;
import java.util.Arrays;
import java.util.Objects;

/**
 * The noisy power method (NPM): an orthonormal basis X_L (d × p) of the approximate top-p invariant
 * subspace of a symmetric A, computed by L steps Y_ℓ = A·X_{ℓ−1} + G_ℓ, X_ℓ = QR(Y_ℓ) with a pluggable
 * {@link Perturbation} G_ℓ; the top-k (k ≤ p) of X_L are the components.
 *
 * <p>Privacy: none by itself; it is the meta-algorithm that {@link StreamingPowerMethod} and
 * {@link PrivatePowerMethod} instantiate. Its output reveals A.
 *
 * <p>Block size: p ≥ k is supported, and helps. Cor. 1.1 asks 5‖UᵀG_ℓ‖ ≤ (σ_k − σ_{k+1})(√p − √(k−1))/(τ√d):
 * with p = k the right side carries √k − √(k−1) ≈ 1/(2√k), with p = 2k it is of order √k, so oversampling
 * (the paper's p = k + Ω(k)) tolerates about k times more noise in the U-direction.
 *
 * <p>Convergence (Cor. 1.1): if 5‖G_ℓ‖ ≤ ε(σ_k − σ_{k+1}) with ε &lt; 1/2 and the condition above hold
 * in every step, then after L = O(σ_k/(σ_k − σ_{k+1})·log(dτ/ε)) steps ‖(I − X_LX_Lᵀ)U‖ ≤ ε.
 *
 * <p>Reference: papers/noisy-power-method.txt, Fig. 1, Cor. 1.1, Thm 2.4; spec
 * stochastic-and-power-methods.md §3.1.
 *
 * <p>Cost: L operator products on p columns (O(L·nnz·p) sparse, O(L·d²p) dense, L passes over rows) plus
 * O(L·d·p²) for the QR factorisations; memory O(d·p) beyond A.
 */
public final class NoisyPowerMethod {
    /** Default L: no paper default exists (Cor. 1.1 needs L = O(σ_k/(σ_k − σ_{k+1})·log(dτ/ε))). */
    public static final int DEFAULT_ITERATIONS = 20;

    private final int k;
    private final int p;
    private final int iterations;
    private final Perturbation perturbation;
    private final Matrix initialBasis;
    private final RandomSource random;
    private final Matrix truth;
    private final boolean trace;

    private NoisyPowerMethod(Builder b) {
        this.k = b.k;
        this.p = b.blockSizeOrK();
        this.iterations = b.iterations;
        this.perturbation = b.perturbation;
        this.initialBasis = b.initialBasis;
        this.random = b.random;
        this.truth = b.truth;
        this.trace = b.trace;
    }

    /**
     * A builder with the defaults its setters state.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. */
    public static final class Builder extends PowerMethodOptions<Builder> {
        private Perturbation perturbation = Perturbation.none();
        private Matrix initialBasis;
        private boolean trace;

        @Override
        Builder self() {
            return this;
        }

        /**
         * G_ℓ (default {@link Perturbation#none()}).
         *
         * @param perturbation G_ℓ
         * @return this builder
         */
        public Builder perturbation(Perturbation perturbation) {
            this.perturbation = Objects.requireNonNull(perturbation, "perturbation");
            return this;
        }

        /**
         * X_0 (d × p; orthonormalised); default a uniformly random orthonormal basis.
         *
         * @param x0 X_0
         * @return this builder
         */
        public Builder initialBasis(Matrix x0) {
            this.initialBasis = Objects.requireNonNull(x0, "initialBasis").copy();
            return this;
        }

        /**
         * Records the per-iteration trace (‖X_{ℓ−1}‖∞) even without a truth.
         *
         * @param trace whether to record the trace
         * @return this builder
         */
        public Builder trace(boolean trace) {
            this.trace = trace;
            return this;
        }

        /**
         * The method with this configuration.
         *
         * @return a new method
         */
        public NoisyPowerMethod build() {
            checkShared();
            return new NoisyPowerMethod(this);
        }
    }

    /**
     * Runs Fig. 1 on {@code a}.
     *
     * @param a A, d × d symmetric
     * @return X_L, its ordered top-k and the trace (no guarantee)
     */
    public PowerMethodResult run(SymmetricOperator a) {
        int d = a.dimension();
        PowerIterations.checkShape(d, k, p);
        Matrix x0 = PowerIterations.checkInitialBasis(initialBasis, d, p);
        return PowerIterations.run(d, p, k, iterations, x0, (l, x) -> {
            Matrix y = a.times(x);
            Matrix g = perturbation.perturbation(l, x, random);
            if (g != null) {
                if (g.rows() != d || g.cols() != p) {
                    throw new IllegalArgumentException("perturbation of step " + l + " is " + g.rows() + " x "
                            + g.cols() + ", expected " + d + " x " + p);
                }
                double[] yd = y.data();
                double[] gd = g.data();
                for (int i = 0; i < yd.length; i++) {
                    yd[i] += gd[i];
                }
            }
            return y;
        }, random, truth, trace, null);
    }

    /**
     * Runs Fig. 1 on A = XᵀX of {@code rows}, applied implicitly (one pass per iteration). NOT private:
     * the result carries no guarantee.
     *
     * @param rows the rows
     * @return the top-k basis (no guarantee)
     */
    public PrivateSubspace fit(RowSource rows) {
        RowGramOperator a = RowGramOperator.of(rows);
        PowerMethodResult r = run(a);
        Diagnostics diag = Diagnostics.builder()
                .put("private", false)
                .put("warning", "the noisy power method with a test perturbation is NOT differentially private")
                .put("iterations", iterations)
                .put("blockSize", p)
                .put("passes", a.passes())
                .put("rows", a.lastRowCount())
                .put("singularValuesOfLastProduct", Arrays.copyOf(r.singularValues(), k))
                .build();
        return new PrivateSubspace("noisy-power", r.components(), null, null, diag);
    }

    /**
     * The number of passes over rows that {@link #fit} makes: L.
     *
     * @return L
     */
    public int passes() {
        return iterations;
    }
}
