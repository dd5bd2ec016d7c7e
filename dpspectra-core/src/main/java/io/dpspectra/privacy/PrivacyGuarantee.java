package io.dpspectra.privacy;

import java.util.Objects;

/**
 * What a release satisfies: (ε, δ)-DP under a neighbouring relation, with the mechanism that gave it,
 * the sensitivity it was calibrated to and the paper and equation it implements, and the privacy profile of what
 * was actually run, for an accountant that composes tighter than (ε, δ) points.
 *
 * @param mechanism   short name, e.g. "AnalyzeGauss (DP-Gauss-1)"
 * @param params      the (ε, δ) actually spent
 * @param neighbouring the neighbouring relation
 * @param privacyUnit  what one neighbour changes, e.g. "one row with L2 norm &lt;= 1.0"
 * @param sensitivity  the sensitivity the noise was calibrated to, in words and numbers; for a composition,
 *                     what is spent in each step, totalling the params
 * @param reference    the paper (authors, title, venue) and the algorithm or equation it implements, in words
 *                     a reader of the release can look up (never an internal file name)
 * @param profile      what was run, under {@code neighbouring}: its privacy loss distribution is at least as private
 *                     as (ε, δ) = params (a mechanism that knows nothing tighter states {@link PrivacyProfile#of})
 */
public record PrivacyGuarantee(String mechanism, PrivacyParams params, Neighbouring neighbouring,
                               String privacyUnit, String sensitivity, String reference, PrivacyProfile profile) {

    /**
     * Validates that every component is given.
     *
     * @param mechanism    short name of the mechanism
     * @param params       the (ε, δ) spent
     * @param neighbouring the neighbouring relation
     * @param privacyUnit  what one neighbour changes
     * @param sensitivity  the sensitivity the noise was calibrated to
     * @param reference    the paper and the algorithm or equation
     * @param profile      what was run
     * @throws NullPointerException when a component is null
     */
    public PrivacyGuarantee {
        Objects.requireNonNull(mechanism, "mechanism");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(neighbouring, "neighbouring");
        Objects.requireNonNull(privacyUnit, "privacyUnit");
        Objects.requireNonNull(sensitivity, "sensitivity");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(profile, "profile");
    }

    /**
     * A guarantee whose profile is only its (ε, δ) point ({@link PrivacyProfile#of}).
     *
     * @param mechanism    short name of the mechanism
     * @param params       the (ε, δ) spent
     * @param neighbouring the neighbouring relation
     * @param privacyUnit  what one neighbour changes
     * @param sensitivity  the sensitivity the noise was calibrated to
     * @param reference    the paper and the algorithm or equation
     */
    public PrivacyGuarantee(String mechanism, PrivacyParams params, Neighbouring neighbouring,
                            String privacyUnit, String sensitivity, String reference) {
        this(mechanism, params, neighbouring, privacyUnit, sensitivity, reference, PrivacyProfile.of(params));
    }

    /**
     * The ε of {@link #params()}.
     *
     * @return ε
     */
    public double epsilon() {
        return params.epsilon();
    }

    /**
     * The δ of {@link #params()}.
     *
     * @return δ (0 for pure ε-DP)
     */
    public double delta() {
        return params.delta();
    }

    /**
     * The same guarantee with the profile of what was actually run.
     *
     * @param actual the profile of what was run (at least as private as the params)
     * @return the guarantee with that profile
     */
    public PrivacyGuarantee withProfile(PrivacyProfile actual) {
        return new PrivacyGuarantee(mechanism, params, neighbouring, privacyUnit, sensitivity, reference, actual);
    }
}
