package io.dpspectra.covariance;

import io.dpspectra.Diagnostics;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.noise.BinghamSampler;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;
import io.dpspectra.result.PrivateSubspace;
import java.util.Objects;

/**
 * Releases XᵀX by iterative eigenvector sampling (Amin et al.'s Algorithm 1): Laplace-noised
 * eigenvalues, then k eigenvectors each drawn by the exponential mechanism on the sphere of the
 * orthogonal complement of the ones already drawn; the release is Ĉ = Σ_i λ̂_i θ̂_i θ̂_iᵀ, with budget
 * split uniformly (IT-U) or adaptively (AD, Corollary 1).
 *
 * <p>Privacy: pure ε-DP (δ is not used); the unit is one row with ‖x‖₂ ≤ β (β from the source's
 * declared bound: user-given clipping or rejection, never rescaling by a data-derived factor), under
 * REPLACE_ROW with n public (the paper's relation). ε₀ = ε/2 buys the d eigenvalues: their sorted vector
 * has L1 sensitivity 2β², Laplace scale 2β²/ε₀. Each vector i gets ε_i (Σ ε_i = ε/2): UNIFORM
 * ε_i = ε/(2k); ADAPTIVE ε_i ∝ √(λ̂_i + τ), τ = (2β²/ε₀)·ln(2d/β_fail), using the already released
 * clamped λ̂ (post-processing; spec A-C8). Vector i is an exact exponential-mechanism sample with
 * utility uᵀC_iu, C_i = B_iᵀCB_i on the complement basis B_i (a function of released vectors only),
 * density ∝ exp(κ_i·uᵀC_iu) with κ_i = ε_i/(4β²) (utility sensitivity 2β² as in the paper; the tight
 * value under REPLACE_ROW is β², option {@link Builder#tightUtilitySensitivity}). Basic composition:
 * ε₀ + Σ ε_i = ε. Sorting and clamping the eigenvalues to [0, nβ²] are post-processing. The sampler's
 * proposal counts (diagnostics) depend on the data: they are a timing side channel and not private.
 *
 * <p>Reference: papers/dp-covariance-estimation.txt (Amin, Dick, Kulesza, Muñoz Medina, Vassilvitskii,
 * ICML 2019), Algorithm 1, Theorem 1, Corollaries 1–2; the sampler is Algorithm 2 as corrected in spec
 * robust-local-covariance.md K9; deflation K10; §5.1, §5.6, A-C4, A-C7…A-C12.
 *
 * <p>Cost: one pass and O(nd²) for XᵀX; O(d³) for its spectrum; round i: one q × q eigendecomposition of
 * C_i (q = d − i + 1) for the sampler, O(q) per proposal, O(dq) to deflate the basis by a Householder
 * reflection and O(q²) to deflate C_i (never a fresh d × d decomposition): Σ_q O(q³) ≈ d⁴/4 in total for
 * k = d; memory O(d²).
 */
public final class IterativeEigenvectorSampling extends SampledEigenvectorCovariance {
    /** How the vector budget ε/2 is split over the k vectors. */
    public enum BudgetSplit {
        /** ε_i = ε/(2k): "IT-U" (Amin et al. Cor. 2). */
        UNIFORM,
        /** ε_i ∝ √(λ̂_i + τ): "AD" (Amin et al. Cor. 1). */
        ADAPTIVE
    }

    private final BudgetSplit split;
    private final double failureProbability;
    private final boolean tightUtility;
    private final boolean skipLastVector;
    private final double noiseMultiplier;
    private final java.util.function.ToIntFunction<double[]> vectorsChooser;

    private IterativeEigenvectorSampling(Builder b) {
        super(b, "IterativeEigenvectorSampling");
        this.split = b.split;
        this.failureProbability = b.failureProbability;
        this.tightUtility = b.tightUtility;
        this.skipLastVector = b.skipLastVector;
        this.noiseMultiplier = b.noiseMultiplier;
        this.vectorsChooser = b.vectorsChooser;
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
    public static final class Builder extends Options<Builder> {
        private BudgetSplit split = BudgetSplit.ADAPTIVE;
        private double failureProbability = 0.05;
        private boolean tightUtility;
        private boolean skipLastVector;
        private double noiseMultiplier = 1.0;
        private java.util.function.ToIntFunction<double[]> vectorsChooser;

        /**
         * Chooses the number of vectors k from the released eigenvalues (all d, sorted descending and
         * clamped, in XᵀX units), after they are released and before any vector is sampled: post-processing,
         * so the guarantee is unchanged (e.g. the smallest k whose explained-variance ratio over a private
         * trace reaches a threshold). Overrides {@link #vectors}.
         *
         * @param chooser maps the released eigenvalues to k, 1 ≤ k ≤ d; it must not look at the data
         * @return this builder
         */
        public Builder vectorsChosenBy(java.util.function.ToIntFunction<double[]> chooser) {
            this.vectorsChooser = Objects.requireNonNull(chooser, "chooser");
            return this;
        }

        @Override
        Builder self() {
            return this;
        }

        /**
         * Default {@link BudgetSplit#ADAPTIVE} ("AD").
         *
         * @param split uniform (IT-U) or adaptive (AD)
         * @return this builder
         */
        public Builder split(BudgetSplit split) {
            this.split = Objects.requireNonNull(split, "split");
            return this;
        }

        /**
         * β of Corollary 1 (the failure probability in τ = (2/ε₀)·ln(2d/β)), in (0, 1); default 0.05
         * (spec A-C8: the paper's experiments do not state it). Used by ADAPTIVE only.
         *
         * @param beta β
         * @return this builder
         */
        public Builder failureProbability(double beta) {
            if (!(beta > 0 && beta < 1)) {
                throw new IllegalArgumentException("failureProbability must be in (0, 1), got " + beta
                        + "; Corollary 1's beta is a probability, default 0.05");
            }
            this.failureProbability = beta;
            return this;
        }

        /**
         * Use the tight REPLACE_ROW utility sensitivity β² (κ_i = ε_i/(2β²)) instead of the paper's 2β²
         * (κ_i = ε_i/(4β²)); default false (paper). Spec A-C7.
         *
         * @param tight whether to use β²
         * @return this builder
         */
        public Builder tightUtilitySensitivity(boolean tight) {
            this.tightUtility = tight;
            return this;
        }

        /**
         * When all d vectors are released, the last one is determined by the others (q = 1: only its sign is
         * drawn, uniformly), so the paper's ε_d buys nothing; if true, the vector budget ε/2 is split over the
         * first d − 1 vectors instead. Default false (the paper's split; spec A-C10).
         *
         * @param skip whether to skip the last vector's budget
         * @return this builder
         */
        public Builder skipLastVector(boolean skip) {
            this.skipLastVector = skip;
            return this;
        }

        /**
         * Scales the eigenvalue Laplace noise by {@code m}: package-private, for the auditor's broken twin
         * in tests only. A value below 1 makes the release NOT private.
         */
        Builder noiseMultiplierForAuditTests(double m) {
            this.noiseMultiplier = DpPreconditions.checkPositive("noiseMultiplier", m);
            return this;
        }

        /**
         * The estimator with this configuration.
         *
         * @return a new estimator
         */
        public IterativeEigenvectorSampling build() {
            return new IterativeEigenvectorSampling(this);
        }
    }

    /**
     * "it-u" or "ad".
     *
     * @return the short name of the budget split
     */
    public String label() {
        return split == BudgetSplit.UNIFORM ? "it-u" : "ad";
    }

    @Override
    PrivateCovariance sample(Matrix c, long n, double beta, int kk, double eps, Diagnostics.Builder diag) {
        int d = c.rows();
        double eps0 = eps / 2;

        SampledEigenvalues ev = SampledEigenvalues.release(c, n, beta, eps0, noiseMultiplier, random);
        if (vectorsChooser != null) {
            kk = DpPreconditions.checkComponents(vectorsChooser.applyAsInt(ev.values.clone()), d);
        }
        double[] lambda = java.util.Arrays.copyOf(ev.values, kk);
        double[] epsI = vectorBudgets(lambda, d, eps, beta);
        double utilitySensitivity = (tightUtility ? 1.0 : 2.0) * beta * beta;

        long[] proposals = new long[kk];
        Matrix theta = sampleVectors(c, kk, epsI, utilitySensitivity, proposals);
        Matrix release = SampledEigenvalues.assemble(lambda, theta);

        PrivacyParams spent = PrivacyParams.pure(eps);
        PrivacyGuarantee guarantee = new PrivacyGuarantee(
                "Iterative eigenvector sampling (" + (split == BudgetSplit.UNIFORM ? "IT-U" : "AD") + ")", spent,
                Neighbouring.REPLACE_ROW, "one row with L2 norm <= " + beta,
                "eigenvalues: L1 sensitivity 2*beta^2 = " + (2 * beta * beta) + " at epsilon0 = " + eps0
                        + "; vectors: exponential mechanism, utility u^T C_i u with sensitivity "
                        + utilitySensitivity + (tightUtility ? " (tight, beta^2)" : " (paper, 2*beta^2)")
                        + ", sum of epsilon_i = " + (eps - eps0),
                "Amin, Dick, Kulesza, Munoz Medina & Vassilvitskii, Differentially Private Covariance Estimation (NeurIPS 2019), Algorithm 1 (" + (split == BudgetSplit.UNIFORM ? "Corollary 2, uniform split"
                        : "Corollary 1, adaptive split") + ") with the sampler of Algorithm 2");
        diag.put("split", split.name())
                .put("vectors", kk)
                .put("epsilonEigenvalues", eps0)
                .put("epsilonVectors", toList(epsI))
                .put("laplaceScale", ev.scale)
                .put("clampedEigenvalues", ev.clamped);
        putProposals(diag, proposals);
        if (split == BudgetSplit.ADAPTIVE) {
            diag.put("failureProbability", failureProbability);
        }
        return new PrivateCovariance(label(), lambda, theta, release, guarantee, diag.build());
    }

    /**
     * Vectors 1…k by the exponential mechanism, vector i with budget epsI[i] (Algorithm 1, steps 5–9):
     * returns θ (d × k); fills proposals. Not modified: c (deflated copies are used).
     */
    private Matrix sampleVectors(Matrix c, int kk, double[] epsI, double utilitySensitivity, long[] proposals) {
        int d = c.rows();
        BinghamSampler sampler = new BinghamSampler(random, maxProposals);
        Matrix basis = Matrix.identity(d);
        Matrix ci = c;
        Matrix theta = new Matrix(d, kk);
        for (int i = 0; i < kk; i++) {
            int q = d - i;
            double kappa = exponentMultiplier * epsI[i] / (2 * utilitySensitivity);
            double[] u;
            if (q == 1) {
                u = sampler.sample(ci, kappa).u();
                proposals[i] = 1;
            } else {
                SymmetricEigen e = SymmetricEigen.of(ci);
                BinghamSampler.Sample s = sampler.sampleInEigenbasis(e.values(), e.vectors(), kappa);
                u = s.u();
                proposals[i] = s.proposals();
            }
            theta.setColumn(i, basis.times(u));
            if (i + 1 < kk) {
                Matrix[] next = HouseholderDeflation.deflate(basis, ci, u);
                basis = next[0];
                ci = next[1];
            }
        }
        return theta;
    }

    /**
     * Private principal subspace only (no eigenvalues bought): the whole ε goes to the k vectors, ε/k each
     * (ε/(k−1) over the first k−1 when {@link Builder#skipLastVector} and k = d), with the same exponential
     * mechanism as {@link #release}. Since the subspace never uses the eigenvalues, the paper's ε/2 for them
     * would buy nothing here. UNIFORM split only: AD's adaptive split needs eigenvalue estimates.
     *
     * <p>Privacy: pure ε-DP, REPLACE_ROW with n public, one row with ‖x‖₂ ≤ β, by basic composition of the k
     * exponential mechanisms (Amin et al. Theorem 1 with ε₀ = 0: the vector steps alone).
     *
     * @param rows   the rows; they must declare an L2 bound β
     * @param budget the ε to spend (δ is not used)
     * @return the d × k sampled vectors with their guarantee
     */
    public PrivateSubspace subspace(io.dpspectra.data.RowSource rows, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        if (split != BudgetSplit.UNIFORM) {
            throw new IllegalArgumentException("AD splits the vector budget by the private eigenvalues, so it cannot "
                    + "skip them; use UNIFORM (it-u) for a vectors-only subspace, or buy the eigenvalues");
        }
        double beta = SecondMomentSensitivity.rowL2Bound(rows, "IterativeEigenvectorSampling");
        io.dpspectra.data.GramPass pass = io.dpspectra.data.GramPass.of(rows);
        Matrix c = pass.gram().copy();
        c.symmetrizeInPlace();
        int d = c.rows();
        int kk = k < 0 ? d : DpPreconditions.checkComponents(k, d);
        int paid = skipLastVector && kk == d && d > 1 ? kk - 1 : kk;
        double eps = budget.epsilon();
        double[] epsI = new double[kk];
        java.util.Arrays.fill(epsI, 0, paid, eps / paid);
        double utilitySensitivity = (tightUtility ? 1.0 : 2.0) * beta * beta;
        long[] proposals = new long[kk];
        Matrix theta = sampleVectors(c, kk, epsI, utilitySensitivity, proposals);
        PrivacyGuarantee guarantee = new PrivacyGuarantee("Iterative eigenvector sampling (IT-U), vectors only",
                PrivacyParams.pure(eps), Neighbouring.REPLACE_ROW, "one row with L2 norm <= " + beta,
                "no eigenvalues released (nothing spent on them); vectors: exponential mechanism, utility u^T C_i u "
                        + "with sensitivity " + utilitySensitivity + ", epsilon_i = " + (eps / paid) + " for " + paid
                        + " vector(s), sum = epsilon",
                "Amin, Dick, Kulesza, Munoz Medina & Vassilvitskii, ICML 2019, Algorithm 1 steps 5-9 (vector sampling) "
                        + "with the whole budget on the vectors; Algorithm 2 (Bingham sampler)");
        Diagnostics.Builder diag = Diagnostics.builder().put("rows", pass.rows()).put("vectors", kk)
                .put("epsilonEigenvalues", 0.0).put("epsilonVectors", toList(epsI));
        putProposals(diag, proposals);
        return new PrivateSubspace(label(), theta, null, guarantee, diag.build());
    }

    /**
     * The Bingham concentrations κ_i (density ∝ exp(κ_i·uᵀC_iu)) that {@link #subspace} uses for its k vectors
     * on rows bounded by β at budget ε: the same calibration, for predictions of its accuracy (it draws
     * nothing). Entries past the paid vectors are 0.
     *
     * @param d the dimension
     * @param k the number of vectors
     * @param epsilon the vectors' ε
     * @param beta the row bound β
     * @return κ_1..κ_k
     */
    public double[] subspaceConcentrations(int d, int k, double epsilon, double beta) {
        int kk = DpPreconditions.checkComponents(k, d);
        int paid = skipLastVector && kk == d && d > 1 ? kk - 1 : kk;
        double[] kappa = new double[kk];
        java.util.Arrays.fill(kappa, 0, paid, exponentMultiplier * (epsilon / paid) / (2 * utilitySensitivity(beta)));
        return kappa;
    }

    /**
     * The Bingham concentrations κ_i that {@link #release} uses for its vectors when the released eigenvalues
     * are {@code lambda} (descending, XᵀX units; k = lambda.length): the same budget split, for predictions.
     *
     * @param lambda the released eigenvalues, descending
     * @param d the dimension
     * @param epsilon the vectors' ε
     * @param beta the row bound β
     * @return κ_1..κ_k
     */
    public double[] releaseConcentrations(double[] lambda, int d, double epsilon, double beta) {
        double[] epsI = vectorBudgets(lambda, d, epsilon, beta);
        double[] kappa = new double[epsI.length];
        for (int i = 0; i < kappa.length; i++) {
            kappa[i] = exponentMultiplier * epsI[i] / (2 * utilitySensitivity(beta));
        }
        return kappa;
    }

    private double utilitySensitivity(double beta) {
        return (tightUtility ? 1.0 : 2.0) * beta * beta;
    }

    /** ε_1…ε_k, summing to ε/2 (spec §5.1 step 4). */
    double[] vectorBudgets(double[] lambda, int d, double eps, double beta) {
        int total = lambda.length;
        double[] out = new double[total];
        // with skipLastVector the determined last vector (q = 1) gets ε_d = 0 and the others share ε/2
        int kk = skipLastVector && total == d && d > 1 ? total - 1 : total;
        double half = eps / 2;
        if (split == BudgetSplit.UNIFORM) {
            java.util.Arrays.fill(out, 0, kk, half / kk);
            return out;
        }
        double tau = (2 * beta * beta / half) * Math.log(2.0 * d / failureProbability);
        double sum = 0;
        for (int i = 0; i < kk; i++) {
            out[i] = Math.sqrt(lambda[i] + tau); // λ̂ already clamped to >= 0 (A-C8)
            sum += out[i];
        }
        for (int i = 0; i < kk; i++) {
            out[i] = half * out[i] / sum;
        }
        return out;
    }
}
