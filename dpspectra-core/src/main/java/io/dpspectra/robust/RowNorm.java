package io.dpspectra.robust;

import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import java.util.ArrayList;
import java.util.List;

/**
 * How the robust-PCA methods bring each row to norm at most 1 before fitting. Both are per-record maps
 * that take no data-dependent constant, so they cost no privacy.
 *
 * <p>Reference: papers/private-robust-pca-grassmannian.txt §1.1 ("normalizing all points to the sphere");
 * a zero row stays zero (it adds nothing to the GLAD or REAPER gradients).
 */
public enum RowNorm {
    /** x ← x/‖x‖ (a zero row stays zero): the paper's choice and the default. */
    SPHERE,
    /** x ← x·min(1, 1/‖x‖). */
    CLIP_TO_UNIT_BALL;

    /**
     * Reads every row of {@code rows} into memory, mapped; throws on a non-finite entry, naming the row.
     *
     * @param rows the rows to read (one pass)
     * @return a new N × D array of mapped rows
     */
    public double[][] load(RowSource rows) {
        int d = rows.dimension();
        List<double[]> out = new ArrayList<>();
        try (RowCursor c = rows.open()) {
            double[] buf = new double[d];
            while (c.next(buf)) {
                out.add(map(buf.clone(), out.size()));
            }
        } catch (Exception e) {
            if (e instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException("could not read the rows: " + e.getMessage(), e);
        }
        return out.toArray(new double[0][]);
    }

    /**
     * A mapped copy of {@code rows}; throws on ragged rows or non-finite entries.
     *
     * @param rows the rows, N × D. Not modified.
     * @return a new N × D array of mapped rows
     */
    public double[][] apply(double[][] rows) {
        if (rows.length == 0) {
            throw new IllegalArgumentException("no rows to fit; the input is empty");
        }
        int d = rows[0].length;
        double[][] out = new double[rows.length][];
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].length != d) {
                throw new IllegalArgumentException("row " + i + " has " + rows[i].length + " values but row 0 has " + d
                        + "; every row needs the same number of columns");
            }
            out[i] = map(rows[i].clone(), i);
        }
        return out;
    }

    /** Maps one row in place and returns it. */
    double[] map(double[] x, int index) {
        double scale = 0;
        double ssq = 1;
        for (double v : x) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("row " + index + " has a non-finite value (" + v
                        + "); remove or impute it before fitting");
            }
            if (v != 0) {
                double a = Math.abs(v);
                if (scale < a) {
                    ssq = 1 + ssq * (scale / a) * (scale / a);
                    scale = a;
                } else {
                    ssq += (a / scale) * (a / scale);
                }
            }
        }
        double norm = scale * Math.sqrt(ssq);
        if (norm == 0 || (this == CLIP_TO_UNIT_BALL && norm <= 1)) {
            return x;
        }
        for (int j = 0; j < x.length; j++) {
            x[j] /= norm;
        }
        return x;
    }

    /**
     * In words, for guarantees.
     *
     * @return the map in words, for the privacy unit of a guarantee
     */
    public String describe() {
        return this == SPHERE ? "each row divided by its L2 norm; zero rows kept" : "rows with L2 norm > 1 scaled to norm 1";
    }
}
