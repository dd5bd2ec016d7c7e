package io.dpspectra.covariance;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.L2LaplaceNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.CovarianceRidge;
import java.util.Objects;

/**
 * Fits ridge regression of one column on the others and releases the weights plus high-dimensional
 * Laplace noise: output perturbation of Chaudhuri et al. 2011, the regression baseline "P" of Amin et
 * al.'s Appendix C.2.
 *
 * <p>Privacy: pure ε-DP under REPLACE_ROW (n public); unit one row with ‖x‖₂ ≤ β, so |y| ≤ β and
 * ‖x(−t)‖ ≤ β. The C.2 objective ‖X′w − y‖² + α‖w‖² is, divided by 2n, the regularised ERM
 * (1/n)Σ½(wᵀx − y)² + (Λ/2)‖w‖² with Λ = α/n; every minimiser has ‖w*‖ ≤ R = β/√Λ (compare with w = 0),
 * so the squared loss is L = β(Rβ + β)-Lipschitz on that ball, and the minimiser's L2
 * sensitivity is Δ = 2L/(nΛ) = 2L/α (Chaudhuri et al. Cor. 8). Noise density ∝ exp(−ε‖b‖/Δ) in R^{d−1}
 * ({@link L2LaplaceNoise}). Amin et al. call P (ε, δ)-DP; it is in fact ε-DP (spec A-C16).
 *
 * <p>Reference: Chaudhuri, Monteleoni, Sarwate, "Differentially private empirical risk minimization",
 * JMLR 2011, Algorithm 1; papers/dp-covariance-estimation.txt App. C.2; spec robust-local-covariance.md
 * §5.9, A-C16.
 *
 * <p>Cost: one pass and O(nd²) for XᵀX, O(d³) for the solve; memory O(d²).
 */
public final class OutputPerturbationRidge {
    /** The released model, its guarantee and diagnostics. */
    public record Result(CovarianceRidge model, PrivacyGuarantee guarantee, Diagnostics diagnostics) {
    }

    private final int target;
    private final double alpha;
    private final RandomSource random;

    private OutputPerturbationRidge(Builder b) {
        this.target = b.target;
        this.alpha = b.alpha;
        this.random = b.random;
    }

    /**
     * A builder; {@code target} and {@code alpha} are required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. */
    public static final class Builder {
        private int target = -1;
        private double alpha = Double.NaN;
        private RandomSource random;

        /**
         * The column predicted (required, 0-based).
         *
         * @param target the column index, ≥ 0
         * @return this builder
         */
        public Builder target(int target) {
            this.target = DpPreconditions.checkAtLeast("target", target, 0);
            return this;
        }

        /**
         * The regulariser α &gt; 0 of ‖X′w − y‖² + α‖w‖² (required; α = 0 has unbounded sensitivity).
         *
         * @param alpha α, &gt; 0
         * @return this builder
         */
        public Builder alpha(double alpha) {
            this.alpha = DpPreconditions.checkPositive("alpha", alpha);
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
         * The estimator with this configuration.
         *
         * @return a new estimator
         * @throws IllegalArgumentException when {@code target} or {@code alpha} was not set
         */
        public OutputPerturbationRidge build() {
            if (target < 0) {
                throw new IllegalArgumentException("target was not set; call target(column) with a 0-based column");
            }
            if (Double.isNaN(alpha)) {
                throw new IllegalArgumentException("alpha was not set; call alpha(a) with a > 0");
            }
            if (random == null) {
                random = RandomSource.secure();
            }
            return new OutputPerturbationRidge(this);
        }
    }

    /**
     * The L2 sensitivity Δ = 2L/α of the minimiser for rows bounded by β (n rows, n public).
     *
     * @param n    the public number of rows, ≥ 1
     * @param beta β, the L2 bound of every row
     * @return Δ
     */
    public double sensitivity(long n, double beta) {
        double lambda = alpha / n;
        double r = beta / Math.sqrt(lambda);
        double lipschitz = beta * (r * beta + beta);
        return 2 * lipschitz / alpha;
    }

    /**
     * Fits the ridge model of the target column on the others from {@code rows} and adds L2-Laplace noise to its
     * weights, spending ε of {@code budget} (see the class comment).
     *
     * @param rows   the rows; they must declare an L2 bound β
     * @param budget the ε to spend (δ is not used)
     * @return the noisy model with its guarantee and diagnostics
     */
    public Result fit(RowSource rows, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        double beta = SecondMomentSensitivity.rowL2Bound(rows, "OutputPerturbationRidge");
        GramPass pass = GramPass.of(rows);
        return fitFromTrustedGram(pass.gram(), pass.rows(), beta, budget);
    }

    /**
     * As {@link #fit} from C = XᵀX that the caller vouches for (n rows of L2 norm ≤ β). Not modified: gram.
     *
     * @param gram       C = XᵀX, d × d
     * @param n          the number of rows, ≥ 1
     * @param rowL2Bound β, the L2 bound of every row
     * @param budget     the ε to spend (δ is not used)
     * @return the noisy model with its guarantee and diagnostics
     */
    public Result fitFromTrustedGram(Matrix gram, long n, double rowL2Bound, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        DpPreconditions.checkBound("rowL2Bound", rowL2Bound);
        if (n < 1) {
            throw new IllegalArgumentException("OutputPerturbationRidge needs at least one row, got n = " + n);
        }
        if (target >= gram.rows()) {
            throw new IllegalArgumentException("target must be a column index in [0, " + (gram.rows() - 1) + "], got "
                    + target);
        }
        CovarianceRidge exact = CovarianceRidge.fit(gram, target, alpha, CovarianceRidge.Scaling.APPENDIX_C2, 0);
        double delta = sensitivity(n, rowL2Bound);
        double scale = L2LaplaceNoise.scaleFor(delta, budget.epsilon());
        double[] w = exact.weights();
        new L2LaplaceNoise(random).addNoiseInPlace(w, scale);
        CovarianceRidge released = new CovarianceRidge(target, alpha, CovarianceRidge.Scaling.APPENDIX_C2, w,
                exact.features(), exact.droppedDirections());
        PrivacyGuarantee guarantee = new PrivacyGuarantee("Output-perturbation ridge (Chaudhuri et al. 2011, P)",
                PrivacyParams.pure(budget.epsilon()), Neighbouring.REPLACE_ROW, "one row with L2 norm <= " + rowL2Bound,
                "L2 sensitivity of the ridge minimiser 2L/alpha = " + delta,
                "Chaudhuri, Monteleoni & Sarwate, Differentially Private Empirical Risk Minimization (JMLR 2011), "
                        + "Algorithm 1, as baseline P of Amin, Dick, Kulesza, Munoz Medina & Vassilvitskii, Differentially Private Covariance Estimation (NeurIPS 2019), Appendix C.2");
        Diagnostics diag = Diagnostics.builder().put("rows", n).put("noiseScale", scale)
                .put("seededRandomness", random.isSeeded()).build();
        return new Result(released, guarantee, diag);
    }
}
