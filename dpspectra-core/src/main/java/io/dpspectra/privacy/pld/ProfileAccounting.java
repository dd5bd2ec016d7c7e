package io.dpspectra.privacy.pld;

import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.privacy.PrivacyProfile;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The privacy curve of a {@link PrivacyProfile}: exact (closed form, no discretisation) when the profile is
 * Gaussian only, else through its {@link PrivacyLossDistribution} at the discretisation interval h. Used by the
 * PLD accountant, the ledger and the calibrations.
 */
public final class ProfileAccounting {
    private ProfileAccounting() {
    }

    /**
     * The PLD of a profile: each distinct part built once and self-composed by its count, then all composed.
     *
     * @param profile what was run
     * @param h       the discretisation interval of the privacy loss, in (0, 1]
     * @return its privacy loss distribution
     */
    public static PrivacyLossDistribution pld(PrivacyProfile profile, double h) {
        Objects.requireNonNull(profile, "profile");
        List<PrivacyProfile> parts = profile instanceof PrivacyProfile.Composition c ? c.parts() : List.of(profile);
        Map<PrivacyProfile, Integer> counts = new LinkedHashMap<>();
        for (PrivacyProfile p : parts) {
            counts.merge(p, 1, Integer::sum);
        }
        PrivacyLossDistribution result = null;
        for (Map.Entry<PrivacyProfile, Integer> e : counts.entrySet()) {
            PrivacyLossDistribution one = single(e.getKey(), h);
            PrivacyLossDistribution k = e.getValue() == 1 ? one : one.selfCompose(e.getValue());
            result = result == null ? k : result.compose(k);
        }
        return result;
    }

    private static PrivacyLossDistribution single(PrivacyProfile p, double h) {
        if (p instanceof PrivacyProfile.Gaussian g) {
            return PrivacyLossDistribution.gaussian(g.mu(), h);
        }
        if (p instanceof PrivacyProfile.Pure pure) {
            return PrivacyLossDistribution.pureDp(pure.epsilon(), h);
        }
        if (p instanceof PrivacyProfile.Point point) {
            return PrivacyLossDistribution.approximateDp(point.epsilon(), point.delta(), h);
        }
        if (p instanceof PrivacyProfile.DiscreteLaplace l) {
            return PrivacyLossDistribution.discreteLaplace(l.shift(), l.scale(), h);
        }
        if (p instanceof PrivacyProfile.SubsampledGaussian s) {
            PrivacyLossDistribution step = PrivacyLossDistribution.poissonSubsampledGaussian(s.q(), s.z(), s.relation(), h);
            return s.steps() == 1 ? step : step.selfCompose(s.steps());
        }
        throw new IllegalArgumentException("not a single mechanism: " + p);
    }

    /**
     * δ(ε) of the profile (exact for Gaussian only; else by its PLD at h, never below the exact value).
     *
     * @param profile what was run
     * @param epsilon ε
     * @param h       the discretisation interval, for profiles that are not Gaussian only
     * @return δ(ε)
     */
    public static double deltaForEpsilon(PrivacyProfile profile, double epsilon, double h) {
        double mu = profile.gaussianMu();
        if (!Double.isNaN(mu)) {
            return GaussianPrivacy.delta(mu, epsilon);
        }
        return pld(profile, h).deltaForEpsilon(epsilon);
    }

    /**
     * The smallest ε ≥ 0 at which the profile is (ε, δ)-DP (exact for Gaussian only; else by its PLD at h).
     *
     * @param profile what was run
     * @param delta   δ in [0, 1)
     * @param h       the discretisation interval, for profiles that are not Gaussian only
     * @return ε, or +∞
     */
    public static double epsilonForDelta(PrivacyProfile profile, double delta, double h) {
        DpPreconditions.checkDelta(delta);
        double mu = profile.gaussianMu();
        if (!Double.isNaN(mu)) {
            return GaussianPrivacy.epsilon(mu, delta);
        }
        return pld(profile, h).epsilonForDelta(delta);
    }

    /**
     * True when the profile is (ε, δ)-DP for the target (ε, δ).
     *
     * @param profile what was run
     * @param target  the (ε, δ)
     * @param h       the discretisation interval, for profiles that are not Gaussian only
     * @return whether the profile meets the target
     */
    public static boolean fits(PrivacyProfile profile, PrivacyParams target, double h) {
        return deltaForEpsilon(profile, target.epsilon(), h) <= target.delta();
    }

    /**
     * The largest μ such that the profile composed with one more Gaussian mechanism of that μ still meets the
     * target (bisection to 1e−6 relative, the lower end returned), or 0 when the profile alone does not meet it.
     *
     * @param spent  what was run so far, or null for nothing
     * @param target the total (ε, δ), δ &gt; 0
     * @param h      the discretisation interval, for profiles that are not Gaussian only
     * @return μ, or 0
     */
    public static double remainingGaussianMu(PrivacyProfile spent, PrivacyParams target, double h) {
        DpPreconditions.checkPositiveDelta(target.delta(), "a remaining Gaussian budget");
        double muTotal = GaussianPrivacy.mu(target);
        double spentMu = spent == null ? 0 : spent.gaussianMu();
        if (spent == null || !Double.isNaN(spentMu)) {
            double rest = muTotal * muTotal - spentMu * spentMu;
            return rest > 0 ? Math.sqrt(rest) * (1 - 1e-12) : 0;
        }
        PrivacyLossDistribution base = pld(spent, h);
        if (!(base.deltaForEpsilon(target.epsilon()) <= target.delta())) {
            return 0;
        }
        double lo = 0;
        double hi = muTotal;
        while (hi - lo > 1e-6 * hi) {
            double mid = 0.5 * (lo + hi);
            if (base.compose(PrivacyLossDistribution.gaussian(mid, h)).deltaForEpsilon(target.epsilon()) <= target.delta()) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
