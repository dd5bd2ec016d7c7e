package io.dpspectra.metrics;

import io.dpspectra.data.GramPass;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;

/**
 * How much of the raw data's variance a release's k features capture, against the best any k linear features
 * of the raw columns can: the question a release's own preprocessing cannot answer, because it only compares
 * the release with exact PCA of the rows as the release saw them (clamped, scaled, clipped, centred). A
 * preprocessing that destroyed the signal scores well there and badly here.
 *
 * <p>For raw rows x (n × p) and the same rows preprocessed, y (n × q), and the release's components U (q × k):
 * the scores are Z = YU. With X_c the centred raw columns (or X_z, also scaled to unit variance: z-scores, as a
 * data scientist would standardise them), the captured share is ‖P_Z X_c‖²_F / Σ_{i≤k} λ_i(X_cᵀX_c), where P_Z
 * projects onto the centred span of Z's columns in ℝⁿ: the share of the raw variance that the best linear
 * reconstruction from the k scores explains, over what the top-k principal-component scores explain (the best
 * k features). It is in [0, 1], 1 only when the scores span the raw top-k principal scores. The same number
 * for the exact top-k eigenvectors of YᵀY (the release's target) is what the preprocessing itself kept.
 *
 * <p>Not private: an evaluation of data the caller holds. Cost: one pass over both row sources together; memory
 * (p + q + 1)² doubles.
 *
 * @param rows          n
 * @param centred       the captured share of the centred raw columns' variance
 * @param zScored       the captured share of the z-scored raw columns' variance
 * @param keptCentred   the same for the exact top-k of the preprocessed rows: what the preprocessing kept
 * @param keptZScored   the same, z-scored
 */
public record RawVarianceCapture(long rows, double centred, double zScored, double keptCentred, double keptZScored) {

    /**
     * One pass over {@code raw} and {@code preprocessed} (the same rows, in the same order).
     *
     * @param raw          the raw selected columns (p)
     * @param preprocessed the rows as the release saw them (q)
     * @param components   the release's components, q × k. Not modified.
     * @return the shares
     */
    public static RawVarianceCapture of(RowSource raw, RowSource preprocessed, Matrix components) {
        int p = raw.dimension();
        int q = preprocessed.dimension();
        int k = components.cols();
        if (components.rows() != q) {
            throw new IllegalArgumentException("the components have " + components.rows() + " rows but the "
                    + "preprocessed rows have " + q + " columns");
        }
        GramPass pass = GramPass.of(new Zipped(raw, preprocessed));
        Matrix g = pass.gram();
        long n = pass.rows();
        int one = p + q;
        double[] sx = new double[p];
        double[] sy = new double[q];
        for (int i = 0; i < p; i++) {
            sx[i] = g.get(i, one);
        }
        for (int i = 0; i < q; i++) {
            sy[i] = g.get(p + i, one);
        }
        Matrix cx = new Matrix(p, p);
        for (int i = 0; i < p; i++) {
            for (int j = 0; j < p; j++) {
                cx.set(i, j, g.get(i, j) - sx[i] * sx[j] / n);
            }
        }
        Matrix cyy = new Matrix(q, q);
        Matrix gyy = new Matrix(q, q);
        for (int i = 0; i < q; i++) {
            for (int j = 0; j < q; j++) {
                gyy.set(i, j, g.get(p + i, p + j));
                cyy.set(i, j, g.get(p + i, p + j) - sy[i] * sy[j] / n);
            }
        }
        Matrix cyx = new Matrix(q, p);
        for (int i = 0; i < q; i++) {
            for (int j = 0; j < p; j++) {
                cyx.set(i, j, g.get(p + i, j) - sy[i] * sx[j] / n);
            }
        }
        double[] scale = new double[p];
        for (int j = 0; j < p; j++) {
            double v = cx.get(j, j);
            scale[j] = v > 0 ? 1 / Math.sqrt(v) : 0;
        }
        Matrix cz = new Matrix(p, p);
        Matrix czyx = new Matrix(q, p);
        for (int i = 0; i < p; i++) {
            for (int j = 0; j < p; j++) {
                cz.set(i, j, cx.get(i, j) * scale[i] * scale[j]);
            }
        }
        for (int i = 0; i < q; i++) {
            for (int j = 0; j < p; j++) {
                czyx.set(i, j, cyx.get(i, j) * scale[j]);
            }
        }
        int kk = Math.min(k, p);
        double bestC = topSum(cx, kk);
        double bestZ = topSum(cz, kk);
        Matrix target = SymmetricEigen.top(gyy, Math.min(k, q)).vectors();
        return new RawVarianceCapture(n, captured(components, cyy, cyx, bestC), captured(components, cyy, czyx, bestZ),
                captured(target, cyy, cyx, bestC), captured(target, cyy, czyx, bestZ));
    }

    /** tr((WᵀCyx)ᵀ (WᵀCyyW)⁺ (WᵀCyx)) / best, clamped to [0, 1]. */
    private static double captured(Matrix w, Matrix cyy, Matrix cyx, double best) {
        if (!(best > 0)) {
            return 0;
        }
        Matrix zz = w.transposeTimes(cyy.times(w));
        Matrix zx = w.transposeTimes(cyx);
        zz.symmetrizeInPlace();
        SymmetricEigen e = SymmetricEigen.of(zz);
        double[] ev = e.values();
        Matrix v = e.vectors();
        double max = 0;
        for (double x : ev) {
            max = Math.max(max, Math.abs(x));
        }
        double s = 0;
        Matrix proj = v.transposeTimes(zx); // rows: eigen-directions of the scores
        for (int a = 0; a < ev.length; a++) {
            if (ev[a] > 1e-12 * max && ev[a] > 0) {
                double row = 0;
                for (int j = 0; j < proj.cols(); j++) {
                    row += proj.get(a, j) * proj.get(a, j);
                }
                s += row / ev[a];
            }
        }
        return Math.max(0, Math.min(1, s / best));
    }

    private static double topSum(Matrix c, int k) {
        Matrix copy = c.copy();
        copy.symmetrizeInPlace();
        double s = 0;
        for (double v : SymmetricEigen.top(copy, k).values()) {
            s += Math.max(0, v);
        }
        return s;
    }

    /** [x, y, 1] for the rows of two sources read together. */
    private record Zipped(RowSource a, RowSource b) implements RowSource {
        @Override
        public int dimension() {
            return a.dimension() + b.dimension() + 1;
        }

        @Override
        public RowCursor open() {
            RowCursor ca = a.open();
            RowCursor cb = b.open();
            double[] ra = new double[a.dimension()];
            double[] rb = new double[b.dimension()];
            return new RowCursor() {
                @Override
                public boolean next(double[] into) {
                    boolean ha = ca.next(ra);
                    boolean hb = cb.next(rb);
                    if (ha != hb) {
                        throw new IllegalStateException("the raw and the preprocessed rows differ in number (at "
                                + ca.position() + "); they must be the same rows");
                    }
                    if (!ha) {
                        return false;
                    }
                    System.arraycopy(ra, 0, into, 0, ra.length);
                    System.arraycopy(rb, 0, into, ra.length, rb.length);
                    into[ra.length + rb.length] = 1;
                    return true;
                }

                @Override
                public String position() {
                    return ca.position();
                }

                @Override
                public long rowsRead() {
                    return ca.rowsRead();
                }

                @Override
                public void close() {
                    try {
                        ca.close();
                    } finally {
                        cb.close();
                    }
                }
            };
        }
    }
}
