package io.dpspectra.local;

import io.dpspectra.Diagnostics;
import io.dpspectra.linalg.FantopeProjection;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.result.PrivateSubspace;
import java.util.Arrays;

/**
 * Sparse k-dimensional PCA of the server's average S̃ of local reports: the Fantope-constrained,
 * ℓ₁-penalised program max ⟨S̃, X⟩ − λ‖X‖₁,₁ over F^k = {X = Xᵀ : 0 ⪯ X ⪯ I, tr X = k}, solved by ADMM
 * ("Fantope projection and selection", Vu, Cho, Lei &amp; Rohe 2013), and the top-k eigenvectors of the
 * solution.
 *
 * <p>Iteration (Y⁰ = U⁰ = 0): X ← Π_{F^k}(Y − U + S̃/ρ) ({@link FantopeProjection}); Y ← soft(X + U, λ/ρ)
 * entry-wise, diagonal included, soft(z, a) = sgn(z)·max(|z| − a, 0); U ← U + X − Y. Stops when the primal
 * residual r = ‖X − Y‖_F ≤ p·ε_abs + ε_rel·max(‖X‖_F, ‖Y‖_F) and the dual residual s = ρ‖Y − Y_old‖_F ≤
 * p·ε_abs + ε_rel·ρ‖U‖_F (Boyd et al. 2011, §3.3), or after {@code maxIterations} (then
 * {@code converged = false}, the last iterate is returned, nothing is thrown). Optional residual balancing
 * (Boyd et al. §3.4.1): ρ doubles when r &gt; 10s and halves when s &gt; 10r, with U rescaled.
 *
 * <p>Closed form (exact, no iterations): when λ exceeds every off-diagonal |S̃_ij| and the k-th and
 * (k+1)-th largest diagonal entries of S̃ differ, the program's unique solution is X* = Y* = the diagonal
 * projector onto the k coordinates with the largest S̃_ii. Proof: for X ∈ F^k the off-diagonal part of
 * ⟨S̃, X⟩ − λ‖X‖₁,₁ is Σ_{i≠j}(S̃_ij X_ij − λ|X_ij|) ≤ 0, with equality only if X is diagonal; the diagonal
 * part Σ_i (S̃_ii − λ) X_ii with 0 ≤ X_ii ≤ 1 (from 0 ⪯ X ⪯ I) and Σ X_ii = k is maximised only by ones on
 * the k largest S̃_ii. The default λ is built to exceed the noise's largest entry, so on noise-dominated
 * averages (the paper's high-dimensional experiments) this is the common case; ADMM is then skipped and the
 * diagnostics say {@code solver = closed-form}. Otherwise ADMM runs.
 *
 * <p>Output: the sparse Y (the paper's Algorithm 2 returns Y), the Fantope point X, and the top-k
 * eigenvectors of Y as the released basis. When Y has fewer than k non-zero eigenvalues, the remaining
 * basis vectors are eigenvectors of Y's zero eigenvalue as the eigensolver returns them, and a warning is
 * recorded.
 *
 * <p>Privacy: post-processing of the (ε, δ)-LDP reports averaged in {@link LocalAggregate}; λ's default
 * uses only public parameters (σ, n). It spends nothing more.
 *
 * <p>Reference: Wang &amp; Xu, "Principal Component Analysis in the Local Differential Privacy Model",
 * Algorithm 2 and problem (5), Theorems 4–5; ADMM of Vu et al. (NeurIPS 2013). ρ, λ and the stopping
 * rule are not given by the paper; the defaults are below.
 *
 * <p>Cost: the closed-form check is O(p²); each ADMM iteration is one Fantope projection, a partial
 * eigendecomposition when it can be certified ({@link FantopeProjection.Partial}), a full one otherwise
 * (O(p³)); memory about six p × p matrices.
 */
public final class SparseFantopePca {
    private final int k;
    private final Double l1Penalty;
    private final Double rho;
    private final boolean residualBalancing;
    private final int maxIterations;
    private final double absoluteTolerance;
    private final double relativeTolerance;
    private final boolean closedForm;

    private SparseFantopePca(Builder b) {
        this.closedForm = b.closedForm;
        this.k = b.k;
        this.l1Penalty = b.l1Penalty;
        this.rho = b.rho;
        this.residualBalancing = b.residualBalancing;
        this.maxIterations = b.maxIterations;
        this.absoluteTolerance = b.absoluteTolerance;
        this.relativeTolerance = b.relativeTolerance;
    }

    /**
     * A builder with the defaults its setters state.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration; {@link #build()} validates every parameter. */
    public static final class Builder {
        private int k = 1;
        private Double l1Penalty;
        private Double rho;
        private boolean residualBalancing;
        private int maxIterations = 1000;
        private double absoluteTolerance = 1e-5;
        private double relativeTolerance = 1e-4;
        private boolean closedForm = true;

        private Builder() {
        }

        /** Tests only: always run ADMM, even where the closed form applies (to check they agree). */
        Builder admmOnly() {
            this.closedForm = false;
            return this;
        }

        /**
         * k, the subspace dimension (trace of the Fantope). Default 1.
         *
         * @param k the subspace dimension, ≥ 1
         * @return this builder
         */
        public Builder components(int k) {
            this.k = k;
            return this;
        }

        /**
         * λ ≥ 0, the ℓ₁ penalty. Default (the paper gives none): {@link #defaultPenalty σ̄·√(2 ln(p²(p+1)))}
         * with σ̄ = σ/√n the per-entry standard deviation of the averaged privacy noise: a bound on the
         * privacy-noise part of ‖S̃ − Σ‖_max (which Theorem 4 asks λ to exceed) holding with probability
         * about 1 − 1/p, on the scale √(log(1/δ) log p/(nε²)) of Theorems 4–5.
         *
         * @param lambda λ
         * @return this builder
         */
        public Builder l1Penalty(double lambda) {
            if (!(lambda >= 0) || !Double.isFinite(lambda)) {
                throw new IllegalArgumentException("--lambda must be >= 0 and finite, got " + lambda);
            }
            this.l1Penalty = lambda;
            return this;
        }

        /**
         * ρ &gt; 0, the ADMM penalty. Default max(‖S̃‖₂, 1e-12), which puts S̃/ρ on the scale of Fantope points.
         *
         * @param rho ρ
         * @return this builder
         */
        public Builder rho(double rho) {
            this.rho = DpPreconditions.checkPositive("rho", rho);
            return this;
        }

        /**
         * Adapt ρ by residual balancing (Boyd et al. 2011, §3.4.1). Default off (fixed ρ).
         *
         * @param on whether ρ adapts
         * @return this builder
         */
        public Builder residualBalancing(boolean on) {
            this.residualBalancing = on;
            return this;
        }

        /**
         * Default 1000.
         *
         * @param n the most ADMM iterations, ≥ 1
         * @return this builder
         */
        public Builder maxIterations(int n) {
            this.maxIterations = DpPreconditions.checkAtLeast("maxIterations", n, 1);
            return this;
        }

        /**
         * ε_abs and ε_rel of the stopping rule; defaults 1e-5 and 1e-4.
         *
         * @param absolute ε_abs, &gt; 0
         * @param relative ε_rel, &gt; 0
         * @return this builder
         */
        public Builder tolerances(double absolute, double relative) {
            this.absoluteTolerance = DpPreconditions.checkPositive("absolute tolerance", absolute);
            this.relativeTolerance = DpPreconditions.checkPositive("relative tolerance", relative);
            return this;
        }

        /**
         * The solver with this configuration.
         *
         * @return a new solver
         * @throws IllegalArgumentException for an invalid parameter
         */
        public SparseFantopePca build() {
            DpPreconditions.checkAtLeast("components k", k, 1);
            return new SparseFantopePca(this);
        }
    }

    /**
     * The solution and its convergence diagnostics.
     *
     * @param subspace       the released p × k basis (top-k eigenvectors of Y) with guarantee and diagnostics
     * @param sparse         Y, the soft-thresholded iterate (the paper's output)
     * @param fantope        X, the last Fantope point
     * @param iterations     ADMM iterations run (0 for the closed form)
     * @param converged      whether the stopping rule was met
     * @param primalResidual the last ‖X − Y‖_F
     * @param dualResidual   the last ρ‖Y − Y_old‖_F
     * @param l1Penalty      the λ used
     * @param rho            the last ρ (NaN for the closed form, which uses none)
     */
    public record Result(PrivateSubspace subspace, Matrix sparse, Matrix fantope, int iterations, boolean converged,
                         double primalResidual, double dualResidual, double l1Penalty, double rho) {
    }

    /**
     * The spec default λ = σ̄·√(2 ln(p²(p+1))) for per-entry noise standard deviation σ̄ of S̃.
     *
     * @param noiseStdOfMean σ̄, &gt; 0
     * @param p              the dimension
     * @return λ
     */
    public static double defaultPenalty(double noiseStdOfMean, int p) {
        return noiseStdOfMean * Math.sqrt(2 * Math.log((double) p * p * (p + 1)));
    }

    /**
     * Sparse PCA of the reports' average; the release carries the reports' guarantee.
     *
     * @param aggregate the reports' average S̃
     * @return the basis (with the reports' guarantee), Y, X and the convergence diagnostics
     */
    public Result fit(LocalAggregate aggregate) {
        int p = aggregate.parameters().dimension();
        double lambda = l1Penalty != null ? l1Penalty : defaultPenalty(aggregate.noiseStdOfMean(), p);
        Result r = solve(aggregate.mean(), lambda);
        Diagnostics diagnostics = Diagnostics.builder().put("reports", aggregate.reports())
                .putAll(r.subspace().diagnostics()).build();
        return new Result(new PrivateSubspace("ldp-sparse", r.subspace().components(),
                r.subspace().explainedVariance().orElseThrow(), aggregate.guarantee(), diagnostics),
                r.sparse(), r.fantope(), r.iterations(), r.converged(), r.primalResidual(), r.dualResidual(), lambda,
                r.rho());
    }

    /**
     * Solves the program for a symmetric {@code s} (not modified) and penalty λ; the returned subspace
     * carries no guarantee (whatever privacy {@code s} has, it keeps).
     *
     * @param s      a p × p symmetric matrix
     * @param lambda λ, ≥ 0
     * @return the basis (with no guarantee), Y, X and the convergence diagnostics
     */
    public Result solve(Matrix s, double lambda) {
        if (!s.isSquare()) {
            throw new IllegalArgumentException("sparse PCA needs a square (covariance) matrix, got " + s.rows() + " x "
                    + s.cols());
        }
        int p = s.rows();
        DpPreconditions.checkComponents(k, p);
        if (!(lambda >= 0) || !Double.isFinite(lambda)) {
            throw new IllegalArgumentException("--lambda must be >= 0 and finite, got " + lambda);
        }
        if (!s.isFinite()) {
            throw new IllegalArgumentException("the matrix to analyse has a NaN or infinite entry");
        }
        Matrix symmetric = symmetricCopy(s);
        if (closedForm) {
            Result exact = diagonalSolution(symmetric, lambda);
            if (exact != null) {
                return exact;
            }
        }
        double step = rho != null ? rho : Math.max(spectralNorm(s), 1e-12);
        double[] sv = symmetric.data();
        int size = p * p;
        double[] y = new double[size];
        double[] u = new double[size];
        double[] yOld = new double[size];
        double[] arg = new double[size];
        Matrix argument = Matrix.wrapColumnMajor(p, p, arg);
        Matrix x = null;
        double r = Double.NaN;
        double dual = Double.NaN;
        boolean converged = false;
        int it = 0;
        FantopeProjection.Partial projector = FantopeProjection.partial();
        while (it < maxIterations) {
            it++;
            for (int i = 0; i < size; i++) {
                arg[i] = y[i] - u[i] + sv[i] / step;
            }
            x = projector.project(argument, k).projection();
            x.symmetrizeInPlace();
            double[] xv = x.data();
            System.arraycopy(y, 0, yOld, 0, size);
            double threshold = lambda / step;
            double rr = 0;
            double ss = 0;
            double xx = 0;
            double yy = 0;
            double uu = 0;
            for (int i = 0; i < size; i++) {
                double z = xv[i] + u[i];
                double yi = z > threshold ? z - threshold : z < -threshold ? z + threshold : 0;
                y[i] = yi;
                double ui = u[i] + xv[i] - yi;
                u[i] = ui;
                rr += (xv[i] - yi) * (xv[i] - yi);
                ss += (yi - yOld[i]) * (yi - yOld[i]);
                xx += xv[i] * xv[i];
                yy += yi * yi;
                uu += ui * ui;
            }
            r = Math.sqrt(rr);
            dual = step * Math.sqrt(ss);
            double primalTol = p * absoluteTolerance + relativeTolerance * Math.sqrt(Math.max(xx, yy));
            double dualTol = p * absoluteTolerance + relativeTolerance * step * Math.sqrt(uu);
            if (r <= primalTol && dual <= dualTol) {
                converged = true;
                break;
            }
            if (residualBalancing) {
                double factor = r > 10 * dual ? 2 : dual > 10 * r ? 0.5 : 1;
                if (factor != 1) {
                    step *= factor;
                    for (int i = 0; i < size; i++) {
                        u[i] /= factor;
                    }
                }
            }
        }
        Matrix sparse = Matrix.wrapColumnMajor(p, p, y);
        SymmetricEigen top = SymmetricEigen.top(sparse, k);
        int nonZero = 0;
        for (double v : top.values()) {
            if (Math.abs(v) > 1e-12) {
                nonZero++;
            }
        }
        Diagnostics.Builder d = Diagnostics.builder().put("iterations", it).put("converged", converged)
                .put("primalResidual", r).put("dualResidual", dual).put("l1Penalty", lambda).put("rho", step)
                .put("supportSize", support(sparse).length).put("solver", "admm")
                .put("partialProjections", projector.partialCount()).put("fullProjections", projector.fullCount());
        if (!converged) {
            d.put("convergenceWarning", "ADMM did not meet its stopping rule in " + maxIterations + " iterations; the last "
                    + "iterate is returned");
        }
        if (nonZero < k) {
            d.put("rankWarning", "the sparse solution has only " + nonZero + " non-zero eigenvalues for k = " + k
                    + "; the remaining components are arbitrary vectors of its null space (lower --lambda)");
        }
        PrivateSubspace subspace = new PrivateSubspace("ldp-sparse", top.vectors(), Arrays.copyOf(top.values(), k),
                null, d.build());
        return new Result(subspace, sparse, x, it, converged, r, dual, lambda, step);
    }

    /**
     * The exact solution when λ &gt; max_{i≠j} |S̃_ij| and the k-th largest diagonal entry is strictly above the
     * (k+1)-th (see the class comment), else null.
     */
    private Result diagonalSolution(Matrix symmetric, double lambda) {
        int p = symmetric.rows();
        double maxOffDiagonal = 0;
        for (int j = 0; j < p; j++) {
            for (int i = j + 1; i < p; i++) {
                maxOffDiagonal = Math.max(maxOffDiagonal, Math.abs(symmetric.get(i, j)));
            }
        }
        if (!(lambda > maxOffDiagonal)) {
            return null;
        }
        Integer[] order = new Integer[p];
        for (int i = 0; i < p; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(symmetric.get(b, b), symmetric.get(a, a)));
        if (k < p && !(symmetric.get(order[k - 1], order[k - 1]) > symmetric.get(order[k], order[k]))) {
            return null; // a tie at the k-th diagonal entry: the solution is not unique, let ADMM pick one
        }
        Matrix y = new Matrix(p, p);
        Matrix basis = new Matrix(p, k);
        for (int j = 0; j < k; j++) {
            y.set(order[j], order[j], 1);
            basis.set(order[j], j, 1);
        }
        double[] ones = new double[k];
        Arrays.fill(ones, 1);
        Diagnostics d = Diagnostics.builder().put("iterations", 0).put("converged", true).put("primalResidual", 0.0)
                .put("dualResidual", 0.0).put("l1Penalty", lambda).put("supportSize", k).put("solver", "closed-form")
                .put("maxOffDiagonal", maxOffDiagonal).build();
        PrivateSubspace subspace = new PrivateSubspace("ldp-sparse", basis, ones, null, d);
        return new Result(subspace, y, y.copy(), 0, true, 0, 0, lambda, Double.NaN);
    }

    /**
     * The indices j with Y_jj ≠ 0: the selected coordinates (supp diag Y).
     *
     * @param y a p × p matrix
     * @return the ascending indices j with Y_jj ≠ 0
     */
    public static int[] support(Matrix y) {
        return java.util.stream.IntStream.range(0, y.rows()).filter(j -> y.get(j, j) != 0).toArray();
    }

    private static Matrix symmetricCopy(Matrix s) {
        Matrix c = s.copy();
        c.symmetrizeInPlace();
        return c;
    }

    private static double spectralNorm(Matrix s) {
        double[] v = SymmetricEigen.of(symmetricCopy(s)).values();
        return Math.max(Math.abs(v[0]), Math.abs(v[v.length - 1]));
    }
}
