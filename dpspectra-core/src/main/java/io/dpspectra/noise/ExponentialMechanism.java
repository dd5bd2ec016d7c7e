package io.dpspectra.noise;

import io.dpspectra.privacy.DpPreconditions;
import java.util.Objects;

/**
 * The exponential mechanism over a finite set of candidates: candidate i is drawn with probability
 * ∝ exp(ε·u_i/(2Δ)) for utilities u_i of sensitivity Δ, which is ε-DP (McSherry &amp; Talwar, FOCS 2007,
 * Theorem 6; Dwork &amp; Roth 2014, Theorem 3.10).
 *
 * <p>Sampling: the weights exp(ε(u_i − max u)/(2Δ)) are formed in double precision and one uniform
 * draw from the random source picks a candidate by its cumulative weight. Unlike a continuous Laplace
 * sample, a draw over a finite set has no floating-point "holes" to exploit: every candidate's
 * probability is off by at most a few ulps relative (about 1e-15), which changes the guarantee's
 * e^ε by a factor below 1 + 1e-14. Candidates whose weight underflows to 0 (more than about 745 nats
 * below the best) are never drawn, which only makes the output's distribution closer on neighbours.
 *
 * <p>Cost: O(m) for m candidates, one random long.
 */
public final class ExponentialMechanism {
    private ExponentialMechanism() {
    }

    /**
     * Draws an index i with probability ∝ exp(ε·u_i/(2Δ)).
     *
     * @param utilities   u_i, finite (or −∞ for an excluded candidate; at least one finite)
     * @param sensitivity Δ, the most one neighbour can change any u_i
     * @param epsilon     ε
     */
    public static int sample(double[] utilities, double sensitivity, double epsilon, RandomSource random) {
        Objects.requireNonNull(utilities, "utilities");
        Objects.requireNonNull(random, "random");
        DpPreconditions.checkSensitivity("sensitivity", sensitivity);
        DpPreconditions.checkEpsilon(epsilon);
        if (utilities.length == 0) {
            throw new IllegalArgumentException("the exponential mechanism needs at least one candidate");
        }
        double max = Double.NEGATIVE_INFINITY;
        for (double u : utilities) {
            if (Double.isNaN(u) || u == Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException("utility " + u + " is not a finite number (or -infinity)");
            }
            max = Math.max(max, u);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            throw new IllegalArgumentException("every candidate has utility -infinity; allow at least one");
        }
        double factor = epsilon / (2 * sensitivity);
        double[] cumulative = new double[utilities.length];
        double total = 0;
        for (int i = 0; i < utilities.length; i++) {
            total += Math.exp(factor * (utilities[i] - max));
            cumulative[i] = total;
        }
        double u = random.nextDouble() * total;
        for (int i = 0; i < cumulative.length; i++) {
            if (u < cumulative[i]) {
                return i;
            }
        }
        // u rounded up to total: the last candidate with positive weight
        for (int i = cumulative.length - 1; i > 0; i--) {
            if (cumulative[i] > cumulative[i - 1]) {
                return i;
            }
        }
        return 0;
    }
}
