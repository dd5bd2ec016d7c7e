package io.dpspectra.privacy;

/**
 * The one place where privacy and shape parameters are validated, so every class rejects bad input
 * with the same words. Each message names the parameter, the value seen and what to do.
 */
public final class DpPreconditions {
    private DpPreconditions() {
    }

    /**
     * ε must be finite and &gt; 0.
     *
     * @param epsilon ε
     * @return {@code epsilon}
     * @throws IllegalArgumentException otherwise, with a message naming the value
     */
    public static double checkEpsilon(double epsilon) {
        if (!(epsilon > 0) || !Double.isFinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be > 0 and finite, got " + epsilon
                    + "; pass a positive privacy budget such as --epsilon 1");
        }
        return epsilon;
    }

    /**
     * δ must lie in [0, 1).
     *
     * @param delta δ
     * @return {@code delta}
     * @throws IllegalArgumentException otherwise, with a message naming the value
     */
    public static double checkDelta(double delta) {
        if (!(delta >= 0) || !(delta < 1)) {
            throw new IllegalArgumentException("delta must be in [0, 1), got " + delta
                    + "; use a value well below 1/n, such as --delta 1e-6");
        }
        return delta;
    }

    /**
     * δ must lie in (0, 1): for mechanisms that are only approximately DP (Gaussian noise).
     *
     * @param delta     δ
     * @param mechanism the mechanism's name, for the message
     * @return {@code delta}
     * @throws IllegalArgumentException otherwise, with a message naming the value and the mechanism
     */
    public static double checkPositiveDelta(double delta, String mechanism) {
        checkDelta(delta);
        if (delta == 0) {
            throw new IllegalArgumentException(mechanism + " needs delta > 0, got 0; pass --delta (e.g. 1e-6) "
                    + "or choose a pure-DP algorithm");
        }
        return delta;
    }

    /**
     * Number of components k must satisfy 1 ≤ k ≤ d.
     *
     * @param k the number of components
     * @param d the dimension
     * @return {@code k}
     * @throws IllegalArgumentException otherwise, with a message naming both values
     */
    public static int checkComponents(int k, int d) {
        if (k < 1 || k > d) {
            throw new IllegalArgumentException("components k must satisfy 1 ≤ k ≤ d = " + d + ", got k = " + k
                    + "; ask for at least one and at most as many components as the data has columns");
        }
        return k;
    }

    /**
     * A norm or clipping bound must be finite and &gt; 0.
     *
     * @param name  the parameter's name, for the message
     * @param bound the bound
     * @return {@code bound}
     * @throws IllegalArgumentException otherwise, with a message naming the parameter and the value
     */
    public static double checkBound(String name, double bound) {
        if (!(bound > 0) || !Double.isFinite(bound)) {
            throw new IllegalArgumentException(name + " must be > 0 and finite, got " + bound
                    + "; choose it from domain knowledge, never from the data");
        }
        return bound;
    }

    /**
     * A sensitivity must be finite and &gt; 0.
     *
     * @param name  the parameter's name, for the message
     * @param value the sensitivity
     * @return {@code value}
     * @throws IllegalArgumentException otherwise, with a message naming the parameter and the value
     */
    public static double checkSensitivity(String name, double value) {
        if (!(value > 0) || !Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be > 0 and finite, got " + value
                    + "; derive it from the clipping bound and the neighbouring relation, never from the data");
        }
        return value;
    }

    /**
     * A generic strictly positive, finite parameter.
     *
     * @param name  the parameter's name, for the message
     * @param value the value
     * @return {@code value}
     * @throws IllegalArgumentException otherwise, with a message naming the parameter and the value
     */
    public static double checkPositive(String name, double value) {
        if (!(value > 0) || !Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be > 0 and finite, got " + value);
        }
        return value;
    }

    /**
     * A generic integer parameter that must be at least {@code min}.
     *
     * @param name  the parameter's name, for the message
     * @param value the value
     * @param min   the smallest allowed value
     * @return {@code value}
     * @throws IllegalArgumentException otherwise, with a message naming the parameter and the value
     */
    public static int checkAtLeast(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be >= " + min + ", got " + value);
        }
        return value;
    }
}
