package io.dpspectra.covariance;

import io.dpspectra.Diagnostics;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.BinghamSampler;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;

/**
 * Releases XᵀX in the style of Kapralov &amp; Talwar (Amin et al.'s baseline "KT"): Laplace-noised
 * eigenvalues as in Algorithm 1, then k vectors each sampled by the exponential mechanism on the
 * <b>full</b> sphere S^{d−1} from a residual R_i, where R_{i+1} = R_i − λ̂_i θ̂_i θ̂_iᵀ (rank-one
 * subtraction instead of projection); the release Σ λ̂_i θ̂_i θ̂_iᵀ has its eigenvalues clamped to
 * [0, nβ²], since the θ̂_i are not orthogonal.
 *
 * <p>Privacy: pure ε-DP under REPLACE_ROW (n public); unit one row with ‖x‖₂ ≤ β. ε₀ = ε/2 buys the
 * sorted eigenvalues (L1 sensitivity 2β², Laplace scale 2β²/ε₀); each of the k vectors gets
 * ε_i = ε/(2k) (spec A-C11) in an exact exponential mechanism with density ∝ exp(κ_i·uᵀR_iu),
 * κ_i = ε_i/(4β²): R_i − C depends only on released values, so the utility has the sensitivity of uᵀCu
 * (≤ 2β² as the paper states). Basic composition gives ε; clamping is post-processing.
 *
 * <p>Reference: papers/dp-covariance-estimation.txt Sections 1.2 and 3 (baseline KT, after Kapralov &amp;
 * Talwar SODA 2013); spec robust-local-covariance.md §5.5, A-C11.
 *
 * <p>Cost: one pass and O(nd²) for XᵀX; one d × d eigendecomposition per vector (the residual changes by
 * a rank-one term on the full space), O(kd³) in all; memory O(d²).
 */
public final class KapralovTalwar extends SampledEigenvectorCovariance {
    private KapralovTalwar(Builder b) {
        super(b, "KapralovTalwar");
    }

    /**
     * A builder with the defaults its setters state.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration: {@link Options#vectors} (default d), the randomness and the proposal cap. */
    public static final class Builder extends Options<Builder> {
        @Override
        Builder self() {
            return this;
        }

        /**
         * The estimator with this configuration.
         *
         * @return a new estimator
         */
        public KapralovTalwar build() {
            return new KapralovTalwar(this);
        }
    }

    @Override
    PrivateCovariance sample(Matrix c, long n, double beta, int kk, double eps, Diagnostics.Builder diag) {
        int d = c.rows();
        SampledEigenvalues ev = SampledEigenvalues.release(c, n, beta, eps / 2, 1.0, random);
        double epsI = eps / (2 * kk);
        double kappa = exponentMultiplier * epsI / (4 * beta * beta);
        BinghamSampler sampler = new BinghamSampler(random, maxProposals);
        Matrix residual = c;
        Matrix theta = new Matrix(d, kk);
        long[] proposals = new long[kk];
        for (int i = 0; i < kk; i++) {
            BinghamSampler.Sample s = sampler.sample(residual, kappa);
            double[] t = s.u();
            proposals[i] = s.proposals();
            theta.setColumn(i, t);
            double l = ev.values[i];
            double[] rd = residual.data();
            for (int col = 0; col < d; col++) {
                for (int row = 0; row < d; row++) {
                    rd[row + col * d] -= l * t[row] * t[col];
                }
            }
        }
        double[] lambda = java.util.Arrays.copyOf(ev.values, kk);
        EigenvalueClamp.Result clamped = EigenvalueClamp.clamp(SampledEigenvalues.assemble(lambda, theta), 0,
                n * beta * beta);
        PrivacyGuarantee guarantee = new PrivacyGuarantee("Kapralov-Talwar style covariance (KT)",
                PrivacyParams.pure(eps), Neighbouring.REPLACE_ROW, "one row with L2 norm <= " + beta,
                "eigenvalues: L1 sensitivity 2*beta^2 at epsilon0 = " + (eps / 2)
                        + "; vectors: exponential mechanism, utility sensitivity 2*beta^2, epsilon_i = " + epsI,
                "Kapralov & Talwar, On Differentially Private Low Rank Approximation (SODA 2013), as the KT "
                        + "baseline of Amin, Dick, Kulesza, Munoz Medina & Vassilvitskii, Differentially Private Covariance Estimation (NeurIPS 2019), Sections 1.2 and 5");
        diag.put("vectors", kk)
                .put("epsilonEigenvalues", eps / 2)
                .put("epsilonPerVector", epsI)
                .put("laplaceScale", ev.scale)
                .put("clampedEigenvalues", ev.clamped + clamped.clamped());
        putProposals(diag, proposals);
        return new PrivateCovariance("kt", clamped.matrix(), guarantee, diag.build());
    }
}
