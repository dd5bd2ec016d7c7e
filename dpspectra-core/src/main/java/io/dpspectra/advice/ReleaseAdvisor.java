package io.dpspectra.advice;

import io.dpspectra.covariance.GaussianCovariance;
import io.dpspectra.covariance.IterativeEigenvectorSampling;
import io.dpspectra.covariance.LaplaceCovariance;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.pca.NoisyPowerMethod;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Predicts, from public facts alone ({@link ReleaseFacts}: n, d, k, ε, δ, the row bound), how much of a
 * private PCA release will be signal: for each algorithm, its noise level in XᵀX units, the share of the
 * variance a direction must hold to be recovered, the subspace error at an expected share, memory and
 * passes; and which algorithm to use, or that none will do.
 *
 * <p>Model. The estimator sees M = Σ x_i x_iᵀ over the bounded rows, whose trace is T = fill·n·B²
 * ({@link ReleaseFacts#trace}). Each of the k wanted directions v_i holds a share s of T (eigenvalue
 * θ = s·T) and the rest of T is spread evenly over the other d − k directions (eigenvalue
 * b = (1 − k·s)·T/(d − k)). A direction counts as <b>recovered</b> when the expected squared sine of its angle
 * to the released k-subspace is at most {@value #RECOVERED_SIN2} (it keeps at least half of its length in the
 * release). The subspace error ‖UUᵀ − VVᵀ‖_F against the exact top-k of M is √(2·Σ_i sin²θ_i); a uniformly
 * random k-subspace has error √(2k(1 − k/d)).
 *
 * <ul>
 *   <li><b>Noise on XᵀX</b> (analyze-gauss, and the covariance releases gaussian and laplace): M + E with E
 *   symmetric, i.i.d. entries of standard deviation σ, taken from the mechanism's own calibration
 *   ({@link AnalyzeGauss#sigma}, {@link GaussianCovariance#sigma}, {@link LaplaceCovariance#scale}·√2).
 *   Expected ‖E‖₂ ≈ 2σ√d; sin²θ_i = min(σ²(d − k)/(θ − b)², 1 − k/d): first-order perturbation, which is
 *   also the exact large-d limit for a spike above the noise edge (Benaych-Georges &amp; Nadakuditi 2011:
 *   1 − cos² = σ²d/θ² for θ &gt; σ√d). Checked against simulation within a factor 1.25 for d from 6 to 300.</li>
 *   <li><b>Bingham sampling</b> (it-u, ad): vector i is drawn with density ∝ exp(κ_i·uᵀC_iu) on the sphere of
 *   the complement of the earlier ones (dimension q = d − i + 1), with κ_i from the mechanism's own split
 *   ({@link IterativeEigenvectorSampling#subspaceConcentrations}, {@link
 *   IterativeEigenvectorSampling#releaseConcentrations}). On the model, t = cos²θ has density
 *   ∝ t^(−1/2)(1 − t)^((q − 3)/2)·e^(κ(θ − b)t), whose mean of 1 − t is integrated numerically: exact for the
 *   model.</li>
 *   <li><b>Private power method</b> (private-power, L = {@value NoisyPowerMethod#DEFAULT_ITERATIONS} iterations,
 *   p = k): each step Y = MX + G adds a fresh d × k Gaussian (or Laplace) matrix of entry scale σ from
 *   {@link PrivatePowerMethod#exactSigma} (·B², the default exact calibration), so tan² of each direction settles where tan² = (b²tan² + σ²(d − k))/θ²:
 *   sin² ≈ σ²(d − k)/(θ² − b²), plus the (b/θ)^(2L) the iterations leave of a random start.</li>
 *   <li><b>Stochastic methods</b> (k-dp-ojas, k-dp-pca, k-dp-pca-adaptive): no prediction. Their error depends
 *   on step sizes and on how far each row is from the k-subspace, not only on n, d and ε. On spiked rows at
 *   d = 40, n = 3·10⁵, k-dp-pca-adaptive was about 100× behind analyze-gauss; its advantage is on
 *   near-noiseless sample models (each row nearly in the k-subspace).</li>
 * </ul>
 *
 * <p>Reference: Dwork, Talwar, Thakurta &amp; Zhang (STOC 2014) for the noise level of analyze-gauss, which they
 * show optimal up to constants for (ε, δ)-DP PCA; Amin et al. (ICML 2019) for the Bingham mechanism; Hardt &amp;
 * Price (NeurIPS 2014) for the private power method; Benaych-Georges &amp; Nadakuditi (Adv. Math. 2011) for the
 * spiked perturbation limit.
 */
public final class ReleaseAdvisor {
    /** A direction is recovered when its expected sin² to the release is at most this. */
    public static final double RECOVERED_SIN2 = 0.5;
    /**
     * The share of the variance each of the k wanted directions is assumed to hold when the user states none,
     * in dimension 10 and above: a tenth (on the shipped tables, the second principal direction holds 8% to 24%
     * of the centred or standardised variance). See {@link #defaultExpectedShare}.
     */
    public static final double DEFAULT_EXPECTED_SHARE = 0.1;

    /**
     * The default expectation in dimension d for k directions: {@value #DEFAULT_EXPECTED_SHARE}, or twice an even
     * share, 2/d, when that is more (in low dimension a tenth is no more than the other directions hold on
     * average, and such a direction is not a principal one), and at most 1/k.
     *
     * @param d the dimension
     * @param k the number of directions
     * @return the share
     */
    public static double defaultExpectedShare(int d, int k) {
        return Math.min(1.0 / k, Math.max(DEFAULT_EXPECTED_SHARE, 2.0 / d));
    }

    /**
     * What one algorithm is predicted to do.
     *
     * @param algorithm          the {@code --algorithm} name
     * @param command            {@code fit} or {@code covariance}
     * @param applicable         false when it cannot run on these facts (then {@code reason} says why)
     * @param reason             why not, or null
     * @param entryNoise         σ, the standard deviation of one noise entry in XᵀX units (NaN: no additive noise)
     * @param noiseNorm          the expected spectral norm of the noise (2σ√d), XᵀX units (NaN: none)
     * @param requiredShare      the share of the variance each of k directions must hold to be recovered (+∞: no
     *                           share up to 1/k is enough; NaN: no prediction)
     * @param requiredEigenvalue requiredShare·T, in XᵀX units
     * @param predictedError     the predicted ‖UUᵀ − VVᵀ‖_F when each direction holds the expected share (NaN: none)
     * @param recoversExpected   true when every direction holding the expected share is recovered
     * @param randomError        the error of a uniformly random k-subspace, √(2k(1 − k/d))
     * @param memoryBytes        the memory it needs (approximate)
     * @param passes             its passes over the rows
     * @param note               one line for people, or null
     */
    public record Prediction(String algorithm, String command, boolean applicable, String reason, double entryNoise,
                             double noiseNorm, double requiredShare, double requiredEigenvalue, double predictedError,
                             boolean recoversExpected, double randomError, double memoryBytes, int passes, String note) {

        /**
         * True when a number was predicted.
         *
         * @return whether a number was predicted
         */
        public boolean predicted() {
            return applicable && !Double.isNaN(requiredShare);
        }
    }

    /**
     * The advice for one set of facts.
     *
     * @param facts          the facts
     * @param expectedShare  the share of the variance each wanted direction is expected to hold
     * @param predictions    one per algorithm, in a fixed order
     * @param best           the predicted algorithm with the smallest required share (null if none applies)
     * @param floorShare     the smallest required share over the predicted fit algorithms (+∞ if none recovers)
     * @param epsilonNeeded  the smallest ε at which {@code best} recovers the expected share (+∞: none up to 10⁴)
     * @param rowsNeeded     the smallest n at which it does (Long.MAX_VALUE: none up to 10¹⁵)
     */
    public record Advice(ReleaseFacts facts, double expectedShare, List<Prediction> predictions, Prediction best,
                         double floorShare, double epsilonNeeded, long rowsNeeded) {
        /**
         * True when no predicted fit algorithm recovers a direction holding the expected share.
         *
         * @return whether the release is predicted useless whatever the algorithm
         */
        public boolean useless() {
            return predictions.stream().noneMatch(p -> p.command().equals("fit") && p.recoversExpected());
        }

        /**
         * The prediction for {@code algorithm}, if any.
         *
         * @param algorithm its {@code --algorithm} name
         * @return its prediction, or empty
         */
        public java.util.Optional<Prediction> forAlgorithm(String algorithm) {
            return predictions.stream().filter(p -> p.algorithm().equals(algorithm)).findFirst();
        }
    }

    private ReleaseAdvisor() {
    }

    /**
     * The mechanisms are built only to read their calibration: they draw nothing, and this source (which refuses
     * to be drawn from) spares them a secure source each.
     */
    private static final RandomSource DRAWS_NOTHING = new RandomSource() {
        @Override
        public long nextLong() {
            throw new IllegalStateException("the advisor draws no noise");
        }

        @Override
        public RandomSource split() {
            return this;
        }

        @Override
        public boolean isSeeded() {
            return false;
        }
    };

    /** The fit algorithms with a prediction, in the order of {@link #advise}. */
    public static final List<String> PREDICTED_FIT = List.of("analyze-gauss", "it-u", "ad", "private-power");
    /** The fit algorithms listed without a prediction. */
    public static final List<String> UNPREDICTED_FIT = List.of("k-dp-ojas", "k-dp-pca", "k-dp-pca-adaptive");

    /**
     * Predictions for every covered algorithm, and the recommendation.
     *
     * @param facts the public facts
     * @param expectedShare the share of the variance each wanted direction is expected to hold, in (0, 1]
     * @return the advice
     */
    public static Advice advise(ReleaseFacts facts, double expectedShare) {
        checkShare(expectedShare);
        List<Prediction> out = new ArrayList<>();
        for (String a : PREDICTED_FIT) {
            out.add(predict(a, facts, expectedShare));
        }
        for (String a : UNPREDICTED_FIT) {
            out.add(predict(a, facts, expectedShare));
        }
        out.add(predict("gaussian", facts, expectedShare));
        out.add(predict("laplace", facts, expectedShare));
        Prediction best = out.stream().filter(p -> p.command().equals("fit") && p.predicted())
                .min(Comparator.comparingDouble(Prediction::requiredShare)).orElse(null);
        double floor = best == null ? Double.POSITIVE_INFINITY : best.requiredShare();
        double eps = Double.POSITIVE_INFINITY;
        long rows = Long.MAX_VALUE;
        for (Prediction p : out) {
            if (p.command().equals("fit") && p.predicted()) {
                eps = Math.min(eps, epsilonNeeded(p.algorithm(), facts, expectedShare));
                rows = Math.min(rows, rowsNeeded(p.algorithm(), facts, expectedShare));
            }
        }
        return new Advice(facts, expectedShare, List.copyOf(out), best, floor, eps, rows);
    }

    /**
     * The prediction for one algorithm (its {@code --algorithm} name; gaussian and laplace: the covariance releases).
     *
     * @param algorithm its {@code --algorithm} name
     * @param f the public facts
     * @param expectedShare the share each wanted direction is expected to hold, in (0, 1]
     * @return the prediction
     */
    public static Prediction predict(String algorithm, ReleaseFacts f, double expectedShare) {
        checkShare(expectedShare);
        int d = f.dimension();
        int k = f.components();
        double random = Math.sqrt(2.0 * k * (1 - (double) k / d));
        double dense = 8.0 * 4 * d * (double) d; // four d x d matrices of doubles, as fit checks before reading
        double streaming = 8.0 * 4 * d * (double) k;
        String why = notApplicable(algorithm, f);
        String command = algorithm.equals("gaussian") || algorithm.equals("laplace") ? "covariance" : "fit";
        int passes = algorithm.equals("private-power") ? NoisyPowerMethod.DEFAULT_ITERATIONS : 1;
        double memory = algorithm.equals("private-power") || UNPREDICTED_FIT.contains(algorithm) ? streaming : dense;
        if (UNPREDICTED_FIT.contains(algorithm)) {
            String note = algorithm.equals("k-dp-pca-adaptive")
                    ? "no prediction: on spiked rows (d = 40, n = 3e5) it was about 100x behind analyze-gauss; it "
                    + "gains only when each row is nearly in the k-subspace (near-noiseless samples)"
                    : "no prediction: its error depends on step sizes and on how far rows lie from the k-subspace; "
                    + "on rows from a table expect more error than analyze-gauss";
            return new Prediction(algorithm, command, why == null, why, Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN, Double.NaN, false, random, memory, passes, note);
        }
        if (why != null) {
            return new Prediction(algorithm, command, false, why, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN, false, random, memory, passes, null);
        }
        Model m = model(algorithm, f);
        double required = requiredShare(m, f);
        double[] atExpected = m.sin2(f, expectedShare);
        double error = subspaceError(atExpected);
        String note = m.entryNoise() > 0 ? null : "exponential mechanism on the sphere: no additive noise; kappa = "
                + String.format(java.util.Locale.ROOT, "%.4g", ((BinghamModel) m).kappa(expectedShare)[0])
                + " per unit of u'Mu";
        return new Prediction(algorithm, command, true, null, m.entryNoise(),
                m.entryNoise() > 0 ? 2 * m.entryNoise() * Math.sqrt(d) : Double.NaN, required, required * f.trace(),
                error, recovered(atExpected), random, memory, passes, note);
    }

    /**
     * The predicted mean squared correlation between the rows' scores on the release's k directions and on the
     * exact top-k directions, for a matrix with eigenvalues {@code lambda}: for direction i, a release vector
     * u_i = c·v_i + Σ_j a_j·v_j with the leak a_j² of {@link Model#leakOnSpectrum}, whose scores Xu_i correlate with
     * Xv_i as c²λ_i/(c²λ_i + Σ_j a_j²λ_j). The rows' variance weights the leak: a release whose error lies in
     * directions that hold little variance still projects the rows almost as exact PCA does. A measure of the
     * projection, as a user applies it; for the data's curator, with the data's exact spectrum: NOT private.
     *
     * @param algorithm a predicted algorithm
     * @param f         the facts
     * @param lambda    all d eigenvalues, descending
     * @return the mean over the k directions of the squared correlation, in [0, 1]; NaN without a prediction
     */
    public static double scoreCorrelationOnSpectrum(String algorithm, ReleaseFacts f, double[] lambda) {
        if (!predicts(algorithm, f)) {
            return Double.NaN;
        }
        int d = f.dimension();
        int k = f.components();
        double[][] leak = model(algorithm, f).leakOnSpectrum(f, lambda);
        double mean = 0;
        for (int i = 0; i < k; i++) {
            double out = 0;
            double weighted = 0;
            for (int j = k; j < d; j++) {
                out += leak[i][j];
                weighted += leak[i][j] * Math.max(0, lambda[j]);
            }
            double c2 = Math.max(0, 1 - out);
            double own = c2 * Math.max(0, lambda[i]);
            mean += own + weighted > 0 ? own / (own + weighted) : 0;
        }
        return mean / k;
    }

    /**
     * True when {@code algorithm} has a prediction and applies to these facts.
     *
     * @param algorithm the {@code --algorithm} name
     * @param f         the facts
     * @return whether {@link #sin2OnSpectrum} and {@link #predict} give numbers for it
     */
    public static boolean predicts(String algorithm, ReleaseFacts f) {
        return !UNPREDICTED_FIT.contains(algorithm) && notApplicable(algorithm, f) == null;
    }

    /**
     * The expected sin² of each of the top k directions of a matrix whose eigenvalues (XᵀX units, the bounded and,
     * if asked, centred rows as the estimator sees them) are {@code lambda}, for {@code algorithm} on these facts:
     * the same noise models, with the whole spectrum in place of an expected share (first-order perturbation,
     * sin²θ_i = σ²·Σ_{j&gt;k} 1/(λ_i − λ_j)², capped at the random level 1 − k/d). For the data's curator, with the
     * data's exact spectrum: NOT private.
     *
     * @param algorithm a predicted algorithm ({@link #PREDICTED_FIT}, gaussian, laplace)
     * @param f         the facts (their fill is not used; the trace is the spectrum's)
     * @param lambda    all d eigenvalues, descending
     * @return the k expected sin², or null when the algorithm has no prediction or does not apply
     */
    public static double[] sin2OnSpectrum(String algorithm, ReleaseFacts f, double[] lambda) {
        if (lambda.length != f.dimension()) {
            throw new IllegalArgumentException("the spectrum has " + lambda.length + " eigenvalues but d = "
                    + f.dimension());
        }
        if (UNPREDICTED_FIT.contains(algorithm) || notApplicable(algorithm, f) != null) {
            return null;
        }
        return model(algorithm, f).sin2OnSpectrum(f, lambda);
    }

    /**
     * The smallest ε (the estimator's share) at which {@code algorithm} recovers directions holding
     * {@code share}, δ kept: +∞ when none up to 10⁴ does.
     *
     * @param algorithm its {@code --algorithm} name
     * @param f the public facts
     * @param share the share each wanted direction holds
     * @return the estimator's ε, or +∞
     */
    public static double epsilonNeeded(String algorithm, ReleaseFacts f, double share) {
        java.util.function.DoublePredicate enough = eps -> {
            ReleaseFacts g = f.withBudget(PrivacyParams.of(eps, f.budget().delta()));
            return notApplicable(algorithm, g) == null && recovered(model(algorithm, g).sin2(g, share));
        };
        double lo = 1e-4;
        double hi = 1e4;
        if (!enough.test(hi)) {
            return Double.POSITIVE_INFINITY;
        }
        if (enough.test(lo)) {
            return lo;
        }
        for (int i = 0; i < 50; i++) {
            double mid = Math.sqrt(lo * hi);
            if (enough.test(mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * The smallest n at which {@code algorithm} recovers directions holding {@code share}: Long.MAX_VALUE when none up to 10¹⁵ does.
     *
     * @param algorithm its {@code --algorithm} name
     * @param f the public facts
     * @param share the share each wanted direction holds
     * @return n, or Long.MAX_VALUE
     */
    public static long rowsNeeded(String algorithm, ReleaseFacts f, double share) {
        java.util.function.LongPredicate enough = n -> {
            ReleaseFacts g = f.withRows(n);
            return notApplicable(algorithm, g) == null && recovered(model(algorithm, g).sin2(g, share));
        };
        long hi = 1_000_000_000_000_000L;
        if (!enough.test(hi)) {
            return Long.MAX_VALUE;
        }
        long lo = 1;
        if (enough.test(lo)) {
            return lo;
        }
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (enough.test(mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /** Why {@code algorithm} cannot run on these facts, or null. */
    static String notApplicable(String algorithm, ReleaseFacts f) {
        boolean delta = f.budget().delta() > 0;
        return switch (algorithm) {
            case "analyze-gauss", "gaussian", "k-dp-ojas", "k-dp-pca", "k-dp-pca-adaptive" ->
                    delta ? null : "needs delta > 0 (a Gaussian mechanism)";
            case "it-u", "ad", "laplace" -> f.neighbouring() == Neighbouring.REPLACE_ROW ? null
                    : "proven under replace neighbouring only";
            case "private-power" -> null; // Gaussian noise by exact composition for delta > 0, Laplace for delta = 0
            default -> throw new IllegalArgumentException("no advice for algorithm '" + algorithm + "'; covered: "
                    + PREDICTED_FIT + ", " + UNPREDICTED_FIT + ", gaussian, laplace");
        };
    }

    /** The expected sin² of each of the k directions when each holds share s. */
    interface Model {
        double[] sin2(ReleaseFacts f, double share);

        /** The expected sin² of each of the top k directions of a matrix with eigenvalues {@code lambda} (descending). */
        double[] sin2OnSpectrum(ReleaseFacts f, double[] lambda);

        /**
         * For each of the top k directions i, how its leak out of the top-k subspace spreads over the other
         * directions j ≥ k: row i holds the expected squared component along each v_j (zero for j &lt; k).
         */
        double[][] leakOnSpectrum(ReleaseFacts f, double[] lambda);

        /** σ of one noise entry (XᵀX units), or 0 for a mechanism without additive noise. */
        double entryNoise();
    }

    /** The model of {@code algorithm} with its own calibration. */
    static Model model(String algorithm, ReleaseFacts f) {
        double beta = f.boundOrUnit();
        PrivacyParams budget = f.budget();
        int d = f.dimension();
        int k = f.components();
        return switch (algorithm) {
            case "analyze-gauss" -> new NoiseMatrixModel(AnalyzeGauss.builder().components(k).randomSource(DRAWS_NOTHING)
                    .neighbouring(f.neighbouring()).build().sigma(beta, budget), 0);
            case "gaussian" -> new NoiseMatrixModel(GaussianCovariance.builder().randomSource(DRAWS_NOTHING)
                    .neighbouring(f.neighbouring()).build().sigma(beta, budget), 0);
            case "laplace" -> new NoiseMatrixModel(Math.sqrt(2) * LaplaceCovariance.builder().randomSource(DRAWS_NOTHING)
                    .neighbouring(f.neighbouring()).build().scale(d, beta, budget), 0);
            case "private-power" -> new NoiseMatrixModel(budget.delta() > 0
                    ? beta * beta * PrivatePowerMethod.exactSigma(k, NoisyPowerMethod.DEFAULT_ITERATIONS, d, budget)
                    : Math.sqrt(2) * beta * beta * PrivatePowerMethod.laplaceScale(k, NoisyPowerMethod.DEFAULT_ITERATIONS,
                    d, budget.epsilon()), NoisyPowerMethod.DEFAULT_ITERATIONS);
            case "it-u" -> {
                double[] kappa = IterativeEigenvectorSampling.builder()
                        .split(IterativeEigenvectorSampling.BudgetSplit.UNIFORM).vectors(k).randomSource(DRAWS_NOTHING).build()
                        .subspaceConcentrations(d, k, budget.epsilon(), beta);
                yield new BinghamModel(share -> kappa);
            }
            case "ad" -> {
                IterativeEigenvectorSampling ad = IterativeEigenvectorSampling.builder()
                        .split(IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE).vectors(k).randomSource(DRAWS_NOTHING)
                        .build();
                // AD splits by the released eigenvalues: on the model, the k spikes' eigenvalue s·T each
                yield new BinghamModel(share -> {
                    double[] lambda = new double[k];
                    java.util.Arrays.fill(lambda, share * f.trace());
                    return ad.releaseConcentrations(lambda, d, budget.epsilon(), beta);
                });
            }
            default -> throw new IllegalArgumentException("no model for algorithm '" + algorithm + "'");
        };
    }

    /** M + E with E symmetric of i.i.d. entries σ (or a power method's per-step noise of scale σ, L steps). */
    record NoiseMatrixModel(double sigma, int iterations) implements Model {
        @Override
        public double[] sin2(ReleaseFacts f, double share) {
            int d = f.dimension();
            int k = f.components();
            double cap = 1 - (double) k / d;
            double t = f.trace();
            double theta = share * t;
            double b = k == d ? 0 : Math.max(0, 1 - k * share) * t / (d - k);
            double[] out = new double[k];
            double gap = theta - b;
            double s;
            if (!(gap > 0)) {
                s = cap;
            } else if (iterations == 0) {
                s = sigma * sigma * (d - k) / (gap * gap);
            } else {
                // fresh noise each step: tan² → σ²(d − k)/(θ² − b²), plus what L steps leave of a random start
                s = sigma * sigma * (d - k) / (theta * theta - b * b) + cap * Math.pow(b / theta, 2.0 * iterations);
            }
            java.util.Arrays.fill(out, Math.min(s, cap));
            return out;
        }

        @Override
        public double[] sin2OnSpectrum(ReleaseFacts f, double[] lambda) {
            int d = f.dimension();
            int k = f.components();
            double cap = 1 - (double) k / d;
            double[] out = new double[k];
            for (int i = 0; i < k; i++) {
                double s = 0;
                for (int j = k; j < d; j++) {
                    double gap = lambda[i] - lambda[j];
                    double den = iterations == 0 ? gap * gap : lambda[i] * lambda[i] - lambda[j] * lambda[j];
                    s += den > 0 ? sigma * sigma / den : Double.POSITIVE_INFINITY;
                }
                if (iterations > 0 && lambda[i] > 0 && d > k) {
                    s += cap * Math.pow(Math.max(0, lambda[k]) / lambda[i], 2.0 * iterations);
                }
                out[i] = Math.min(s, cap);
            }
            return out;
        }

        @Override
        public double[][] leakOnSpectrum(ReleaseFacts f, double[] lambda) {
            int d = f.dimension();
            int k = f.components();
            double[] sin2 = sin2OnSpectrum(f, lambda);
            double[][] leak = new double[k][d];
            for (int i = 0; i < k; i++) {
                double total = 0;
                for (int j = k; j < d; j++) {
                    double gap = lambda[i] - lambda[j];
                    double den = iterations == 0 ? gap * gap : lambda[i] * lambda[i] - lambda[j] * lambda[j];
                    leak[i][j] = den > 0 ? sigma * sigma / den : 1e300;
                    total += leak[i][j];
                }
                // the leak sin²: shaped as first-order perturbation (∝ σ²/(λ_i − λ_j)²) while the direction is
                // mostly kept, spread evenly (a random vector) as it is lost
                double kept = 1 - sin2[i];
                for (int j = k; j < d; j++) {
                    leak[i][j] = sin2[i] * (kept * leak[i][j] / total + (1 - kept) / (d - k));
                }
            }
            return leak;
        }

        @Override
        public double entryNoise() {
            return sigma;
        }
    }

    /** Vector i drawn from the Bingham density on the sphere of dimension d − i + 1 with concentration κ_i. */
    record BinghamModel(java.util.function.DoubleFunction<double[]> concentrations) implements Model {
        /** κ_1 … κ_k when each direction holds {@code share}. */
        double[] kappa(double share) {
            return concentrations.apply(share);
        }

        @Override
        public double[] sin2(ReleaseFacts f, double share) {
            int d = f.dimension();
            int k = f.components();
            double[] kappa = kappa(share);
            double t = f.trace();
            double theta = share * t;
            double b = k == d ? 0 : Math.max(0, 1 - k * share) * t / (d - k);
            double[] out = new double[k];
            for (int i = 0; i < k; i++) {
                out[i] = binghamMeanSin2(d - i, kappa[i] * Math.max(0, theta - b));
            }
            return out;
        }

        @Override
        public double[] sin2OnSpectrum(ReleaseFacts f, double[] lambda) {
            int d = f.dimension();
            int k = f.components();
            double rest = 0;
            for (int j = k; j < d; j++) {
                rest += lambda[j];
            }
            double b = k == d ? 0 : rest / (d - k);
            // κ from the mechanism's split with the k eigenvalues' mean share (AD splits by them)
            double share = 0;
            for (int i = 0; i < k; i++) {
                share += lambda[i] / k;
            }
            double[] kappa = kappa(share / Math.max(f.trace(), Double.MIN_NORMAL));
            double[] out = new double[k];
            for (int i = 0; i < k; i++) {
                out[i] = binghamMeanSin2(d - i, kappa[i] * Math.max(0, lambda[i] - b));
            }
            return out;
        }

        @Override
        public double[][] leakOnSpectrum(ReleaseFacts f, double[] lambda) {
            int d = f.dimension();
            int k = f.components();
            double[] sin2 = sin2OnSpectrum(f, lambda);
            double[][] leak = new double[k][d];
            for (int i = 0; i < k; i++) {
                for (int j = k; j < d; j++) {
                    leak[i][j] = sin2[i] / (d - k); // the sampler's leak has no preferred direction in the rest
                }
            }
            return leak;
        }

        @Override
        public double entryNoise() {
            return 0;
        }
    }

    /**
     * E[1 − t] for t = cos² of a unit vector in dimension q with density ∝ exp(c·t) against the uniform
     * measure, i.e. t^(−1/2)(1 − t)^((q − 3)/2)e^(ct) on [0, 1]. With 1 − t = sin²φ this is
     * ∫ sin^q φ e^(−c sin²φ) dφ / ∫ sin^(q−2) φ e^(−c sin²φ) dφ over [0, π/2]. Each integrand is unimodal, with
     * its peak where sin²φ = min(1, p/(2c)) (p its power of sin); it is integrated by Simpson's rule on 4,097
     * points over the window where it is within e^−60 of its peak, in log space.
     */
    static double binghamMeanSin2(int q, double c) {
        if (q <= 1) {
            return 0;
        }
        double num = logIntegral(q, c);
        double den = logIntegral(q - 2, c);
        return Math.min(1, Math.exp(num - den));
    }

    /** ln ∫_0^{π/2} sin^p φ · e^(−c sin²φ) dφ for p ≥ 0, c ≥ 0. */
    private static double logIntegral(int p, double c) {
        java.util.function.DoubleUnaryOperator f = phi -> (p == 0 ? 0 : p * Math.log(Math.sin(phi)))
                - c * Math.sin(phi) * Math.sin(phi);
        double half = Math.PI / 2;
        double peak = p == 0 ? 0 : (c <= p / 2.0 ? half : Math.asin(Math.sqrt(p / (2 * c))));
        double top = f.applyAsDouble(Math.max(peak, 1e-300));
        double drop = 60;
        double lo = 0;
        double hi = half;
        if (peak > 0 && f.applyAsDouble(Double.MIN_NORMAL) < top - drop) {
            double a = Double.MIN_NORMAL;
            double b = peak;
            for (int i = 0; i < 100; i++) {
                double m = (a + b) / 2;
                if (f.applyAsDouble(m) < top - drop) {
                    a = m;
                } else {
                    b = m;
                }
            }
            lo = a;
        }
        if (peak < half && f.applyAsDouble(half) < top - drop) {
            double a = peak;
            double b = half;
            for (int i = 0; i < 100; i++) {
                double m = (a + b) / 2;
                if (f.applyAsDouble(m) < top - drop) {
                    b = m;
                } else {
                    a = m;
                }
            }
            hi = b;
        }
        int m = 1 << 12;
        double h = (hi - lo) / m;
        double sum = 0;
        for (int i = 0; i <= m; i++) {
            double phi = lo + i * h;
            double v = phi <= 0 ? (p == 0 ? 0 : Double.NEGATIVE_INFINITY) : f.applyAsDouble(phi);
            double w = i == 0 || i == m ? 1 : (i % 2 == 1 ? 4 : 2);
            sum += w * Math.exp(v - top);
        }
        return Math.log(sum * h / 3) + top;
    }

    /** √(2 Σ sin²θ_i). */
    static double subspaceError(double[] sin2) {
        double s = 0;
        for (double v : sin2) {
            s += v;
        }
        return Math.sqrt(2 * s);
    }

    /** The smallest share s ≤ 1/k at which every direction is recovered, by bisection; +∞ if none is. */
    static double requiredShare(Model m, ReleaseFacts f) {
        int k = f.components();
        if (k == f.dimension()) {
            return 0;
        }
        double hi = 1.0 / k;
        if (!recovered(m.sin2(f, hi))) {
            return Double.POSITIVE_INFINITY;
        }
        double lo = 0;
        for (int i = 0; i < 40; i++) {
            double mid = (lo + hi) / 2;
            if (recovered(m.sin2(f, mid))) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    private static boolean recovered(double[] sin2) {
        for (double v : sin2) {
            if (!(v <= RECOVERED_SIN2)) {
                return false;
            }
        }
        return true;
    }

    private static void checkShare(double share) {
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("the expected share must be in (0, 1], got " + share
                    + "; e.g. 0.1 for a direction holding a tenth of the variance");
        }
    }
}
