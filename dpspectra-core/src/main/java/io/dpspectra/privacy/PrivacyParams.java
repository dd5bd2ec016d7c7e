package io.dpspectra.privacy;

/**
 * A privacy budget (ε, δ), validated on construction: ε finite and &gt; 0, δ in [0, 1).
 * δ = 0 means pure ε-DP.
 */
public record PrivacyParams(double epsilon, double delta) {

    /**
     * Validates the budget.
     *
     * @param epsilon ε, finite and &gt; 0
     * @param delta   δ, in [0, 1)
     * @throws IllegalArgumentException otherwise, with a message naming the value
     */
    public PrivacyParams {
        DpPreconditions.checkEpsilon(epsilon);
        DpPreconditions.checkDelta(delta);
    }

    /**
     * The budget (ε, δ).
     *
     * @param epsilon ε, finite and &gt; 0
     * @param delta   δ, in [0, 1)
     * @return the validated budget
     * @throws IllegalArgumentException otherwise, with a message naming the value
     */
    public static PrivacyParams of(double epsilon, double delta) {
        return new PrivacyParams(epsilon, delta);
    }

    /**
     * Pure ε-DP (δ = 0).
     *
     * @param epsilon ε, finite and &gt; 0
     * @return (ε, 0)
     */
    public static PrivacyParams pure(double epsilon) {
        return new PrivacyParams(epsilon, 0.0);
    }

    /**
     * Whether this is pure ε-DP.
     *
     * @return true when δ = 0
     */
    public boolean isPure() {
        return delta == 0;
    }

    /**
     * (ε·f, δ·f), e.g. to split a budget evenly.
     *
     * @param fraction f, &gt; 0 (the result must still be a valid budget)
     * @return (ε·f, δ·f)
     */
    public PrivacyParams scaled(double fraction) {
        return new PrivacyParams(epsilon * fraction, delta * fraction);
    }

    @Override
    public String toString() {
        return delta == 0 ? "(ε=" + epsilon + ")" : "(ε=" + epsilon + ", δ=" + delta + ")";
    }
}
