package io.dpspectra.noise;

import io.dpspectra.privacy.DpPreconditions;
import java.math.BigInteger;
import java.util.Objects;

/**
 * The exponential mechanism over a finite set of candidates: candidate i is drawn with probability
 * ∝ exp(ε·u_i/(2Δ)) for utilities u_i of sensitivity Δ, which is ε-DP (McSherry &amp; Talwar, FOCS 2007,
 * Theorem 6; Dwork &amp; Roth 2014, Theorem 3.10).
 *
 * <p>Sampling is exact, with no floating-point weights: the exponents γ_i = ε(max u − u_i)/(2Δ) are
 * computed once in double precision, and then a candidate is proposed uniformly and accepted with
 * probability exactly exp(−γ_i) (the Bernoulli(exp(−γ)) sampler of Canonne, Kamath &amp; Steinke 2020,
 * Algorithm 1, run on the exact binary value of the double γ_i); the first accepted proposal is released.
 * The output law is then exactly ∝ exp(−γ_i) for the computed γ_i. A draw by cumulative double weights
 * would not be: a candidate whose weight is below one unit of the uniform's last place comes out with
 * probability 0 or 2⁻⁵³ regardless of its true weight, an unbounded ratio between neighbours.
 * Computing γ_i in double precision perturbs each exponent by at most a few units in the last place, a
 * relative change below 2⁻⁵⁰ of the exponent, which the guarantee absorbs as ε·(1 + 2⁻⁵⁰).
 *
 * <p>Cost: the best candidate is accepted with probability 1, so the expected number of proposals is
 * m / Σ_i exp(−γ_i) ≤ m for m candidates; each costs one uniform index and, unless γ_i = 0, an exact
 * Bernoulli of O(1) expected random words.
 */
public final class ExponentialMechanism {
    private ExponentialMechanism() {
    }

    /**
     * Draws an index i with probability ∝ exp(ε·u_i/(2Δ)).
     *
     * @param utilities   u_i, finite (or −∞ for an excluded candidate; at least one finite)
     * @param sensitivity Δ, the most one neighbour can change any u_i
     * @param epsilon     ε
     * @param random      the randomness of the draw (the secure source for a private release)
     * @return the drawn index i, with u_i finite
     */
    public static int sample(double[] utilities, double sensitivity, double epsilon, RandomSource random) {
        Objects.requireNonNull(utilities, "utilities");
        Objects.requireNonNull(random, "random");
        DpPreconditions.checkSensitivity("sensitivity", sensitivity);
        DpPreconditions.checkEpsilon(epsilon);
        if (utilities.length == 0) {
            throw new IllegalArgumentException("the exponential mechanism needs at least one candidate");
        }
        double max = Double.NEGATIVE_INFINITY;
        for (double u : utilities) {
            if (Double.isNaN(u) || u == Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException("utility " + u + " is not a finite number (or -infinity)");
            }
            max = Math.max(max, u);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            throw new IllegalArgumentException("every candidate has utility -infinity; allow at least one");
        }
        double factor = epsilon / (2 * sensitivity);
        int[] allowed = new int[utilities.length];
        double[] gamma = new double[utilities.length];
        int m = 0;
        for (int i = 0; i < utilities.length; i++) {
            if (utilities[i] != Double.NEGATIVE_INFINITY) {
                allowed[m] = i;
                gamma[m] = factor * (max - utilities[i]);
                m++;
            }
        }
        while (true) {
            int j = (int) random.nextLong(m);
            if (gamma[j] == 0 || acceptExpMinus(gamma[j], random)) {
                return allowed[j];
            }
        }
    }

    /** Bernoulli(exp(−γ)) for a finite double γ ≥ 0 (or +∞: never), exact for the binary value of γ. */
    static boolean acceptExpMinus(double gamma, RandomSource random) {
        if (gamma == Double.POSITIVE_INFINITY) {
            return false;
        }
        // γ = mantissa · 2^exponent exactly
        long bits = Double.doubleToRawLongBits(gamma);
        int biased = (int) ((bits >>> 52) & 0x7ff);
        long mantissa = bits & ((1L << 52) - 1);
        int exponent;
        if (biased == 0) {
            exponent = -1074;
        } else {
            mantissa |= 1L << 52;
            exponent = biased - 1075;
        }
        BigInteger num = BigInteger.valueOf(mantissa);
        BigInteger den = BigInteger.ONE;
        if (exponent >= 0) {
            num = num.shiftLeft(exponent);
        } else {
            den = den.shiftLeft(-exponent);
        }
        return DiscreteSamplers.bernoulliExpMinus(random, num, den);
    }
}
