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
 */
public record SpectrumCheck(double bound, long rows, double[] eigenvalues, double[] sin2, double scoreCorrelation) {
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
        double[] lambda = SymmetricEigen.of(m).values();
        double effective = centre ? bound + meanNorm : bound;
        double trace = 0;
        for (double v : lambda) {
            trace += Math.max(0, v);
        }
        double fill = Math.min(1, Math.max(Double.MIN_NORMAL, trace / (n * effective * effective)));
        ReleaseFacts own = new ReleaseFacts(n, d, facts.components(), facts.budget(), facts.neighbouring(), effective,
                fill);
        return new SpectrumCheck(effective, n, lambda, ReleaseAdvisor.sin2OnSpectrum(algorithm, own, lambda),
                ReleaseAdvisor.scoreCorrelationOnSpectrum(algorithm, own, lambda));
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
     * True when the rows' scores on the release are predicted to share less than half of their variance with the
     * exact top-k scores, on average over the k directions (a squared correlation below 1/2).
     *
     * @return whether the release would be close to useless for these rows
     */
    public boolean useless() {
        return scoreCorrelation < 0.5;
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
