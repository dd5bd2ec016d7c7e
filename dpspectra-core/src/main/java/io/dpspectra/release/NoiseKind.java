package io.dpspectra.release;

import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.privacy.PrivacyAccountant;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.privacy.PrivacyProfile;

/**
 * How one part of a release spends its share of the budget, which fixes its zero-concentrated DP (zCDP)
 * cost ρ, what a zCDP ledger charges for it, and its privacy profile, what a PLD ledger composes.
 */
public enum NoiseKind {
    /** Pure ε-DP (Laplace, exponential mechanism): ρ = ε²/2 whatever δ it was given. */
    PURE,
    /** Only Gaussian mechanisms, without subsampling: ρ of the Gaussian mechanism meeting its (ε, δ). */
    GAUSSIAN,
    /** Anything else (subsampled Gaussian steps, other δ mechanisms): no zCDP cost is stated. */
    OTHER;

    /**
     * The zCDP cost of a part spending {@code part} this way: 0 for no part (null) or ε = 0; ε²/2 for {@link
     * #PURE} or δ = 0; the Gaussian mechanism's ρ for {@link #GAUSSIAN} ({@link GaussianNoise#zcdpRho}); NaN
     * (none) for {@link #OTHER} with δ &gt; 0.
     *
     * @param part the part's (ε, δ), or null for none
     * @return ρ, or NaN
     */
    public double rho(PrivacyParams part) {
        if (part == null || part.epsilon() == 0) {
            return 0;
        }
        if (this == PURE || part.delta() == 0) {
            return PrivacyAccountant.pureRho(part.epsilon());
        }
        return this == GAUSSIAN ? GaussianNoise.zcdpRho(part) : Double.NaN;
    }

    /**
     * The privacy profile of a part spending {@code part} this way, what a PLD ledger composes: null for no part
     * (null) or ε = 0; {@link PrivacyProfile.Pure} for {@link #PURE} or δ = 0 (randomized response dominates any
     * ε-DP mechanism); for {@link #GAUSSIAN} the Gaussian mechanism calibrated to its (ε, δ) ({@link
     * PrivacyProfile#gaussianCalibratedTo}), which dominates any set of Gaussian releases calibrated together to
     * it; for {@link #OTHER} its (ε, δ) point.
     *
     * @param part the part's (ε, δ), or null for none
     * @return the profile, or null for a part that spends nothing
     */
    public PrivacyProfile profile(PrivacyParams part) {
        if (part == null || part.epsilon() == 0) {
            return null;
        }
        if (this == PURE || part.delta() == 0) {
            return new PrivacyProfile.Pure(part.epsilon());
        }
        return this == GAUSSIAN ? PrivacyProfile.gaussianCalibratedTo(part)
                : new PrivacyProfile.Point(part.epsilon(), part.delta());
    }
}
