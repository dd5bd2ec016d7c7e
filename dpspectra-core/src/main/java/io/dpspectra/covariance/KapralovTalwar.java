package io.dpspectra.covariance;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.BinghamSampler;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Objects;

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
public final class KapralovTalwar implements CovarianceEstimator {
    private final int k;
    private final RandomSource random;
    private final long maxProposals;
    private final double exponentMultiplier;

    private KapralovTalwar(Builder b) {
        this.k = b.k;
        this.random = b.random;
        this.maxProposals = b.maxProposals;
        this.exponentMultiplier = b.exponentMultiplier;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. */
    public static final class Builder {
        private int k = -1;
        private RandomSource random;
        private long maxProposals = BinghamSampler.DEFAULT_MAX_PROPOSALS;
        private double exponentMultiplier = 1.0;

        /** The number k of vectors, 1 ≤ k ≤ d; default d. */
        public Builder vectors(int k) {
            this.k = DpPreconditions.checkAtLeast("vectors", k, 1);
            return this;
        }

        /** Default {@link RandomSource#secure()}. */
        public Builder randomSource(RandomSource random) {
            this.random = Objects.requireNonNull(random, "randomSource");
            return this;
        }

        /** Proposal cap per sampled vector. */
        public Builder maxProposals(long maxProposals) {
            if (maxProposals < 1) {
                throw new IllegalArgumentException("maxProposals must be >= 1, got " + maxProposals);
            }
            this.maxProposals = maxProposals;
            return this;
        }

        /**
         * Multiplies the sampler's exponent κ_i by {@code m}: package-private, for the auditor's broken twin
         * in tests only (the authors' code uses 4ε/d for KT, 32× the paper's ε/(8d) at k = d, spec A-C19).
         * A value above 2 can make the release NOT private (the utility's tight sensitivity is β², half
         * the 2β² that κ_i is calibrated to).
         */
        Builder exponentMultiplierForAuditTests(double m) {
            this.exponentMultiplier = DpPreconditions.checkPositive("exponentMultiplier", m);
            return this;
        }

        public KapralovTalwar build() {
            if (random == null) {
                random = RandomSource.secure();
            }
            return new KapralovTalwar(this);
        }
    }

    @Override
    public PrivateCovariance release(RowSource rows, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        double beta = SecondMomentSensitivity.rowL2Bound(rows, "KapralovTalwar");
        GramPass pass = GramPass.of(rows);
        long clipped = rows instanceof ClippedRows c ? c.clippedRows() : -1;
        return release(pass.gram(), pass.rows(), beta, budget, clipped);
    }

    /**
     * The release from C = XᵀX given directly; the caller asserts that C is exactly XᵀX for n rows of L2
     * norm ≤ {@code rowL2Bound}. Not modified: gram.
     */
    public PrivateCovariance releaseFromTrustedGram(Matrix gram, long n, double rowL2Bound, PrivacyParams budget) {
        return release(gram, n, rowL2Bound, budget, -1);
    }

    private PrivateCovariance release(Matrix gram, long n, double beta, PrivacyParams budget, long clippedRows) {
        Objects.requireNonNull(budget, "budget");
        DpPreconditions.checkBound("rowL2Bound", beta);
        if (!gram.isSquare() || !gram.isFinite()) {
            throw new IllegalArgumentException("Gram matrix must be square and finite, got " + gram.rows() + " x "
                    + gram.cols());
        }
        if (n < 1) {
            throw new IllegalArgumentException("KapralovTalwar needs at least one row, got n = " + n);
        }
        int d = gram.rows();
        int kk = k < 0 ? d : DpPreconditions.checkComponents(k, d);
        double eps = budget.epsilon();
        Matrix c = gram.copy();
        c.symmetrizeInPlace();
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
                "papers/dp-covariance-estimation.txt Sec. 1.2/3 baseline KT; spec robust-local-covariance.md §5.5, A-C11");
        Diagnostics.Builder diag = Diagnostics.builder().put("rows", n);
        if (clippedRows >= 0) {
            diag.put("clippedRows", clippedRows);
        }
        diag.put("vectors", kk)
                .put("epsilonEigenvalues", eps / 2)
                .put("epsilonPerVector", epsI)
                .put("laplaceScale", ev.scale)
                .put("clampedEigenvalues", ev.clamped + clamped.clamped())
                .put("proposals", IterativeEigenvectorSampling.toList(proposals))
                .put("proposalsMedian", SampledEigenvalues.median(proposals))
                .put("proposalsMean", SampledEigenvalues.mean(proposals))
                .put("seededRandomness", random.isSeeded())
                .put("timingSideChannel", "proposal counts depend on the data (a timing side channel) and are "
                        + "not private; do not publish them with the release")
                .put("note", Diagnostics.PRIVATE_KEYS_NOTE);
        return new PrivateCovariance("kt", clamped.matrix(), guarantee, diag.build());
    }
}
