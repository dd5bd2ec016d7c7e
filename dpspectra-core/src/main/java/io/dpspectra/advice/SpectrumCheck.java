package io.dpspectra.advice;

import io.dpspectra.data.AdaptiveQuantile;
import io.dpspectra.data.PrivateBoundedMean;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The exact spectrum of rows as a private estimator will see them (clipped to a bound, centred if asked), for
 * the data's curator to check a planned release against its own data before spending: NOT private, never
 * part of a release. The public advice ({@link ReleaseAdvisor#advise}) has to assume how the variance is
 * spread; this check knows it, so it also catches data where the wanted directions hold a large share but are
 * not separated from the next ones (a k-subspace that no release, private or not, pins down), where the
 * preprocessing (clipping, a schema's map) leaves little of them, and where the private bound and mean are too
 * noisy on the rows at hand to rely on.
 *
 * <p>Three questions, each against a <em>reference</em>: the exact top-k principal-component scores of the rows
 * before the bound (centred), or of the raw columns under a schema's map ({@link Reference}: centred, or z-scored
 * when the map standardises its columns, the analysis a scale asks for).
 * <ol>
 *   <li>{@link #clippingKept}: what the preprocessing alone keeps, a noiseless release at the stand-in bound;
 *   times the noise's prediction, {@link #predictedThroughClipping};</li>
 *   <li>{@link #drawn}: the same figure over simulated draws of the release's private bound and private mean
 *   ({@link PrivateSteps}), their own mechanisms with their own calibrations run on the exact rows with a seeded
 *   source that serves this prediction only, never a release; its lower decile, since a curator cares whether
 *   the release they are about to make is likely to be useless, not whether the average one is;</li>
 *   <li>{@link #flat}: whether the reference's k-th and (k+1)-th eigenvalues are closer together than the noise
 *   (its expected spectral norm, as a share of the variance), with the (k+1)-th holding at least half the k-th's
 *   variance: then the top-k plane is not defined at this noise, and no release can be expected to recover it.</li>
 * </ol>
 *
 * @param bound      the bound the rows were clipped to (after centring: the centred rows' bound, bound + ‖mean‖)
 * @param rows       n
 * @param components k, the number of directions checked
 * @param eigenvalues all d eigenvalues of Σ clip(x)clip(x)ᵀ (minus n·mean·meanᵀ when centred), descending
 * @param sin2       the predicted sin² of each of the top k directions, or null when the algorithm has no prediction
 * @param scoreCorrelation the predicted mean squared correlation between the rows' scores on the release and on
 *                   the exact top-k directions ({@link ReleaseAdvisor#scoreCorrelationOnSpectrum}); NaN without one
 * @param clippingKept what the preprocessing alone keeps of the reference's top-k scores: the mean squared canonical
 *                   correlation between the rows' projection THROUGH the clipping onto the exact top-k directions of
 *                   the clipped rows (a noiseless release, as {@code transform} applies it) and the reference's exact
 *                   top-k principal-component scores (1: the preprocessing loses nothing)
 * @param noiseShare the noise's expected spectral norm over the trace of the rows the estimator sees (NaN: none)
 * @param referenceEigenvalues the reference's eigenvalues (centred or z-scored covariance), descending
 * @param zScored    whether the reference is z-scored
 * @param mapped     whether a schema's map lies between the reference and the rows the estimator sees
 * @param drawn      the simulated draws of the private preprocessing ({@link Drawn#NONE} when nothing private was
 *                   simulated, or the stand-in already predicts less than half)
 */
public record SpectrumCheck(double bound, long rows, int components, double[] eigenvalues, double[] sin2, double scoreCorrelation,
                            double clippingKept, double noiseShare, double[] referenceEigenvalues, boolean zScored,
                            boolean mapped, Drawn drawn) {
    /** The largest d the check forms a d × d matrix for. */
    public static final int MAX_DIMENSION = 2000;
    /** Draws of the private preprocessing simulated, at most. */
    public static final int DRAWS = 100;
    /** Fewer affordable draws than this and none are simulated (a lower decile of fewer means little). */
    public static final int MIN_DRAWS = 5;
    /** The work (multiply-adds) the draws may take together, which caps their number for large n·d². */
    static final double DRAW_WORK = 4e9;
    /** The rows are held in memory for the draws up to this many cells; above, each draw reads them again. */
    static final long IN_MEMORY_CELLS = 1L << 22;
    /** The seed of the simulation: a curator-side prediction, never a release's noise. */
    static final long SIMULATION_SEED = 0x5eed_c4ecL;

    /**
     * The raw rows a check compares with, row for row with the rows it checks (the same file, before a schema's
     * map).
     *
     * @param rows    the raw columns (a schema's numeric columns unclamped, unscaled; its one-hot columns as mapped)
     * @param zScored whether to z-score them (the map standardises its columns) rather than centre them
     */
    public record Reference(RowSource rows, boolean zScored) {
        /**
         * Checks the rows.
         *
         * @param rows    the rows
         * @param zScored whether to z-score
         */
        public Reference {
            Objects.requireNonNull(rows, "rows");
        }
    }

    /**
     * The release's private preprocessing, as the plan will spend it, for simulating it on the exact rows.
     *
     * @param ladder       the public ladder of the private row-norm quantile
     * @param quantile     its quantile
     * @param bracketShare its share of the bound's budget for the octave
     * @param bound        the bound's budget, or null when the bound is given (not private)
     * @param centre       the private mean's budget, or null when the centring is not private
     * @param neighbouring the relation both are spent under
     */
    public record PrivateSteps(AdaptiveQuantile.Ladder ladder, double quantile, double bracketShare,
                               PrivacyParams bound, PrivacyParams centre, Neighbouring neighbouring) {
        /**
         * Checks the relation.
         *
         * @param ladder       the ladder (may be null when {@code bound} is)
         * @param quantile     the quantile
         * @param bracketShare the bracket share
         * @param bound        the bound's budget, or null
         * @param centre       the mean's budget, or null
         * @param neighbouring the relation
         */
        public PrivateSteps {
            Objects.requireNonNull(neighbouring, "neighbouring");
            if (bound != null && ladder == null) {
                throw new IllegalArgumentException("a private bound needs its ladder");
            }
        }
    }

    /**
     * The predicted figure through the clipping over simulated draws of the private bound and mean.
     *
     * @param count      the draws simulated (0: none)
     * @param below      how many predicted less than half
     * @param lowDecile  the lower decile of the predicted figure over the draws (NaN: none)
     * @param lowestBound the smallest bound drawn (NaN: none)
     * @param highestBound the largest bound drawn (NaN: none)
     */
    public record Drawn(int count, int below, double lowDecile, double lowestBound, double highestBound) {
        /** No draws. */
        public static final Drawn NONE = new Drawn(0, 0, Double.NaN, Double.NaN, Double.NaN);
    }

    /**
     * The check of {@code algorithm} on {@code data}, against the rows themselves before the bound, without
     * simulating private steps.
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
        return of(algorithm, data, null, bound, centre, null, facts);
    }

    /**
     * The check of {@code algorithm} on {@code data} against {@code reference}, simulating {@code steps}.
     *
     * @param algorithm the algorithm
     * @param data      the rows before the bound (after the schema's map or the CSV's column selection)
     * @param reference the raw rows to compare with, or null for {@code data} itself (centred)
     * @param bound     the row bound B, given, or a stand-in for a private bound not drawn yet (the exact quantile)
     * @param centre    whether the estimator sees centred rows
     * @param steps     the private steps to simulate, or null for none
     * @param facts     the public facts (n, d, k, the estimator's budget, the relation); their bound and fill are
     *                  replaced by the data's
     * @return the check
     * @throws IllegalArgumentException when d is above {@link #MAX_DIMENSION}
     */
    public static SpectrumCheck of(String algorithm, RowSource data, Reference reference, double bound, boolean centre,
                                   PrivateSteps steps, ReleaseFacts facts) {
        int d = data.dimension();
        if (d > MAX_DIMENSION) {
            throw new IllegalArgumentException("the spectrum check forms a d x d matrix; d = " + d + " is above "
                    + MAX_DIMENSION);
        }
        int k = facts.components();
        RowSource rows = data;
        long cells = (long) Math.max(1, facts.rows()) * d;
        if (cells <= IN_MEMORY_CELLS && steps != null) {
            rows = io.dpspectra.data.InMemoryRows.copyOf(data); // read once for the draws
        }
        Scores ref = Scores.of(reference == null ? rows : reference.rows(), reference != null && reference.zScored(), k);
        Outcome exact = outcome(algorithm, rows, bound, null, centre, facts, ref, null);
        Drawn drawn = Drawn.NONE;
        // the draws can only add a warning: skipped when the stand-in already predicts less than half
        if (steps != null && (steps.bound() != null || steps.centre() != null) && ref.scores != null
                && !(exact.predicted() < 0.5)) {
            drawn = draws(algorithm, rows, bound, centre, steps, facts, ref);
        }
        return new SpectrumCheck(exact.bound, exact.rows, k, exact.lambda, exact.sin2, exact.scoreCorrelation, exact.kept,
                exact.noiseShare, ref.eigenvalues, reference != null && reference.zScored(), reference != null, drawn);
    }

    /** The release's figures for one bound and one mean (null: the clipped rows' exact mean). */
    private record Outcome(double bound, long rows, double[] lambda, double[] sin2, double scoreCorrelation,
                           double kept, double noiseShare, boolean simulated) {
        /** The figure through the clipping: measured on the simulated release, else kept times the prediction. */
        double predicted() {
            return simulated ? kept : scoreCorrelation * (Double.isNaN(kept) ? 1 : kept);
        }
    }

    private static Outcome outcome(String algorithm, RowSource rows, double bound, double[] privateMean,
                                   boolean centre, ReleaseFacts facts, Scores ref, RandomSource simulation) {
        int d = rows.dimension();
        int k = facts.components();
        Matrix g = new Matrix(d, d);
        double[] sum = new double[d];
        long n = 0;
        double[] x = new double[d];
        double[] clipped = new double[d];
        try (RowCursor c = rows.open()) {
            while (c.next(x)) {
                double norm = Vectors.norm2(x);
                double f = norm > bound ? bound / norm : 1;
                for (int i = 0; i < d; i++) {
                    clipped[i] = x[i] * f; // clipped first: a row of 1e300 squares to infinity otherwise
                }
                for (int i = 0; i < d; i++) {
                    sum[i] += clipped[i];
                    for (int j = 0; j <= i; j++) {
                        g.add(i, j, clipped[i] * clipped[j]);
                    }
                }
                n++;
            }
        }
        double[] mean = new double[d];
        for (int i = 0; i < d; i++) {
            mean[i] = n > 0 ? sum[i] / n : 0;
        }
        double[] mu = centre ? (privateMean != null ? privateMean : mean) : new double[d];
        Matrix m = new Matrix(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j <= i; j++) {
                // Σ (c − μ)(c − μ)ᵀ = Σ ccᵀ − n(m̄μᵀ + μm̄ᵀ) + nμμᵀ
                double v = g.get(i, j) - n * (mean[i] * mu[j] + mu[i] * mean[j]) + n * mu[i] * mu[j];
                m.set(i, j, v);
                m.set(j, i, v);
            }
        }
        if (!m.isFinite()) { // a bound or mean too large to square (a draw at the ladder's top): no figure
            return new Outcome(bound, n, new double[d], null, Double.NaN, Double.NaN, Double.NaN, false);
        }
        double[] lambda = SymmetricEigen.of(m).values();
        double effective = centre ? bound + Vectors.norm2(mu) : bound;
        double trace = 0;
        for (double v : lambda) {
            trace += Math.max(0, v);
        }
        double fill = Math.min(1, Math.max(Double.MIN_NORMAL, trace / (Math.max(1, n) * effective * effective)));
        ReleaseFacts own = new ReleaseFacts(Math.max(1, n), d, k, facts.budget(), facts.neighbouring(), effective,
                fill);
        double noiseShare = Double.NaN;
        double entryNoise = Double.NaN;
        if (ReleaseAdvisor.predicts(algorithm, own) && trace > 0) {
            ReleaseAdvisor.Prediction p = ReleaseAdvisor.predict(algorithm, own,
                    ReleaseAdvisor.defaultExpectedShare(d, k));
            noiseShare = p.noiseNorm() / trace;
            entryNoise = p.entryNoise();
        }
        // analyze-gauss releases the top k of M + E, E symmetric with N(0, σ²) entries: one draw of it simulates
        // the release itself; otherwise (and for the stand-in) the figure is the noise's expected effect
        boolean simulated = simulation != null && algorithm.equals("analyze-gauss") && entryNoise > 0;
        Matrix released = m;
        if (simulated) {
            released = new Matrix(d, d);
            for (int i = 0; i < d; i++) {
                for (int j = 0; j <= i; j++) {
                    double v = m.get(i, j) + entryNoise * simulation.standardNormal();
                    released.set(i, j, v);
                    released.set(j, i, v);
                }
            }
        }
        if (!released.isFinite()) { // noise too large to add: the simulated release is noise, no figure
            return new Outcome(effective, n, lambda, null, Double.NaN, Double.NaN, noiseShare, true);
        }
        Matrix top = SymmetricEigen.of(released).vectors().leadingColumns(k);
        double kept = ref.scores == null || ref.scores.rows() != n ? Double.NaN
                : kept(rows, bound, top, ref.scores, k);
        return new Outcome(effective, n, lambda, ReleaseAdvisor.sin2OnSpectrum(algorithm, own, lambda),
                ReleaseAdvisor.scoreCorrelationOnSpectrum(algorithm, own, lambda), kept, noiseShare, simulated);
    }

    /**
     * The simulated draws: the work they take together ({@link #DRAW_WORK}) caps their number, and fewer than
     * {@link #MIN_DRAWS} affordable draws simulate none.
     */
    private static Drawn draws(String algorithm, RowSource rows, double bound, boolean centre, PrivateSteps steps,
                               ReleaseFacts facts, Scores ref) {
        int d = rows.dimension();
        double perDraw = (double) Math.max(1, ref.scores.rows()) * d * (d + facts.components());
        int count = (int) Math.min(DRAWS, Math.floor(DRAW_WORK / perDraw));
        if (count < MIN_DRAWS) {
            return Drawn.NONE;
        }
        // the seeded source serves this prediction only: the release draws its own noise from its own source
        RandomSource simulation = RandomSource.seededForReproducibility(SIMULATION_SEED);
        long[] histogram = steps.bound() == null ? null : AdaptiveQuantile.rowNormHistogram(rows, steps.ladder().edges());
        double[] figures = new double[count];
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        int below = 0;
        for (int i = 0; i < count; i++) {
            double b = histogram == null ? bound
                    : AdaptiveQuantile.using(simulation).bracketShare(steps.bracketShare()).rowNormQuantile(histogram,
                            steps.quantile(), steps.ladder(), steps.bound(), steps.neighbouring()).value();
            double[] mu = null;
            if (centre && steps.centre() != null) {
                mu = PrivateBoundedMean.of(steps.neighbouring(), simulation).estimate(clippedSum(rows, b), b,
                        steps.centre()).mean();
            }
            Outcome o = outcome(algorithm, rows, b, mu, centre, facts, ref, simulation);
            double p = o.predicted();
            figures[i] = Double.isNaN(p) ? 0 : p;
            below += figures[i] < 0.5 ? 1 : 0;
            lo = Math.min(lo, b);
            hi = Math.max(hi, b);
        }
        Arrays.sort(figures);
        return new Drawn(count, below, figures[(int) Math.ceil(0.1 * count) - 1], lo, hi);
    }

    private static PrivateBoundedMean.Sum clippedSum(RowSource rows, double bound) {
        int d = rows.dimension();
        double[] sum = new double[d];
        double[] x = new double[d];
        long n = 0;
        try (RowCursor c = rows.open()) {
            while (c.next(x)) {
                double norm = Vectors.norm2(x);
                double f = norm > bound ? bound / norm : 1;
                for (int i = 0; i < d; i++) {
                    sum[i] += x[i] * f;
                }
                n++;
            }
        }
        return new PrivateBoundedMean.Sum(sum, n);
    }

    /** The reference's eigenvalues and its rows' exact top-k scores (null when the rows are too large to square). */
    private record Scores(double[] eigenvalues, Matrix scores) {
        static Scores of(RowSource raw, boolean zScore, int k) {
            int p = raw.dimension();
            List<double[]> kept = new ArrayList<>();
            double[] x = new double[p];
            double[] sum = new double[p];
            try (RowCursor c = raw.open()) {
                while (c.next(x)) {
                    kept.add(x.clone());
                    for (int j = 0; j < p; j++) {
                        sum[j] += x[j];
                    }
                }
            }
            int n = kept.size();
            if (n < 2) {
                return new Scores(new double[p], null);
            }
            double[] mean = new double[p];
            for (int j = 0; j < p; j++) {
                mean[j] = sum[j] / n;
            }
            Matrix cov = new Matrix(p, p);
            for (double[] r : kept) {
                for (int i = 0; i < p; i++) {
                    double ri = r[i] - mean[i];
                    for (int j = 0; j <= i; j++) {
                        cov.add(i, j, ri * (r[j] - mean[j]));
                    }
                }
            }
            double[] scale = new double[p];
            for (int i = 0; i < p; i++) {
                double sd = Math.sqrt(cov.get(i, i) / n);
                scale[i] = !zScore ? 1 : sd > 0 ? 1 / sd : 0; // a constant column carries no variance either way
            }
            for (int i = 0; i < p; i++) {
                for (int j = 0; j <= i; j++) {
                    double v = cov.get(i, j) * scale[i] * scale[j];
                    cov.set(i, j, v);
                    cov.set(j, i, v);
                }
            }
            if (!cov.isFinite()) {
                return new Scores(new double[p], null); // rows too large to square: no figure
            }
            SymmetricEigen e = SymmetricEigen.of(cov);
            Matrix top = e.vectors().leadingColumns(k);
            Matrix scores = new Matrix(n, k);
            for (int a = 0; a < n; a++) {
                double[] r = kept.get(a);
                for (int b = 0; b < k; b++) {
                    double s = 0;
                    for (int j = 0; j < p; j++) {
                        s += (r[j] - mean[j]) * scale[j] * top.get(j, b);
                    }
                    scores.set(a, b, s);
                }
            }
            return new Scores(e.values(), scores);
        }
    }

    /**
     * The mean squared canonical correlation between the rows clipped to {@code bound} and projected onto
     * {@code clippedTop} and the reference's scores (one pass; the mean subtracted does not change it).
     */
    static double kept(RowSource data, double bound, Matrix clippedTop, Matrix reference, int k) {
        int d = data.dimension();
        Matrix sums = new Matrix(2 * k + 1, 2 * k + 1);
        double[] x = new double[d];
        double[] z = new double[2 * k + 1];
        long n = 0;
        try (RowCursor c = data.open()) {
            while (c.next(x)) {
                if (n >= reference.rows()) {
                    return Double.NaN;
                }
                double norm = Vectors.norm2(x);
                double f = norm > bound ? bound / norm : 1;
                for (int a = 0; a < k; a++) {
                    double p = 0;
                    for (int j = 0; j < d; j++) {
                        p += x[j] * f * clippedTop.get(j, a);
                    }
                    z[a] = p;
                    z[k + a] = reference.get((int) n, a);
                }
                z[2 * k] = 1;
                for (int a = 0; a <= 2 * k; a++) {
                    for (int b = 0; b <= a; b++) {
                        sums.add(a, b, z[a] * z[b]);
                    }
                }
                n++;
            }
        }
        if (n != reference.rows() || n < 2) {
            return Double.NaN;
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
     * True when the release would be close to useless for these rows: the rows' scores on it, through the clipping,
     * are predicted to share less than half of their variance with the reference's exact top-k scores, on average
     * over the k directions ({@link #predictedThroughClipping} below 1/2), or do so in the lower decile of the
     * simulated draws of the private bound and mean ({@link #drawnUseless}), or the reference's top-k plane is not
     * defined at this noise ({@link #flat}).
     *
     * @return whether the release would be close to useless for these rows
     */
    public boolean useless() {
        return predictedThroughClipping() < 0.5 || drawnUseless() || flat();
    }

    /**
     * True when the lower decile of the simulated draws of the private bound and mean predicts less than half.
     *
     * @return whether the draws predict a useless release one time in ten or more
     */
    public boolean drawnUseless() {
        return drawn.count() > 0 && drawn.lowDecile() < 0.5;
    }

    /**
     * True when the reference's k-th and (k+1)-th eigenvalues are closer together than the noise's expected
     * spectral norm (both as shares of their variance: Davis and Kahan's sin θ bound, ‖E‖/gap, then reaches 1,
     * so nothing ties the release's k-th direction to the exact one rather than to the next) and the (k+1)-th
     * holds at least half the k-th's variance (so a release that swaps them projects the rows differently). Then
     * the top-k plane is not defined at this noise, and no release can be expected to recover it.
     *
     * @return whether the top-k plane is not defined at this noise
     */
    public boolean flat() {
        int k = components();
        if (k >= referenceEigenvalues.length || !(noiseShare > 0)) {
            return false;
        }
        double a = referenceShare(k - 1);
        double b = referenceShare(k);
        return a - b < noiseShare && b >= a / 2;
    }

    /**
     * The share of the reference's variance held by its eigenvalue i (0-based).
     *
     * @param i the eigenvalue's index, 0-based
     * @return its share of the reference's variance
     */
    public double referenceShare(int i) {
        double t = 0;
        for (double v : referenceEigenvalues) {
            t += Math.max(0, v);
        }
        return t > 0 ? Math.max(0, referenceEigenvalues[i]) / t : 0;
    }

    /**
     * The rows' scores on the release, through the clipping (as {@code transform} applies it), against the exact
     * top-k scores of the reference: the release's predicted {@link #scoreCorrelation} times what
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

}
