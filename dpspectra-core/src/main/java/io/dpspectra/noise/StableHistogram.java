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
 * {@link Neighbouring#REPLACE_ROW} (L1 sensitivity S of the count vector). Counts get Laplace noise of
 * scale b = {@link LaplaceNoise#scaleFor scaleFor}(S, ε) ≥ S/ε; a bin is released iff its noisy count
 * exceeds T = 1 + g + b·ln(1/(2δ')), δ' = min(δ, 1/2), g the sampler's granularity (a noisy value is the
 * exact one rounded by at most g). The whole (ε, δ) is spent in this one release.
 *
 * <p>Proof of the threshold. Fix neighbours D, D' and write C for the bins non-empty in both, a for a bin
 * non-empty in D only and c for one non-empty in D' only. A count changes by at most one, so a and c have
 * count exactly 1 where they are non-empty, and there is at most one of each (replace-one moves one item
 * from one bin to another; add/remove touches one bin). A bin of count 1 is released with probability
 * p = P(1 + Lap(b) &gt; T − g) = ½·e^{−(T−1−g)/b} = δ'. The releases of different bins are independent; let
 * X, X' be the released parts over C and ℓ ≤ S − [a] − [c] the L1 distance of the counts over C, so
 * P(X ∈ E) ≤ e^{ℓ/b} P(X' ∈ E) (Laplace, post-processed by the threshold). For any set E of outputs:
 * (1) no a, no c: e^{ℓ/b} ≤ e^ε, pure. (2) a only: outputs showing a have probability ≤ p; the others
 * have P_D ≤ (1 − p)·e^{ℓ/b}·P_D' ≤ e^ε P_D', so P_D(E) ≤ e^ε P_D'(E) + δ'. (3) c only: D never shows c,
 * and P_D'(E) ≥ (1 − p)·P(X' ∈ E) and ≥ P(X' ∈ E) − p; with x = P_D'(E) and u = e^{ℓ/b} ≤ e^{ε}·e^{−1/b}:
 * P_D(E) ≤ u·min(x/(1 − p), x + p). For S = 1 (ℓ = 0) the second form gives x + δ'. For S = 2 (ℓ ≤ 1,
 * u ≤ e^{ε/2} =: v) the bound u·(x + p) ≤ v²x + p holds for x ≥ p/v, and u·x/(1 − p) ≤ v²x + p on
 * [0, p/v] because both sides are linear, it holds at 0, and at x = p/v it reads 1/(1 − p) ≤ v + 1, true
 * for p ≤ 1/2. (4) a and c (replace-one, ℓ = 0): X and X' have the same law and both a and c are released
 * with the same probability p, so P_D(E) ≤ P_D'(E) + p. The other direction is symmetric. Hence
 * (ε, δ')-DP, so (ε, δ)-DP. This tightens the classic 1 + b·ln(2/δ) (which pays δ/4 per bin and two
 * bins) by b·ln 4; the statement "only one bin can become non-empty" is not by itself a proof, case (3)
 * needs p ≤ 1/2, which is why δ is capped at 1/2. The bound is attained by case (4): a singleton that
 * moves to a fresh bin is released with probability exactly δ' (audited in StableHistogramAuditTest).
 *
 * <p>Reference: Karwa &amp; Vadhan (2017) histogram learner as used by Liu et al. (2022, DP-PCA), cited
 * without a lemma number by papers/kdp-pca-adaptive-noise.txt Alg. 6 l.6 and Alg. 7 l.3; spec
 * stochastic-and-power-methods.md §0.3 (whose threshold 1 + b ln(2/δ) this replaces, see above).
 *
 * <p>Cost: O(N log N) time for N items, O(#non-empty bins) memory; empty bins are never touched.
 */
public final class StableHistogram {
    /** The bin index that means "this item falls in no bin" (e.g. a non-positive eigenvalue). */
    public static final long NO_BIN = Long.MIN_VALUE;

    private final LaplaceNoise noise;
    /** Test hook: added to the threshold, in units of b (0 in every public configuration). */
    private final double thresholdShift;

    /**
     * A histogram whose Laplace noise is drawn from {@code random} (the secure source for a private release).
     *
     * @param random the randomness of the noise
     */
    public StableHistogram(RandomSource random) {
        this(random, 0);
    }

    private StableHistogram(RandomSource random, double thresholdShift) {
        this.noise = new LaplaceNoise(Objects.requireNonNull(random, "random"));
        this.thresholdShift = thresholdShift;
    }

    /** A histogram whose threshold is moved by {@code shift}·b: package-private, for the auditor's broken twin. */
    static StableHistogram withThresholdShiftForAuditTests(RandomSource random, double shift) {
        return new StableHistogram(random, shift);
    }

    /**
     * The L1 sensitivity S of the count vector: 1 (add/remove) or 2 (replace).
     *
     * @param relation the neighbouring relation
     * @return S, 1 or 2
     */
    public static int countSensitivity(Neighbouring relation) {
        return relation == Neighbouring.ADD_REMOVE_ROW ? 1 : 2;
    }

    /**
     * The Laplace scale b used for the counts, ≥ S/ε.
     *
     * @param params   the (ε, δ) of the release
     * @param relation the neighbouring relation
     * @return b, &gt; 0
     */
    public static double scale(PrivacyParams params, Neighbouring relation) {
        return LaplaceNoise.scaleFor(countSensitivity(relation), params.epsilon());
    }

    /**
     * The release threshold 1 + g + b·ln(1/(2 min(δ, 1/2))) a noisy count must exceed (proof: class comment).
     *
     * @param params   the (ε, δ) of the release, δ &gt; 0
     * @param relation the neighbouring relation
     * @return the threshold T
     */
    public static double threshold(PrivacyParams params, Neighbouring relation) {
        DpPreconditions.checkPositiveDelta(params.delta(), "StableHistogram");
        double b = scale(params, relation);
        return 1 + Granularity.of(b) + b * Math.log(1 / (2 * Math.min(params.delta(), 0.5)));
    }

    /**
     * Releases the noisy counts of the bins that clear the threshold, keyed by bin index in increasing
     * order (possibly empty). Items equal to {@link #NO_BIN} are counted nowhere. Not modified: bins.
     *
     * @param bins     one bin index per item (a privacy unit contributes one item)
     * @param params   the (ε, δ) spent by this release, δ &gt; 0
     * @param relation the neighbouring relation
     * @return the released bins and their noisy counts, in increasing bin order
     */
    public TreeMap<Long, Double> release(long[] bins, PrivacyParams params, Neighbouring relation) {
        Objects.requireNonNull(bins, "bins");
        TreeMap<Long, Long> counts = new TreeMap<>();
        for (long bin : bins) {
            if (bin != NO_BIN) {
                counts.merge(bin, 1L, Long::sum);
            }
        }
        return release(counts, params, relation);
    }

    /**
     * The same release from counts already tallied (streaming callers keep O(#bins) memory): bin index to
     * its number of items (&gt; 0). Not modified: counts.
     *
     * @param counts   bin index to count, every count &gt; 0
     * @param params   the (ε, δ) spent by this release, δ &gt; 0
     * @param relation the neighbouring relation
     * @return the released bins and their noisy counts, in increasing bin order
     */
    public TreeMap<Long, Double> release(java.util.SortedMap<Long, Long> counts, PrivacyParams params,
                                         Neighbouring relation) {
        Objects.requireNonNull(counts, "counts");
        Objects.requireNonNull(relation, "relation");
        double b = scale(params, relation);
        double threshold = threshold(params, relation) + thresholdShift * b;
        TreeMap<Long, Double> out = new TreeMap<>();
        for (Map.Entry<Long, Long> e : counts.entrySet()) { // increasing bin index: deterministic noise order
            double noisy = noise.addNoise(e.getValue(), b);
            if (noisy > threshold) {
                out.put(e.getKey(), noisy);
            }
        }
        return out;
    }

    /**
     * The released bin with the largest noisy count (ties: smallest index), or empty.
     *
     * @param released a release of {@link #release}
     * @return the index of the bin with the largest noisy count, or empty when nothing was released
     */
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
