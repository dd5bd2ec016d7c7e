package io.dpspectra.privacy.pld;

/**
 * The exact privacy curve δ(ε) = sup_S P(S) − e^ε·Q(S) (the e^ε-hockey-stick divergence) of one ordered pair
 * (P, Q) of output distributions, for every real ε, with the range of losses that carries all but a negligible
 * mass: {@link ConnectTheDots} turns it into a discrete dominating distribution.
 *
 * <p>Each implementation evaluates its closed form to within {@link #evaluationError()} in absolute terms; the
 * discretisation adds that bound to its error. (Evaluating a threshold formula at a slightly wrong threshold can
 * only lower the value, by a second-order amount far below these bounds.)
 */
interface PrivacyCurve {
    /**
     * Bound on the absolute error of {@link #delta}: by default 1e−14, for formulas built of a few normal tails (the
     * erfc of {@link Normal} is accurate to about 1e−15 relative, and each term is at most 1).
     */
    default double evaluationError() {
        return 1e-14;
    }

    /** δ(ε), in [0, 1]. */
    double delta(double epsilon);

    /** A loss below which the pair puts (almost) no mass: where the grid starts. */
    double lowLoss();

    /** A loss above which the pair puts (almost) no mass: where the grid ends (the rest goes to +∞). */
    double highLoss();
}
