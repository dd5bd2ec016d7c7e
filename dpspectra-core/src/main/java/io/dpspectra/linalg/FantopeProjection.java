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
 * weights. Memory: O(D²).
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
     * @param weights      the eigenvalues g of P, in the order of the eigenvalues of Y (descending)
     * @param eigenvectors W, D × D: column j is the eigenvector of Y (and of P) for {@code weights[j]}
     */
    public record Result(Matrix projection, double theta, double[] weights, Matrix eigenvectors) {
    }

    /** The projection of {@code symmetric} onto {@code F_r}; see {@link #project}. Not modified: symmetric. */
    public static Matrix of(Matrix symmetric, double r) {
        return project(symmetric, r).projection();
    }

    /**
     * Projects a symmetric matrix onto the Fantope of trace {@code r}.
     *
     * @param symmetric Y, D × D; only its lower triangle is read. Not modified.
     * @param r         the trace, {@code 0 < r ≤ D} (an integer rank in both papers; any real value works)
     * @throws IllegalArgumentException if Y is not square, has a NaN or infinite entry, or r is out of range
     */
    public static Result project(Matrix symmetric, double r) {
        symmetric.requireSquare();
        int d = symmetric.rows();
        if (d == 0) {
            throw new IllegalArgumentException("cannot project a 0 x 0 matrix onto a Fantope");
        }
        if (!(r > 0) || r > d) {
            throw new IllegalArgumentException("Fantope trace r must be in (0, " + d + "], got " + r);
        }
        SymmetricEigen eig = SymmetricEigen.of(symmetric);
        double[] gamma = eig.values();
        double theta = r == d ? gamma[d - 1] - 1.0 : shift(gamma, r);
        double[] g = new double[d];
        int active = 0;
        for (int i = 0; i < d; i++) {
            g[i] = r == d ? 1.0 : clamp01(gamma[i] - theta);
            if (g[i] > 0) {
                active++;
            }
        }
        // P = Σ_{g_i > 0} g_i w_i w_iᵀ = (W_a diag(√g_a)) (W_a diag(√g_a))ᵀ
        Matrix scaled = new Matrix(d, active);
        int c = 0;
        for (int j = 0; j < d; j++) {
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
