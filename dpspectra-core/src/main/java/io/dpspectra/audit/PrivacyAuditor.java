package io.dpspectra.audit;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Arrays;
import java.util.Objects;

/**
 * Empirical privacy auditing: runs a mechanism many times on two neighbouring datasets, applies a
 * threshold test to a scalar statistic of its output, and reports a lower bound on ε that holds with
 * the stated confidence (Clopper–Pearson intervals). A lower bound above the claimed ε is a violation.
 *
 * <p>Method. Each dataset's {@code trials} outputs are split into halves. On the first halves the
 * auditor chooses a test "guess D when s &gt; t" or "guess D when s &lt; t" (a side and a threshold t
 * among about {@value #MAX_CANDIDATES} pooled order statistics, dense in the tails) maximising the ε lower bound computed below
 * (the conservative estimate, so that a threshold deep in a thinly sampled tail is not chosen for its
 * noisy point estimate). On the independent second halves it counts the test's false positives (D'
 * runs guessed D) and false negatives (D runs not guessed D) and takes one-sided Clopper–Pearson upper
 * bounds FPR⁺ and FNR⁺, each at confidence 1 − (1 − c)/2 (Bonferroni over the two bounds, so both hold
 * together with probability ≥ c). If the mechanism is (ε, δ)-DP, both
 * 1 − FNR ≤ e^ε FPR + δ and 1 − FPR ≤ e^ε FNR + δ hold, so with probability ≥ c
 * <pre>  ε ≥ ε_lb = max(0, ln((1 − δ − FNR⁺)/FPR⁺), ln((1 − δ − FPR⁺)/FNR⁺)).</pre>
 * The result is a violation iff ε_lb &gt; claimed ε: for a correct mechanism that happens with
 * probability at most 1 − c.
 *
 * <p>Reference: the threshold-test auditing of Jagielski, Ullman &amp; Oprea (NeurIPS 2020) and
 * Nasr et al. (IEEE S&amp;P 2021), with the hypothesis-testing view of DP of Kairouz, Oh &amp; Viswanath.
 *
 * <p>Cost: 2·trials mechanism runs, O(trials·log trials) for the test; memory O(trials).
 */
public final class PrivacyAuditor {
    static final int MAX_CANDIDATES = 512;

    /** One run of the mechanism under test, reduced to a scalar statistic of its output. */
    @FunctionalInterface
    public interface Trial {
        /**
         * Runs the mechanism once on one fixed dataset and reduces its output to the statistic the threshold test
         * compares.
         *
         * @param random the randomness for this run; the mechanism must draw all its noise from it
         * @return the statistic (never NaN)
         */
        double run(RandomSource random);
    }

    /**
     * @param epsilonLowerBound the empirical lower bound on ε (0 if nothing was detected)
     * @param claimed           the claimed guarantee
     * @param confidence        the confidence of the bound
     * @param trials            runs per dataset
     * @param threshold         the threshold of the best test
     * @param violation         true when epsilonLowerBound &gt; claimed ε
     */
    public record Result(double epsilonLowerBound, PrivacyParams claimed, double confidence, int trials,
                         double threshold, boolean violation) {
    }

    private final int trials;
    private final double confidence;
    private final RandomSource random;

    private PrivacyAuditor(Builder b) {
        this.trials = b.trials;
        this.confidence = b.confidence;
        this.random = b.random;
    }

    /**
     * A builder with the defaults: 100,000 trials per dataset, confidence 0.95, secure randomness.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. */
    public static final class Builder {
        private int trials = 100_000;
        private double confidence = 0.95;
        private RandomSource random;

        /**
         * Runs per dataset, ≥ 100 (split in halves); default 100,000.
         *
         * @param trials the number of runs per dataset
         * @return this builder
         */
        public Builder trials(int trials) {
            this.trials = DpPreconditions.checkAtLeast("trials", trials, 100);
            return this;
        }

        /**
         * Confidence of the lower bound, in (0, 1); default 0.95.
         *
         * @param confidence the confidence level
         * @return this builder
         */
        public Builder confidence(double confidence) {
            if (!(confidence > 0 && confidence < 1)) {
                throw new IllegalArgumentException("confidence must be in (0, 1), got " + confidence
                        + "; use e.g. 0.95");
            }
            this.confidence = confidence;
            return this;
        }

        /**
         * Randomness for the mechanism runs (seeded in tests). Default {@link RandomSource#secure()}.
         *
         * @param random the randomness passed to the trials
         * @return this builder
         */
        public Builder randomSource(RandomSource random) {
            this.random = Objects.requireNonNull(random, "randomSource");
            return this;
        }

        /**
         * The auditor with this configuration.
         *
         * @return a new auditor
         */
        public PrivacyAuditor build() {
            if (random == null) {
                random = RandomSource.secure();
            }
            return new PrivacyAuditor(this);
        }
    }

    /**
     * Audits {@code onD} against {@code onDPrime} for the claimed guarantee.
     *
     * @param onD the mechanism run on a dataset D
     * @param onDPrime the same mechanism run on a neighbour D' of D (one privacy unit changed)
     * @param claimed the guarantee the mechanism claims; its δ enters the bound
     * @return the empirical lower bound on ε, the best test's threshold, and whether the claim is violated
     */
    public Result audit(Trial onD, Trial onDPrime, PrivacyParams claimed) {
        Objects.requireNonNull(onD, "onD");
        Objects.requireNonNull(onDPrime, "onDPrime");
        Objects.requireNonNull(claimed, "claimed");
        double[] d = run(onD, random.split());
        double[] dp = run(onDPrime, random.split());
        int half = trials / 2;
        double[] dSelect = sorted(d, 0, half);
        double[] dpSelect = sorted(dp, 0, half);
        double[] dEval = sorted(d, half, trials);
        double[] dpEval = sorted(dp, half, trials);
        double delta = claimed.delta();

        // Selection on the first halves.
        double bestBound = Double.NEGATIVE_INFINITY;
        double bestThreshold = Double.NaN;
        boolean bestAbove = true;
        for (double t : candidates(dSelect, dpSelect)) {
            for (boolean above : new boolean[] {true, false}) {
                double lb = bound(dSelect, dpSelect, t, above, delta);
                if (lb > bestBound) {
                    bestBound = lb;
                    bestThreshold = t;
                    bestAbove = above;
                }
            }
        }
        // Evaluation on the independent second halves.
        double epsLb = bound(dEval, dpEval, bestThreshold, bestAbove, delta);
        return new Result(epsLb, claimed, confidence, trials, bestThreshold, epsLb > claimed.epsilon());
    }

    private double[] run(Trial trial, RandomSource r) {
        double[] out = new double[trials];
        for (int i = 0; i < trials; i++) {
            double s = trial.run(r);
            if (Double.isNaN(s)) {
                throw new IllegalArgumentException("the trial's statistic was NaN in run " + (i + 1)
                        + "; return a number for every output of the mechanism");
            }
            out[i] = s;
        }
        return out;
    }

    private static double[] sorted(double[] a, int from, int to) {
        double[] s = Arrays.copyOfRange(a, from, to);
        Arrays.sort(s);
        return s;
    }

    /**
     * Candidate thresholds: the pooled sample at evenly spaced ranks, plus at geometrically spaced ranks
     * (factor 1.1) from each end, so that thin tails, where the privacy loss of many mechanisms
     * concentrates, are searched too. At most about MAX_CANDIDATES values.
     */
    private static double[] candidates(double[] a, double[] b) {
        double[] pooled = new double[a.length + b.length];
        System.arraycopy(a, 0, pooled, 0, a.length);
        System.arraycopy(b, 0, pooled, a.length, b.length);
        Arrays.sort(pooled);
        int n = pooled.length;
        java.util.TreeSet<Integer> ranks = new java.util.TreeSet<>();
        int uniform = MAX_CANDIDATES / 2;
        for (int i = 0; i < uniform; i++) {
            ranks.add((int) ((long) i * (n - 1) / (uniform - 1)));
        }
        for (double r = 1; r < n / 2.0 && ranks.size() < MAX_CANDIDATES; r = Math.max(r + 1, r * 1.1)) {
            ranks.add((int) r);
            ranks.add(n - 1 - (int) r);
        }
        return ranks.stream().mapToDouble(i -> pooled[i]).toArray();
    }

    /**
     * The ε lower bound of the test "guess D when s &gt; t" ({@code above}) or "s &lt; t" on the given
     * sorted samples, with Bonferroni-corrected one-sided Clopper–Pearson bounds.
     */
    double bound(double[] sortedD, double[] sortedDPrime, double t, boolean above, double delta) {
        long nD = sortedD.length;
        long nDp = sortedDPrime.length;
        long dAbove = nD - upperIndex(sortedD, t);          // # s > t
        long dpAbove = nDp - upperIndex(sortedDPrime, t);
        long dBelow = lowerIndex(sortedD, t);                // # s < t
        long dpBelow = lowerIndex(sortedDPrime, t);
        long falseNegatives = above ? nD - dAbove : nD - dBelow;
        long falsePositives = above ? dpAbove : dpBelow;
        double each = 1 - (1 - confidence) / 2;
        double fnrUb = ClopperPearson.upperBound(falseNegatives, nD, each);
        double fprUb = ClopperPearson.upperBound(falsePositives, nDp, each);
        return Math.max(logRatio(1 - delta - fnrUb, fprUb), logRatio(1 - delta - fprUb, fnrUb));
    }

    /** max(0, ln(num/den)), 0 when num ≤ 0. */
    private static double logRatio(double num, double den) {
        if (!(num > 0)) {
            return 0;
        }
        double e = Math.log(num / den);
        return e > 0 ? e : 0;
    }

    /** The number of entries ≤ t. */
    private static int upperIndex(double[] sorted, double t) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The number of entries &lt; t. */
    private static int lowerIndex(double[] sorted, double t) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
