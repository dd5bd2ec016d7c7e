package io.dpspectra.privacy;

/**
 * A privacy budget (ε, δ), validated on construction: ε finite and &gt; 0, δ in [0, 1).
 * δ = 0 means pure ε-DP.
 */
public record PrivacyParams(double epsilon, double delta) {

    public PrivacyParams {
        DpPreconditions.checkEpsilon(epsilon);
        DpPreconditions.checkDelta(delta);
    }

    public static PrivacyParams of(double epsilon, double delta) {
        return new PrivacyParams(epsilon, delta);
    }

    /** Pure ε-DP (δ = 0). */
    public static PrivacyParams pure(double epsilon) {
        return new PrivacyParams(epsilon, 0.0);
    }

    public boolean isPure() {
        return delta == 0;
    }

    /** (ε·f, δ·f), e.g. to split a budget evenly. */
    public PrivacyParams scaled(double fraction) {
        return new PrivacyParams(epsilon * fraction, delta * fraction);
    }

    @Override
    public String toString() {
        return delta == 0 ? "(ε=" + epsilon + ")" : "(ε=" + epsilon + ", δ=" + delta + ")";
    }
}
