package io.dpspectra.linalg;

/**
 * The Frobenius-nearest point of the Fantope {@code F_r = {P = Pᵀ : 0 ⪯ P ⪯ I, tr P = r}} to a symmetric
 * matrix: {@code argmin_{P ∈ F_r} ‖P − Y‖_F}.
 *
 * <p>The projection keeps the eigenvectors of {@code Y = W diag(γ) Wᵀ} and maps each eigenvalue to
 * {@code g_i = min(max(γ_i − θ, 0), 1)}, where the shift θ solves {@code φ(θ) = Σ_i g_i(θ) = r}
 * ("water-filling"). φ is continuous, non-increasing and piecewise linear with breakpoints
 * {@code {γ_i, γ_i − 1}}; θ is found by bisection on {@code [γ_min − 1, γ_max]} and then made exact on
 * the linear piece it lands on: with {@code A = {i : 0 < γ_i − θ < 1}} and {@code c = #{i : γ_i − θ ≥ 1}},
 * {@code θ = (Σ_{i∈A} γ_i + c − r)/|A|}.
 *
 * <p>The set is the feasible set of REAPER (Lerman et al. 2015; the robust-PCA paper's Appendix A,
 * {@code H_r}) and of the Fantope-projection-and-selection ADMM of the local-DP paper's Algorithm 2
 * ({@code F^k}); both use this one kernel.
 *
 * <p>Cost: one symmetric eigendecomposition, O(D³), plus O(D² m) to rebuild P from its m non-zero
 * weights. Memory: O(D²). {@link #partial()} gives a projector for a sequence of calls (an iterative
 * solver's) that computes only the leading eigenpairs when that is provably enough.
 */
public final class FantopeProjection {
    private static final int MAX_HALVINGS = 200;

    private FantopeProjection() {
    }

    /**
     * The projection and its parts.
     *
     * @param projection   P, D × D, symmetric, eigenvalues in [0, 1], trace r
     * @param theta        the water-filling shift θ
     * @param weights      the eigenvalues g of P, in the order of the eigenvalues of Y (descending): all D of
     *                     them from {@link #project}; the leading m ≥ (number of non-zero g) from
     *                     {@link Partial#project}, the rest being certified zero
     * @param eigenvectors W, D × D (or D × m, as {@code weights}): column j is the eigenvector of Y (and of P)
     *                     for {@code weights[j]}
     */
    public record Result(Matrix projection, double theta, double[] weights, Matrix eigenvectors) {
    }

    /**
     * The projection of {@code symmetric} onto {@code F_r}; see {@link #project}. Not modified: symmetric.
     *
     * @param symmetric Y, D × D; only its lower triangle is read
     * @param r         the trace, 0 &lt; r ≤ D
     * @return the projection, a new D × D matrix
     */
    public static Matrix of(Matrix symmetric, double r) {
        return project(symmetric, r).projection();
    }

    /**
     * Projects a symmetric matrix onto the Fantope of trace {@code r}.
     *
     * @param symmetric Y, D × D; only its lower triangle is read. Not modified.
     * @param r         the trace, {@code 0 < r ≤ D} (an integer rank in both papers; any real value works)
     * @return the projection with θ, the eigenvalue weights and the eigenvectors
     * @throws IllegalArgumentException if Y is not square, has a NaN or infinite entry, or r is out of range
     */
    public static Result project(Matrix symmetric, double r) {
        validate(symmetric, r);
        return fromSpectrum(SymmetricEigen.of(symmetric), r);
    }

    private static void validate(Matrix symmetric, double r) {
        symmetric.requireSquare();
        int d = symmetric.rows();
        if (d == 0) {
            throw new IllegalArgumentException("cannot project a 0 x 0 matrix onto a Fantope");
        }
        if (!(r > 0) || r > d) {
            throw new IllegalArgumentException("Fantope trace r must be in (0, " + d + "], got " + r);
        }
    }

    /** P from all D eigenpairs, or from the leading m when the rest are known to get weight 0 at the returned θ. */
    private static Result fromSpectrum(SymmetricEigen eig, double r) {
        double[] gamma = eig.values();
        int m = gamma.length;
        int d = eig.vectors().rows();
        double theta = r == d ? gamma[d - 1] - 1.0 : shift(gamma, r);
        double[] g = new double[m];
        int active = 0;
        for (int i = 0; i < m; i++) {
            g[i] = r == d ? 1.0 : clamp01(gamma[i] - theta);
            if (g[i] > 0) {
                active++;
            }
        }
        // P = Σ_{g_i > 0} g_i w_i w_iᵀ = (W_a diag(√g_a)) (W_a diag(√g_a))ᵀ
        Matrix scaled = new Matrix(d, active);
        int c = 0;
        for (int j = 0; j < m; j++) {
            if (g[j] > 0) {
                double s = Math.sqrt(g[j]);
                double[] w = eig.vectors().column(j);
                for (int i = 0; i < d; i++) {
                    w[i] *= s;
                }
                scaled.setColumn(c++, w);
            }
        }
        Matrix p = scaled.times(scaled.transpose());
        p.symmetrizeInPlace();
        return new Result(p, theta, g, eig.vectors());
    }

    /**
     * A projector for a sequence of projections (one per solver iteration); see {@link Partial}.
     *
     * @return a new projector with its counters at zero
     */
    public static Partial partial() {
        return new Partial();
    }

    /**
     * Fantope projections that compute only the leading eigenpairs of Y when a certificate shows that the
     * others get weight zero, and the full decomposition otherwise. The result is the projection itself, not
     * an approximation of it.
     *
     * <p>For a request of m + 1 pairs (LAPACK dsyevr with an index range: the tridiagonal reduction, then
     * only m + 1 eigenpairs), θ_m is the water-filling shift of the m leading eigenvalues alone. The
     * partial result is used only when both hold:
     * <ol>
     *   <li>γ_{m+1} ≤ θ_m. Then every eigenvalue past the m-th gets g = 0 at θ_m, so φ(θ_m) over the whole
     *       spectrum is r: θ_m is the exact shift and P = Σ_{i≤m} g_i w_i w_iᵀ is the projection;</li>
     *   <li>the active pairs are converged: ‖Y W_a − W_a diag(γ_a)‖_F ≤ {@value #RESIDUAL_TOLERANCE}·‖Y‖_F.
     *       Since the projection is non-expansive, the returned P is then within √2 times that residual of the
     *       exact projection (Y is that close to a matrix whose exact eigenpairs these are).</li>
     * </ol>
     * Otherwise m doubles and the pairs are recomputed; once m + 1 would exceed D/2 (where a partial
     * decomposition no longer saves time) the full decomposition is used. The next call starts from the
     * number of pairs the last one needed plus a margin, since an iterative solver's successive matrices
     * have similar spectra.
     *
     * <p>Not thread-safe: one instance per solver run.
     */
    public static final class Partial {
        /** Relative residual (against ‖Y‖_F) that the active eigenpairs of a partial decomposition must meet. */
        public static final double RESIDUAL_TOLERANCE = 1e-9;
        private int next;
        private int partialCount;
        private int fullCount;
        private int regrowths;

        private Partial() {
        }

        /**
         * The projection of {@code symmetric} (lower triangle read, not modified) onto {@code F_r}.
         *
         * @param symmetric Y, D × D
         * @param r         the trace, 0 &lt; r ≤ D
         * @return the projection, identical to {@link FantopeProjection#project}'s to rounding
         */
        public Result project(Matrix symmetric, double r) {
            validate(symmetric, r);
            int d = symmetric.rows();
            int m = Math.max(next, (int) Math.ceil(r) + 8);
            while (m + 1 <= d / 2 && r < d) {
                SymmetricEigen eig = SymmetricEigen.top(symmetric, m + 1);
                double[] gamma = eig.values();
                double[] leading = java.util.Arrays.copyOf(gamma, m);
                double theta = shift(leading, r);
                if (gamma[m] <= theta) {
                    Matrix w = eig.vectors().leadingColumns(m);
                    Result result = fromSpectrum(new SymmetricEigen(leading, w), r);
                    int active = activeCount(result.weights());
                    if (converged(symmetric, w, leading, active)) {
                        partialCount++;
                        next = active + Math.max(8, active / 4);
                        return result;
                    }
                    break; // not converged to the tolerance: the full decomposition decides
                }
                regrowths++;
                m *= 2;
            }
            fullCount++;
            Result result = FantopeProjection.project(symmetric, r);
            int active = activeCount(result.weights());
            next = active + Math.max(8, active / 4);
            return result;
        }

        /**
         * Projections computed from a certified partial decomposition.
         *
         * @return the count
         */
        public int partialCount() {
            return partialCount;
        }

        /**
         * Projections that needed the full decomposition.
         *
         * @return the count
         */
        public int fullCount() {
            return fullCount;
        }

        /**
         * Partial decompositions discarded because γ_{m+1} &gt; θ_m (then m doubled).
         *
         * @return the count
         */
        public int regrowths() {
            return regrowths;
        }

        private static int activeCount(double[] weights) {
            int a = 0;
            for (double v : weights) {
                if (v > 0) {
                    a++;
                }
            }
            return a;
        }

        private static boolean converged(Matrix y, Matrix w, double[] gamma, int active) {
            if (active == 0) {
                return true;
            }
            Matrix wa = w.leadingColumns(active);
            Matrix full = y.copy();
            full.mirrorLowerToUpper();
            Matrix residual = full.times(wa);
            double[] rd = residual.data();
            double[] wd = wa.data();
            int d = y.rows();
            for (int j = 0; j < active; j++) {
                for (int i = 0; i < d; i++) {
                    rd[j * d + i] -= gamma[j] * wd[j * d + i];
                }
            }
            return residual.frobeniusNorm() <= RESIDUAL_TOLERANCE * full.frobeniusNorm();
        }
    }

    /** θ with φ(θ) = r, for eigenvalues {@code gamma} in descending order and 0 < r < D. */
    static double shift(double[] gamma, double r) {
        int d = gamma.length;
        double lo = gamma[d - 1] - 1.0; // φ(lo) = D > r
        double hi = gamma[0];           // φ(hi) = 0 < r
        double scale = Math.max(1.0, Math.max(Math.abs(gamma[0]), Math.abs(gamma[d - 1])));
        for (int it = 0; it < MAX_HALVINGS && hi - lo > 1e-14 * scale; it++) {
            double mid = 0.5 * (lo + hi);
            if (phi(gamma, mid) > r) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        double theta = 0.5 * (lo + hi);
        // exact on the linear piece: φ(θ) = c + Σ_{i∈A} (γ_i − θ) = r
        double sum = 0;
        int capped = 0;
        int inside = 0;
        for (double v : gamma) {
            double x = v - theta;
            if (x >= 1) {
                capped++;
            } else if (x > 0) {
                sum += v;
                inside++;
            }
        }
        if (inside > 0) {
            double exact = (sum + capped - r) / inside;
            if (Math.abs(exact - theta) <= Math.max(hi - lo, 1e-12 * scale)) {
                theta = exact;
            }
        }
        return theta;
    }

    static double phi(double[] gamma, double theta) {
        double s = 0;
        for (double v : gamma) {
            s += clamp01(v - theta);
        }
        return s;
    }

    private static double clamp01(double x) {
        return x <= 0 ? 0 : x >= 1 ? 1 : x;
    }
}
