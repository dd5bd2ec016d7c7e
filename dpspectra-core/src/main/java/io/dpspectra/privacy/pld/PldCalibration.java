package io.dpspectra.privacy.pld;

import io.dpspectra.privacy.ComposedGaussian;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Objects;

/**
 * Noise calibration by exact (Gaussian) or pessimistic (PLD) accounting: the smallest noise whose composition over
 * the steps of an iterative algorithm meets a target (ε, δ).
 *
 * <p>{@link #gaussianSigma}: T Gaussian releases of L2 sensitivity Δ compose to one Gaussian mechanism with
 * μ = √T·Δ/σ (Dong, Roth &amp; Su 2022, Corollary 3.3), so σ = √T·Δ/μ* with μ* the largest μ meeting (ε, δ)
 * ({@link GaussianPrivacy#mu}): exact, with no slack for composition.
 *
 * <p>{@link #poissonNoiseMultiplier}: the smallest noise multiplier z (to 1e−3 relative, the safe end of a bisection)
 * whose T-fold Poisson-subsampled Gaussian PLD has δ(ε) ≤ δ, at discretisation interval min(1e−3, ε/100): every
 * tested z is checked with a distribution that is never optimistic, so the returned z is private whatever the
 * discretisation; a finer interval would only find a slightly smaller z. Replace-one is accounted exactly
 * (Lebeda et al. 2024, Proposition 13), not through add/remove and group privacy.
 *
 * <p>Cost: each trial builds one step's distribution (10⁴ to 10⁵ entries) and composes it T times by binary
 * powering; about a dozen trials: 1–5 s for T = 2000 on one core (one step: its exact curve, about 0.1 ms).
 * Results are remembered (at most {@value #MEMO_SIZE} settings, a pure function of its arguments, so the memo only
 * saves time), because experiments and audits fit the same setting many times.
 */
public final class PldCalibration {
    private static final int MEMO_SIZE = 256;

    private record Setting(double q, int steps, double epsilon, double delta, Neighbouring relation) {
    }

    private static final java.util.concurrent.ConcurrentHashMap<Setting, Double> MEMO =
            new java.util.concurrent.ConcurrentHashMap<>();

    private PldCalibration() {
    }

    /**
     * σ for T Gaussian releases of L2 sensitivity Δ that together meet the target exactly (GDP composition).
     *
     * @param l2Sensitivity the L2 sensitivity Δ of each release
     * @param releases      the number of releases T, ≥ 1
     * @param target        the (ε, δ) the releases together meet, δ &gt; 0
     * @return σ
     */
    public static double gaussianSigma(double l2Sensitivity, int releases, PrivacyParams target) {
        DpPreconditions.checkSensitivity("l2Sensitivity", l2Sensitivity);
        DpPreconditions.checkAtLeast("iterations", releases, 1);
        return l2Sensitivity * Math.sqrt(releases) / GaussianPrivacy.mu(target);
    }

    /** The discretisation interval used for a target ε. */
    static double interval(double epsilon) {
        return Math.min(1e-3, epsilon / 100);
    }

    /**
     * The smallest noise multiplier z (noise std ÷ the bound on one record's contribution to the batch sum) for
     * which {@code steps} Poisson-subsampled Gaussian steps at rate q meet the target under {@code relation}.
     *
     * @param q        the sampling rate, in (0, 1]
     * @param steps    the number of steps, ≥ 1
     * @param target   the (ε, δ) to meet, δ &gt; 0
     * @param relation add/remove or replace-one rows
     * @return z (the upper end of the bisection)
     */
    public static double poissonNoiseMultiplier(double q, int steps, PrivacyParams target, Neighbouring relation) {
        if (!(q > 0 && q <= 1)) {
            throw new IllegalArgumentException("the sampling rate (batch size / rows) must be in (0, 1], got " + q
                    + "; use a batch size between 1 and the number of rows");
        }
        DpPreconditions.checkAtLeast("iterations", steps, 1);
        DpPreconditions.checkPositiveDelta(target.delta(), "the subsampled Gaussian mechanism");
        Objects.requireNonNull(relation, "relation");
        Setting key = new Setting(q, steps, target.epsilon(), target.delta(), relation);
        Double known = MEMO.get(key);
        if (known != null) {
            return known;
        }
        double z = search(q, steps, target, relation);
        if (MEMO.size() >= MEMO_SIZE) {
            MEMO.clear();
        }
        MEMO.put(key, z);
        return z;
    }

    private static double search(double q, int steps, PrivacyParams target, Neighbouring relation) {
        double h = interval(target.epsilon());
        // a bracket from the Renyi accountant (valid, so the exact one needs no more, up to discretisation)
        PrivacyParams addRemove = relation == Neighbouring.REPLACE_ROW
                ? ComposedGaussian.addRemoveTargetForReplace(target) : target;
        double hi;
        if (steps == 1) {
            hi = 1; // one step is checked on its exact curve, in microseconds: no bracket needed
        } else {
            try {
                hi = ComposedGaussian.poissonNoiseMultiplier(q, steps, addRemove);
            } catch (IllegalArgumentException e) {
                hi = 200;
            }
        }
        int guard = 0;
        while (!fits(q, hi, steps, target, relation, h)) {
            hi *= 1.5;
            if (++guard > (steps == 1 ? 40 : 20)) {
                throw new IllegalArgumentException("no noise multiplier up to " + hi + " reaches epsilon "
                        + target.epsilon() + " with sampling rate " + q + " over " + steps
                        + " iterations; raise epsilon, or use fewer iterations or a smaller batch");
            }
        }
        double lo = hi / 4;
        double floor = steps == 1 ? 1e-6 : hi / 64;
        while (lo > floor && fits(q, lo, steps, target, relation, h)) {
            hi = lo;
            lo /= 2;
        }
        while (hi - lo > (steps == 1 ? 1e-7 : 1e-3) * hi) {
            double mid = 0.5 * (lo + hi);
            if (fits(q, mid, steps, target, relation, h)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * True when T steps at (q, z) meet the target by the (pessimistic) PLD at interval h; for one step, by the exact
     * curve itself (plus its evaluation error), with no discretisation.
     */
    static boolean fits(double q, double z, int steps, PrivacyParams target, Neighbouring relation, double h) {
        if (steps == 1) {
            double eps = target.epsilon();
            double d = relation == Neighbouring.REPLACE_ROW
                    ? Curves.subsampledGaussian(q, z, Curves.Direction.REPLACE).delta(eps)
                    : Math.max(Curves.subsampledGaussian(q, z, Curves.Direction.REMOVE).delta(eps),
                            Curves.subsampledGaussian(q, z, Curves.Direction.ADD).delta(eps));
            return d + 1e-14 <= target.delta();
        }
        PrivacyLossDistribution one = PrivacyLossDistribution.poissonSubsampledGaussian(q, z, relation, h);
        PrivacyLossDistribution all = steps == 1 ? one : one.selfCompose(steps);
        return all.deltaForEpsilon(target.epsilon()) <= target.delta();
    }

    /**
     * The ε at δ of T subsampled steps at (q, z) by the PLD at the calibration's interval.
     *
     * @param q            the sampling rate, in (0, 1]
     * @param z            the noise multiplier, &gt; 0
     * @param steps        the number of steps, ≥ 1
     * @param delta        δ
     * @param relation     add/remove or replace-one rows
     * @param epsilonScale the ε the discretisation interval is chosen for (as in the calibration)
     * @return ε, never below the exact one
     */
    public static double poissonEpsilon(double q, double z, int steps, double delta, Neighbouring relation,
                                        double epsilonScale) {
        PrivacyLossDistribution one = PrivacyLossDistribution.poissonSubsampledGaussian(q, z, relation,
                interval(epsilonScale));
        return (steps == 1 ? one : one.selfCompose(steps)).epsilonForDelta(delta);
    }
}
