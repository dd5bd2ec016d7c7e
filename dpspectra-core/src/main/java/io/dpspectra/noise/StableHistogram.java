package io.dpspectra.noise;

import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The stability-based DP histogram learner: Laplace-noised counts of the non-empty bins of an
 * unbounded bin domain, released only where the noisy count clears a threshold.
 *
 * <p>Privacy: (ε, δ)-DP; the unit is one item (one bin index). A neighbour changes the counts of at most
 * S bins by one, S = 1 under {@link Neighbouring#ADD_REMOVE_ROW} and S = 2 under
 * {@link Neighbouring#REPLACE_ROW} (L1 sensitivity S of the count vector). Bins non-empty on both sides
 * are protected by Laplace noise of scale b = {@link LaplaceNoise#scaleFor scaleFor}(S, ε) ≥ S/ε; a bin
 * empty on one side is released on the other only if 1 + Lap(b) &gt; 1 + b·ln(2/δ), probability δ/4, for
 * at most two bins: δ/2 ≤ δ in total. The whole (ε, δ) is spent in this one release.
 *
 * <p>Reference: Karwa &amp; Vadhan (2017) histogram learner as used by Liu et al. (2022, DP-PCA), cited
 * without a lemma number by papers/kdp-pca-adaptive-noise.txt Alg. 6 l.6 and Alg. 7 l.3; spec
 * stochastic-and-power-methods.md §0.3.
 *
 * <p>Cost: O(N log N) time for N items, O(#non-empty bins) memory; empty bins are never touched.
 */
public final class StableHistogram {
    /** The bin index that means "this item falls in no bin" (e.g. a non-positive eigenvalue). */
    public static final long NO_BIN = Long.MIN_VALUE;

    private final LaplaceNoise noise;

    public StableHistogram(RandomSource random) {
        this.noise = new LaplaceNoise(Objects.requireNonNull(random, "random"));
    }

    /** The L1 sensitivity S of the count vector: 1 (add/remove) or 2 (replace). */
    public static int countSensitivity(Neighbouring relation) {
        return relation == Neighbouring.ADD_REMOVE_ROW ? 1 : 2;
    }

    /** The Laplace scale b used for the counts, ≥ S/ε. */
    public static double scale(PrivacyParams params, Neighbouring relation) {
        return LaplaceNoise.scaleFor(countSensitivity(relation), params.epsilon());
    }

    /** The release threshold 1 + b·ln(2/δ) a noisy count must exceed (spec §0.3 step 3). */
    public static double threshold(PrivacyParams params, Neighbouring relation) {
        DpPreconditions.checkPositiveDelta(params.delta(), "StableHistogram");
        return 1 + scale(params, relation) * Math.log(2 / params.delta());
    }

    /**
     * Releases the noisy counts of the bins that clear the threshold, keyed by bin index in increasing
     * order (possibly empty). Items equal to {@link #NO_BIN} are counted nowhere. Not modified: bins.
     */
    public TreeMap<Long, Double> release(long[] bins, PrivacyParams params, Neighbouring relation) {
        Objects.requireNonNull(bins, "bins");
        Objects.requireNonNull(relation, "relation");
        double threshold = threshold(params, relation);
        double b = scale(params, relation);
        TreeMap<Long, long[]> counts = new TreeMap<>();
        for (long bin : bins) {
            if (bin != NO_BIN) {
                counts.computeIfAbsent(bin, x -> new long[1])[0]++;
            }
        }
        TreeMap<Long, Double> out = new TreeMap<>();
        for (Map.Entry<Long, long[]> e : counts.entrySet()) { // increasing bin index: deterministic noise order
            double noisy = noise.addNoise(e.getValue()[0], b);
            if (noisy > threshold) {
                out.put(e.getKey(), noisy);
            }
        }
        return out;
    }

    /** The released bin with the largest noisy count (ties: smallest index), or empty. */
    public static OptionalLong argmax(Map<Long, Double> released) {
        long best = 0;
        double bestCount = Double.NEGATIVE_INFINITY;
        boolean any = false;
        for (Map.Entry<Long, Double> e : new TreeMap<>(released).entrySet()) {
            if (e.getValue() > bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
                any = true;
            }
        }
        return any ? OptionalLong.of(best) : OptionalLong.empty();
    }
}
