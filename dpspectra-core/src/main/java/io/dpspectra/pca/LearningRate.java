package io.dpspectra.pca;

import io.dpspectra.privacy.DpPreconditions;
import java.util.Locale;

/**
 * A learning-rate schedule η(i, t) for deflation round i = 1..k and step t = 1..T of an Oja-type
 * update. Public hyper-parameter: it must not be derived from the private data.
 *
 * <p>Reference: papers/kdp-pca-adaptive-noise.txt App. G.1 (the two experiment schedules); spec
 * stochastic-and-power-methods.md §2.2, §2.5, §8 #5, #6, #18.
 */
public interface LearningRate {
    /**
     * η for round {@code round} (1-based) and step {@code step} (1-based).
     *
     * @param round the deflation round
     * @param step  the step within the round
     * @return η, &gt; 0
     */
    double eta(int round, long step);

    /**
     * A one-line description recorded in diagnostics.
     *
     * @return the description
     */
    String describe();

    /**
     * η_t = c / (t0 + t): with c = 1, t0 = 1 the k-DP-Ojas schedule 1/(1 + j) of App. G.1, restarted each round.
     *
     * @param c  c, &gt; 0
     * @param t0 t0, &gt; 0
     * @return the schedule
     */
    static LearningRate inverseTime(double c, double t0) {
        DpPreconditions.checkPositive("learning-rate scale c", c);
        if (!(t0 >= 0) || !Double.isFinite(t0)) {
            throw new IllegalArgumentException("learning-rate offset t0 must be >= 0 and finite, got " + t0);
        }
        return new LearningRate() {
            @Override
            public double eta(int round, long step) {
                return c / (t0 + step);
            }

            @Override
            public String describe() {
                return String.format(Locale.ROOT, "eta_t = %s / (%s + t), restarted every round", c, t0);
            }
        };
    }

    /**
     * η_t = 1/(1 + t) (App. G.1, k-DP-Ojas).
     *
     * @return the schedule
     */
    static LearningRate paperOja() {
        return inverseTime(1, 1);
    }

    /**
     * A constant η.
     *
     * @param eta η, &gt; 0
     * @return the schedule
     */
    static LearningRate constant(double eta) {
        DpPreconditions.checkPositive("learning rate", eta);
        return new LearningRate() {
            @Override
            public double eta(int round, long step) {
                return eta;
            }

            @Override
            public String describe() {
                return "eta = " + eta + " (constant)";
            }
        };
    }

    /**
     * App. G.1's k-DP-PCA schedule η_t^(i) = 1 / (20 σ λ_i + (λ_i − λ_{i+1}) t / ln n), with λ the public
     * spike values (descending), λ_{k+1} := 0 (spec §8 #6) and n the total sample size (§8 #5).
     *
     * @param sigma  σ, the public noise level of the model
     * @param spikes the public spike values λ, descending
     * @param n      the total sample size
     * @return the schedule
     */
    static LearningRate appendixG(double sigma, double[] spikes, long n) {
        double[] l = spikes.clone();
        if (n < 2) {
            throw new IllegalArgumentException("n must be >= 2 for the App. G learning rate, got " + n);
        }
        double logN = Math.log(n);
        return new LearningRate() {
            @Override
            public double eta(int round, long step) {
                int i = Math.min(round, l.length) - 1;
                double gap = l[i] - (i + 1 < l.length ? l[i + 1] : 0);
                return 1 / (20 * sigma * l[i] + gap * step / logN);
            }

            @Override
            public String describe() {
                return String.format(Locale.ROOT, "eta_t^(i) = 1/(20*%s*lambda_i + (lambda_i - lambda_{i+1}) t / ln %d), "
                        + "lambda = %s (App. G.1)", sigma, n, java.util.Arrays.toString(l));
            }
        };
    }
}
