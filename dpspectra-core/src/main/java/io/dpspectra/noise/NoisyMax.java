package io.dpspectra.noise;

import io.dpspectra.privacy.DpPreconditions;
import java.util.Objects;

/**
 * Report noisy max with one-sided exponential noise, exact on an integer lattice: each candidate's
 * utility u_i (an integer number of units) gets an independent geometric sample k_i with
 * P(k_i ≥ x) = exp(−x/t), x = 0, 1, 2, …, and the first index with the largest u_i + k_i is released.
 *
 * <p>Privacy: pure ε-DP for utilities of sensitivity Δ units (every u_i moves by at most Δ between
 * neighbours, in any direction, under whatever relation Δ was derived for) when t = ⌈2Δ/ε⌉. Proof (the
 * shift argument of Dwork &amp; Roth 2014, Claim 3.9, written for one-sided lattice noise): fix every
 * k_j with j ≠ i. Candidate i wins on D iff k_i ≥ κ, where κ = max(max_{j&lt;i}(u_j + k_j) + 1,
 * max_{j&gt;i}(u_j + k_j)) − u_i is an integer; on a neighbour every u moves by at most Δ, so its κ' ≤ κ + 2Δ.
 * The geometric tail satisfies P(k ≥ x + 2Δ) ≥ e^{−2Δ/t}·P(k ≥ x) for every integer x (equality for
 * x ≥ 0), so P_{D'}(i wins | k_{−i}) ≥ e^{−ε}·P_D(i wins | k_{−i}); integrating over k_{−i} gives ε-DP
 * for every output i. The arithmetic is exact (integers), so no floating-point rounding enters the
 * argument. With continuous exponential noise this mechanism is identical in law to permute-and-flip
 * (Ding, Kifer et al., "The permute-and-flip mechanism is identical to report-noisy-max with exponential
 * noise", 2021; McKenna &amp; Sheldon, NeurIPS 2020), which is never less accurate than the exponential
 * mechanism at the same ε.
 *
 * <p>Accuracy: a candidate whose utility is r units below the best wins over it with probability at most
 * e^{−r/t}/2 (the difference of two independent geometric samples), so with m candidates the released
 * utility is within t·ln(m/(2β)) of the best with probability at least 1 − β.
 *
 * <p>Timing: one geometric sample per candidate, whose running time depends only on t and the random
 * words, never on the utilities; no exception depends on the utilities (sums are bounded as below).
 * Geometric samples of 2^62 or more (probability below e^−500 for every t this class accepts) are
 * redrawn, as {@link LaplaceNoise} redraws its extreme samples.
 *
 * <p>Cost: O(m) time and O(1) memory, about 1.13 random words per candidate.
 */
public final class NoisyMax {
    /** Utilities must lie in [−2^62, 2^62] units so that u + k never overflows. */
    public static final long MAX_MAGNITUDE = 1L << 62;

    private NoisyMax() {
    }

    /**
     * The scale t = ⌈2Δ/ε⌉ (in units) of the geometric noise for sensitivity Δ units and budget ε.
     *
     * @throws IllegalArgumentException when ε or Δ is not positive and finite, or t would exceed 2^53 (ε
     *                                  far too small for the units)
     * @param sensitivityUnits Δ, the utilities' sensitivity in units, at least 1
     * @param epsilon ε
     * @return t
     */
    public static long scale(long sensitivityUnits, double epsilon) {
        DpPreconditions.checkEpsilon(epsilon);
        if (sensitivityUnits < 1) {
            throw new IllegalArgumentException("the sensitivity must be at least one unit, got " + sensitivityUnits);
        }
        double t = Math.ceil(2.0 * sensitivityUnits / epsilon);
        if (!(t <= DiscreteSamplers.MAX_FAST)) {
            throw new IllegalArgumentException("epsilon = " + epsilon + " is too small for a noisy max over "
                    + sensitivityUnits + "-unit utilities (noise scale above 2^53 units)");
        }
        return (long) t;
    }

    /**
     * The index of the largest u_i + k_i (the first one on ties): ε-DP for utilities of sensitivity
     * {@code sensitivityUnits}.
     *
     * @param utilities utilities in units, each in [−{@link #MAX_MAGNITUDE}, {@link #MAX_MAGNITUDE}]; at least one
     * @param sensitivityUnits Δ, the utilities' sensitivity in units, at least 1
     * @param epsilon ε, spent in full
     * @param random the noise source
     * @return the selected index
     */
    public static int select(long[] utilities, long sensitivityUnits, double epsilon, RandomSource random) {
        Objects.requireNonNull(utilities, "utilities");
        Objects.requireNonNull(random, "random");
        if (utilities.length == 0) {
            throw new IllegalArgumentException("a noisy max needs at least one candidate");
        }
        for (long u : utilities) {
            if (u < -MAX_MAGNITUDE || u > MAX_MAGNITUDE) {
                throw new IllegalArgumentException("utility " + u + " is outside [-2^62, 2^62]; clamp it first");
            }
        }
        long t = scale(sensitivityUnits, epsilon);
        double td = t;
        int best = -1;
        long bestScore = Long.MIN_VALUE;
        for (int i = 0; i < utilities.length; i++) {
            long k;
            do {
                k = DiscreteSamplers.geometric(random, t, td);
            } while (k >= MAX_MAGNITUDE || k < 0);
            long score = utilities[i] + k;
            if (score > bestScore) {
                bestScore = score;
                best = i;
            }
        }
        return best;
    }
}
