package io.dpspectra.advice;

import io.dpspectra.data.Clipping;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;

/**
 * The exact spectrum of rows as a private estimator will see them (clipped to a bound, centred if asked), for
 * the data's curator to check a planned release against its own data before spending: NOT private, never
 * part of a release. The public advice ({@link ReleaseAdvisor#advise}) has to assume how the variance is
 * spread; this check knows it, so it also catches data where the wanted directions hold a large share but are
 * not separated from the next ones (a k-subspace that no release, private or not, pins down), or where
 * clipping leaves little of them.
 *
 * @param bound      the bound the rows were clipped to (after centring: the centred rows' bound, bound + ‖mean‖)
 * @param rows       n
 * @param eigenvalues all d eigenvalues of Σ clip(x)clip(x)ᵀ (minus n·mean·meanᵀ when centred), descending
 * @param sin2       the predicted sin² of each of the top k directions, or null when the algorithm has no prediction
 * @param scoreCorrelation the predicted mean squared correlation between the rows' scores on the release and on
 *                   the exact top-k directions ({@link ReleaseAdvisor#scoreCorrelationOnSpectrum}); NaN without one
 * @param clippingKept what the clipping alone keeps of the rows' top-k scores: the mean squared canonical
 *                   correlation between the rows' projection THROUGH the clipping onto the exact top-k directions of
 *                   the clipped rows (a noiseless release, as {@code transform} applies it) and the exact top-k
 *                   principal-component scores of the rows before the bound (1: the clipping loses nothing)
 */
public record SpectrumCheck(double bound, long rows, double[] eigenvalues, double[] sin2, double scoreCorrelation,
                            double clippingKept) {
    /** The largest d the check forms a d × d matrix for. */
    public static final int MAX_DIMENSION = 2000;

    /**
     * The check of {@code algorithm} on {@code data}.
     *
     * @param algorithm the algorithm
     * @param data      the rows before the bound (after the schema's map or the CSV's column selection)
     * @param bound     the row bound B, given, or a stand-in for a private bound not drawn yet (the exact quantile)
     * @param centre    whether the estimator sees centred rows
     * @param facts     the public facts (n, d, k, the estimator's budget, the relation); their bound and fill are
     *                  replaced by the data's
     * @return the check
     */
    public static SpectrumCheck of(String algorithm, RowSource data, double bound, boolean centre, ReleaseFacts facts) {
        int d = data.dimension();
        if (d > MAX_DIMENSION) {
            throw new IllegalArgumentException("the spectrum check forms a d x d matrix; d = " + d + " is above "
                    + MAX_DIMENSION);
        }
        RowSource withOne = new AppendOne(Clipping.l2(bound).clip(data));
        GramPass pass = GramPass.of(withOne);
        Matrix g = pass.gram();
        long n = pass.rows();
        Matrix m = new Matrix(d, d);
        double[] mean = new double[d];
        for (int i = 0; i < d; i++) {
            mean[i] = g.get(i, d) / n;
        }
        double meanNorm = io.dpspectra.linalg.Vectors.norm2(mean);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                m.set(i, j, g.get(i, j) - (centre ? n * mean[i] * mean[j] : 0));
            }
        }
        SymmetricEigen eigen = SymmetricEigen.of(m);
        double[] lambda = eigen.values();
        double effective = centre ? bound + meanNorm : bound;
        double trace = 0;
        for (double v : lambda) {
            trace += Math.max(0, v);
        }
        double fill = Math.min(1, Math.max(Double.MIN_NORMAL, trace / (n * effective * effective)));
        ReleaseFacts own = new ReleaseFacts(n, d, facts.components(), facts.budget(), facts.neighbouring(), effective,
                fill);
        int k = facts.components();
        return new SpectrumCheck(effective, n, lambda, ReleaseAdvisor.sin2OnSpectrum(algorithm, own, lambda),
                ReleaseAdvisor.scoreCorrelationOnSpectrum(algorithm, own, lambda),
                clippingKept(data, bound, eigen.vectors().leadingColumns(k), k));
    }

    /**
     * The mean squared canonical correlation between the rows clipped to {@code bound} and projected onto
     * {@code clippedTop} (the clipped rows' top-k directions) and the rows' exact top-k principal-component scores
     * before the bound (centred): two more passes over the rows.
     */
    static double clippingKept(RowSource data, double bound, Matrix clippedTop, int k) {
        int d = data.dimension();
        GramPass raw = GramPass.of(new AppendOne(data));
        Matrix g = raw.gram();
        long n = raw.rows();
        if (n < 2) {
            return Double.NaN;
        }
        Matrix cov = new Matrix(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                cov.set(i, j, g.get(i, j) - g.get(i, d) * g.get(j, d) / n);
            }
        }
        if (!cov.isFinite()) {
            return Double.NaN; // rows too large to square (the clipped rows were fine): no figure
        }
        Matrix rawTop = SymmetricEigen.of(cov).vectors().leadingColumns(k);
        // the 2k scores of every row: through the clipping onto the clipped rows' directions, and as they are onto
        // the rows' own; their covariance gives the canonical correlations
        Matrix sums = new Matrix(2 * k + 1, 2 * k + 1);
        double[] x = new double[d];
        double[] clipped = new double[d];
        double[] z = new double[2 * k + 1];
        try (io.dpspectra.data.RowCursor c = data.open()) {
            while (c.next(x)) {
                double norm = io.dpspectra.linalg.Vectors.norm2(x);
                double f = norm > bound ? bound / norm : 1;
                for (int j = 0; j < d; j++) {
                    clipped[j] = x[j] * f;
                }
                for (int a = 0; a < k; a++) {
                    double p = 0;
                    double q = 0;
                    for (int j = 0; j < d; j++) {
                        p += clipped[j] * clippedTop.get(j, a);
                        q += x[j] * rawTop.get(j, a);
                    }
                    z[a] = p;
                    z[k + a] = q;
                }
                z[2 * k] = 1;
                for (int a = 0; a <= 2 * k; a++) {
                    for (int b = 0; b <= a; b++) {
                        sums.add(a, b, z[a] * z[b]);
                    }
                }
            }
        }
        Matrix s = new Matrix(2 * k, 2 * k);
        for (int a = 0; a < 2 * k; a++) {
            for (int b = 0; b <= a; b++) {
                double v = sums.get(a, b) / n - sums.get(2 * k, a) / n * sums.get(2 * k, b) / n;
                s.set(a, b, v);
                s.set(b, a, v);
            }
        }
        if (!s.isFinite()) {
            return Double.NaN;
        }
        Matrix wa = inverseSqrt(block(s, 0, k));
        Matrix wb = inverseSqrt(block(s, k, k));
        Matrix cross = new Matrix(k, k);
        for (int a = 0; a < k; a++) {
            for (int b = 0; b < k; b++) {
                cross.set(a, b, s.get(a, k + b));
            }
        }
        Matrix whitened = wa.times(cross).times(wb);
        double f2 = whitened.frobeniusNorm();
        return Double.isFinite(f2) ? Math.min(1, f2 * f2 / k) : Double.NaN;
    }

    /** The k × k diagonal block of {@code s} from {@code from}. */
    private static Matrix block(Matrix s, int from, int k) {
        Matrix b = new Matrix(k, k);
        for (int a = 0; a < k; a++) {
            for (int c = 0; c < k; c++) {
                b.set(a, c, s.get(from + a, from + c));
            }
        }
        return b;
    }

    /** S^(−1/2) of a covariance, directions without variance dropped (they correlate with nothing). */
    private static Matrix inverseSqrt(Matrix s) {
        SymmetricEigen e = SymmetricEigen.of(s);
        int k = s.rows();
        double top = Math.max(e.values()[0], 0);
        Matrix out = new Matrix(k, k);
        for (int i = 0; i < k; i++) {
            double v = e.values()[i];
            if (!(v > 1e-12 * top) || !(v > 0)) {
                continue;
            }
            double w = 1 / Math.sqrt(v);
            for (int a = 0; a < k; a++) {
                for (int b = 0; b < k; b++) {
                    out.add(a, b, w * e.vectors().get(a, i) * e.vectors().get(b, i));
                }
            }
        }
        return out;
    }

    /**
     * The mean predicted sin² over the k directions (NaN without a prediction).
     *
     * @return the mean sin², or NaN
     */
    public double meanSin2() {
        if (sin2 == null) {
            return Double.NaN;
        }
        double s = 0;
        for (double v : sin2) {
            s += v;
        }
        return s / sin2.length;
    }

    /**
     * True when the rows' scores on the release, through the clipping, are predicted to share less than half of
     * their variance with the exact top-k scores of the rows, on average over the k directions
     * ({@link #predictedThroughClipping} below 1/2).
     *
     * @return whether the release would be close to useless for these rows
     */
    public boolean useless() {
        return predictedThroughClipping() < 0.5;
    }

    /**
     * The rows' scores on the release, through the clipping (as {@code transform} applies it), against the exact
     * top-k scores of the rows before the bound: the release's predicted {@link #scoreCorrelation} times what
     * the clipping alone keeps ({@link #clippingKept}; 1 when not measured).
     *
     * @return the predicted mean squared correlation, in [0, 1]
     */
    public double predictedThroughClipping() {
        return scoreCorrelation * (Double.isNaN(clippingKept) ? 1 : clippingKept);
    }

    /**
     * The share of the trace held by eigenvalue i (0-based).
     *
     * @param i the eigenvalue's index, 0-based
     * @return its share of the trace
     */
    public double share(int i) {
        double t = 0;
        for (double v : eigenvalues) {
            t += Math.max(0, v);
        }
        return t > 0 ? Math.max(0, eigenvalues[i]) / t : 0;
    }

    /** Rows with a constant 1 appended, so that XᵀX also holds the column sums and n. */
    private record AppendOne(RowSource inner) implements RowSource {
        @Override
        public int dimension() {
            return inner.dimension() + 1;
        }

        @Override
        public io.dpspectra.data.RowCursor open() {
            io.dpspectra.data.RowCursor c = inner.open();
            double[] buf = new double[inner.dimension()];
            return new io.dpspectra.data.RowCursor() {
                @Override
                public boolean next(double[] into) {
                    if (!c.next(buf)) {
                        return false;
                    }
                    System.arraycopy(buf, 0, into, 0, buf.length);
                    into[buf.length] = 1;
                    return true;
                }

                @Override
                public String position() {
                    return c.position();
                }

                @Override
                public long rowsRead() {
                    return c.rowsRead();
                }

                @Override
                public void close() {
                    c.close();
                }
            };
        }
    }
}
