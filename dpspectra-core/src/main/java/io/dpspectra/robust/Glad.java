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
    private static final long PARALLEL_WORK = 1L << 17;

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
        double[] res = new double[d];
        double sum = 0;
        for (int t = 0; t < m; t++) {
            double[] x = rows[idx == null ? t : idx[t]];
            sum += residualNorm(x, vd, d, r, y, res);
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
                addRowTerm(rows[idx == null ? t : idx[t]], vd, d, r, tolerance, y, res, acc);
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
     * Adds one row's term (x − VVᵀx)(xᵀV)/ρ to {@code acc} (D × r, column-major) unless ρ ≤ τ₀.
     *
     * <p>The arithmetic is fixed, whatever the loop structure: y_c = Vᵀx by four partial sums over j mod 4 (the
     * last D mod 4 terms into the first), combined as (s0 + s1) + (s2 + s3); each residual entry as
     * ((x_j − v_0j·y_0) − v_1j·y_1) − …; ρ² summed in j order (for r = 2, even and odd j in two sums). The loops
     * take up to four columns per pass over the row, so the row is read from memory once per pass and the
     * residual and update loops run over j without reductions (compiled to vector instructions).
     */
    static void addRowTerm(double[] x, double[] vd, int d, int r, double tolerance, double[] y, double[] res,
                           double[] acc) {
        double rho = residualNorm(x, vd, d, r, y, res);
        if (!(rho > tolerance)) {
            return;
        }
        int c = 0;
        for (; c + 3 < r; c += 4) {
            int o0 = c * d;
            int o1 = o0 + d;
            int o2 = o1 + d;
            int o3 = o2 + d;
            double w0 = y[c] / rho;
            double w1 = y[c + 1] / rho;
            double w2 = y[c + 2] / rho;
            double w3 = y[c + 3] / rho;
            for (int j = 0; j < d; j++) {
                double e = res[j];
                acc[o0 + j] += e * w0;
                acc[o1 + j] += e * w1;
                acc[o2 + j] += e * w2;
                acc[o3 + j] += e * w3;
            }
        }
        for (; c < r; c++) {
            int o0 = c * d;
            double w0 = y[c] / rho;
            for (int j = 0; j < d; j++) {
                acc[o0 + j] += res[j] * w0;
            }
        }
    }

    /**
     * ρ = ‖x − V(Vᵀx)‖ with y = Vᵀx written to {@code y} and the residual to {@code res} (length ≥ D); see
     * {@link #addRowTerm} for the fixed order of the arithmetic.
     */
    static double residualNorm(double[] x, double[] vd, int d, int r, double[] y, double[] res) {
        int c = 0;
        for (; c + 3 < r; c += 4) {
            dot4(x, vd, c * d, d, y, c);
        }
        for (; c < r; c++) {
            y[c] = dot(x, vd, c * d, d);
        }
        System.arraycopy(x, 0, res, 0, d);
        c = 0;
        for (; c + 3 < r; c += 4) {
            int o0 = c * d;
            int o1 = o0 + d;
            int o2 = o1 + d;
            int o3 = o2 + d;
            double y0 = y[c];
            double y1 = y[c + 1];
            double y2 = y[c + 2];
            double y3 = y[c + 3];
            for (int j = 0; j < d; j++) {
                res[j] = res[j] - vd[o0 + j] * y0 - vd[o1 + j] * y1 - vd[o2 + j] * y2 - vd[o3 + j] * y3;
            }
        }
        for (; c < r; c++) {
            int o0 = c * d;
            double y0 = y[c];
            for (int j = 0; j < d; j++) {
                res[j] -= vd[o0 + j] * y0;
            }
        }
        double s0 = 0;
        double s1 = 0;
        int j = 0;
        if (r == 2) {
            for (; j + 1 < d; j += 2) {
                s0 += res[j] * res[j];
                s1 += res[j + 1] * res[j + 1];
            }
        }
        for (; j < d; j++) {
            s0 += res[j] * res[j];
        }
        return Math.sqrt(s0 + s1);
    }

    /** y[c..c+3] = the dot products of x with columns c..c+3 (at offset off, stride d), in one pass over x. */
    private static void dot4(double[] x, double[] v, int off, int d, double[] y, int c) {
        int o1 = off + d;
        int o2 = o1 + d;
        int o3 = o2 + d;
        double a0 = 0;
        double a1 = 0;
        double a2 = 0;
        double a3 = 0;
        double b0 = 0;
        double b1 = 0;
        double b2 = 0;
        double b3 = 0;
        double c0 = 0;
        double c1 = 0;
        double c2 = 0;
        double c3 = 0;
        double e0 = 0;
        double e1 = 0;
        double e2 = 0;
        double e3 = 0;
        int j = 0;
        for (; j + 3 < d; j += 4) {
            double x0 = x[j];
            double x1 = x[j + 1];
            double x2 = x[j + 2];
            double x3 = x[j + 3];
            a0 += x0 * v[off + j];
            a1 += x1 * v[off + j + 1];
            a2 += x2 * v[off + j + 2];
            a3 += x3 * v[off + j + 3];
            b0 += x0 * v[o1 + j];
            b1 += x1 * v[o1 + j + 1];
            b2 += x2 * v[o1 + j + 2];
            b3 += x3 * v[o1 + j + 3];
            c0 += x0 * v[o2 + j];
            c1 += x1 * v[o2 + j + 1];
            c2 += x2 * v[o2 + j + 2];
            c3 += x3 * v[o2 + j + 3];
            e0 += x0 * v[o3 + j];
            e1 += x1 * v[o3 + j + 1];
            e2 += x2 * v[o3 + j + 2];
            e3 += x3 * v[o3 + j + 3];
        }
        for (; j < d; j++) {
            double xj = x[j];
            a0 += xj * v[off + j];
            b0 += xj * v[o1 + j];
            c0 += xj * v[o2 + j];
            e0 += xj * v[o3 + j];
        }
        y[c] = (a0 + a1) + (a2 + a3);
        y[c + 1] = (b0 + b1) + (b2 + b3);
        y[c + 2] = (c0 + c1) + (c2 + c3);
        y[c + 3] = (e0 + e1) + (e2 + e3);
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
