package io.dpspectra.robust;

import io.dpspectra.linalg.Matrix;
import java.util.stream.IntStream;

/**
 * The Grassmannian least-absolute-deviations (GLAD) energy F(V; X) = (1/m) Σ ‖x − VVᵀx‖ over a set of rows
 * and its Riemannian gradient, for an orthonormal D × r basis V. Rows are held in memory (one array per
 * row) and addressed by index, so a minibatch is a list of indices; nothing D × D is formed.
 *
 * <p>Sign. The expression printed as Maunu–Yu–Lerman eq. (2.1), G(V) = (1/m) Σ (x − VVᵀx)(xᵀV)/‖x − VVᵀx‖,
 * is MINUS the Riemannian gradient of F (differentiate ‖Q_V x‖ = (‖x‖² − ‖Vᵀx‖²)^½); stepping along −(2.1)
 * as printed climbs the energy. {@link #descentDirection} returns G itself and {@link #riemannianGradient}
 * returns −G; the descent methods step along +G. Gaussian noise is symmetric, so privacy is unaffected.
 *
 * <p>Numerics: the residual x − V(Vᵀx) is formed explicitly for every row (computing ‖Q_V x‖² as
 * ‖x‖² − ‖Vᵀx‖² cancels catastrophically near convergence), and each row contributes (Q_V x)(xᵀV)/ρ
 * directly, not as a difference of two large terms. Rows with ρ ≤ τ₀ lie on the subspace and contribute 0.
 *
 * <p>Sensitivity (the privacy unit of the private descents): one row on the unit sphere contributes a
 * term of Frobenius norm ‖Vᵀx‖ ≤ 1, so replacing one row moves the sum by at most 2.
 *
 * <p>Reference: papers/private-robust-pca-grassmannian.txt eq. (GLAD), eq. (2.1) with its sign corrected.
 *
 * <p>Cost: O(m D r) per evaluation, split over the common fork-join pool in fixed blocks of rows summed in a
 * fixed order (the result does not depend on the number of threads); memory O(D r) per block.
 */
public final class Glad {
    /** Residuals at or below this norm count as on the subspace (the reference GGD code's rule). */
    public static final double DEFAULT_TOLERANCE = 1e-12;

    /** Rows per block of the parallel sum. */
    private static final int BLOCK = 128;
    /** Below this much work (m·D·r) the sum runs on the calling thread. */
    private static final long PARALLEL_WORK = 1L << 20;

    private Glad() {
    }

    /**
     * F(V; rows[idx]) = mean over the indexed rows of ‖x − VVᵀx‖; {@code idx == null} means all rows.
     *
     * @param rows the rows x (N × D, each of norm ≤ 1). Not modified.
     * @param idx  the indices of the rows to average over, or null for all rows
     * @param v    D × r, orthonormal columns. Not modified.
     * @return F(V), ≥ 0
     */
    public static double objective(double[][] rows, int[] idx, Matrix v) {
        int m = idx == null ? rows.length : idx.length;
        if (m == 0) {
            throw new IllegalArgumentException("the GLAD energy needs at least one row, got none");
        }
        double[] vd = v.data();
        int d = v.rows();
        int r = v.cols();
        double[] y = new double[r];
        double sum = 0;
        for (int t = 0; t < m; t++) {
            double[] x = rows[idx == null ? t : idx[t]];
            sum += residualNorm(x, vd, d, r, y, null);
        }
        return sum / m;
    }

    /**
     * G(V) = (1/divisor)·Σ_{indexed rows with ρ &gt; τ₀} (x − VVᵀx)(xᵀV)/ρ, the descent direction (eq. (2.1) as
     * printed, = −grad F when divisor is the number of indexed rows). The divisor is a separate argument because
     * the private methods divide by a public constant (N, the fixed batch size B, or B under Poisson sampling),
     * never by a realised batch size. {@code idx == null} means all rows.
     *
     * @param rows      the rows x (N × D). Not modified.
     * @param idx       the indices of the rows to sum over, or null for all rows
     * @param v         D × r, orthonormal columns. Not modified.
     * @param divisor   the public constant the sum is divided by, &gt; 0
     * @param tolerance τ₀: rows whose residual norm ρ is at most τ₀ are left out
     * @return a new D × r matrix G(V)
     */
    public static Matrix descentDirection(double[][] rows, int[] idx, Matrix v, double divisor, double tolerance) {
        int m = idx == null ? rows.length : idx.length;
        int d = v.rows();
        int r = v.cols();
        double[] vd = v.data();
        int blocks = (m + BLOCK - 1) / BLOCK;
        double[][] partial = new double[blocks][];
        IntStream range = IntStream.range(0, blocks);
        if ((long) m * d * r >= PARALLEL_WORK && blocks > 1) {
            range = range.parallel();
        }
        range.forEach(b -> {
            double[] acc = new double[d * r];
            double[] y = new double[r];
            double[] res = new double[d];
            for (int t = b * BLOCK, end = Math.min(m, t + BLOCK); t < end; t++) {
                double[] x = rows[idx == null ? t : idx[t]];
                double rho = residualNorm(x, vd, d, r, y, res);
                if (rho > tolerance) {
                    for (int c = 0; c < r; c++) {
                        double w = y[c] / rho;
                        int off = c * d;
                        for (int j = 0; j < d; j++) {
                            acc[off + j] += res[j] * w;
                        }
                    }
                }
            }
            partial[b] = acc;
        });
        double[] g = new double[d * r];
        for (double[] p : partial) {
            for (int i = 0; i < g.length; i++) {
                g[i] += p[i];
            }
        }
        double inv = 1.0 / divisor;
        for (int i = 0; i < g.length; i++) {
            g[i] *= inv;
        }
        return Matrix.wrapColumnMajor(d, r, g);
    }

    /**
     * The Riemannian gradient of F at V over all rows: −{@link #descentDirection} with divisor N.
     *
     * @param rows the rows x (N × D). Not modified.
     * @param v    D × r, orthonormal columns. Not modified.
     * @return a new D × r matrix, tangent at V
     */
    public static Matrix riemannianGradient(double[][] rows, Matrix v) {
        return descentDirection(rows, null, v, rows.length, 0.0).scaled(-1);
    }

    /**
     * ρ = ‖x − V(Vᵀx)‖ with y = Vᵀx written to {@code y} and, if {@code res} is not null, the residual to res.
     * Four partial sums per reduction keep the loops pipelined.
     */
    static double residualNorm(double[] x, double[] vd, int d, int r, double[] y, double[] res) {
        for (int c = 0; c < r; c++) {
            y[c] = dot(x, vd, c * d, d);
        }
        double s0 = 0;
        double s1 = 0;
        int j = 0;
        if (r == 2) {
            double y0 = y[0];
            double y1 = y[1];
            for (; j + 1 < d; j += 2) {
                double e0 = x[j] - vd[j] * y0 - vd[d + j] * y1;
                double e1 = x[j + 1] - vd[j + 1] * y0 - vd[d + j + 1] * y1;
                if (res != null) {
                    res[j] = e0;
                    res[j + 1] = e1;
                }
                s0 += e0 * e0;
                s1 += e1 * e1;
            }
        }
        for (; j < d; j++) {
            double e = x[j];
            for (int c = 0; c < r; c++) {
                e -= vd[c * d + j] * y[c];
            }
            if (res != null) {
                res[j] = e;
            }
            s0 += e * e;
        }
        return Math.sqrt(s0 + s1);
    }

    private static double dot(double[] x, double[] v, int off, int d) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int j = 0;
        for (; j + 3 < d; j += 4) {
            s0 += x[j] * v[off + j];
            s1 += x[j + 1] * v[off + j + 1];
            s2 += x[j + 2] * v[off + j + 2];
            s3 += x[j + 3] * v[off + j + 3];
        }
        for (; j < d; j++) {
            s0 += x[j] * v[off + j];
        }
        return (s0 + s1) + (s2 + s3);
    }
}
