package io.dpspectra.privacy.pld;

import java.util.Arrays;

/**
 * The pessimistic "connect the dots" discretisation of a privacy curve (Doroshenko, Ghazi, Kamath, Kumar &amp;
 * Manurangsi, "Connect the Dots: Tighter Discrete Approximations of Privacy Loss Distributions", PETS 2022,
 * Algorithm 1): given losses ε_1 &lt; … &lt; ε_n (multiples of the interval h) and the curve's values δ_i there, the
 * distribution with masses
 * <pre>
 *   p_1 = 1 − δ_1 + (δ_2 − δ_1)/(e^{ε_2 − ε_1} − 1),
 *   p_i = (δ_i − δ_{i−1})/(e^{ε_{i−1} − ε_i} − 1) + (δ_{i+1} − δ_i)/(e^{ε_{i+1} − ε_i} − 1),
 *   p_n = (δ_n − δ_{n−1})/(e^{ε_{n−1} − ε_n} − 1),   p_∞ = δ_n
 * </pre>
 * has the hockey-stick curve that passes through every (ε_i, δ_i) and is linear in e^ε between them. A privacy
 * curve is convex in e^ε (a supremum of functions affine in e^ε), so that chord lies above it; beyond ε_n all
 * remaining mass sits at +∞, and below ε_1 the line towards (e^ε = 0, total mass 1) stays above it: the result
 * dominates the pair, for every ε (their Theorem 3.2). It is a valid privacy loss distribution, so compositions
 * of such distributions dominate compositions of the pairs.
 *
 * <p>Floating point, always resolved upwards: the δ_i are made non-increasing by taking the running maximum from
 * the right (raising, never lowering, a value), each is taken as exact up to the curve's {@link PrivacyCurve#evaluationError()},
 * negative masses are set to 0 (which only raises the curve), and the rounding of each mass (one subtraction,
 * one expm1, one division and one addition per term; with a fixed gap the masses are formed from second
 * differences, whose rounding is O(u·h) per entry) is bounded and added to
 * the distribution's error together with the evaluation error.
 */
final class ConnectTheDots {
    private static final double U = 0x1.0p-53;

    private ConnectTheDots() {
    }

    /** The rounding error of s = fl(a + b): a + b = s + error exactly (Knuth's TwoSum). */
    private static double twoSumError(double a, double b, double s) {
        double bb = s - a;
        return (a - (s - bb)) + (b - bb);
    }

    /** The curve discretised on every multiple of h from ⌊lowLoss/h⌋ to ⌈highLoss/h⌉. */
    static LossPmf discretise(PrivacyCurve curve, double h) {
        long lo = (long) Math.floor(curve.lowLoss() / h);
        long hi = (long) Math.ceil(curve.highLoss() / h);
        if (hi <= lo) {
            hi = lo + 1;
        }
        if (hi - lo > 50_000_000L) {
            throw new IllegalArgumentException("the privacy loss spans " + (hi - lo) + " discretisation steps of " + h
                    + "; use a coarser discretisation interval");
        }
        long[] grid = new long[(int) (hi - lo + 1)];
        for (int i = 0; i < grid.length; i++) {
            grid[i] = lo + i;
        }
        return discretise(curve, h, grid);
    }

    /** The curve discretised on the given increasing multiples of h (for distributions with a few atoms). */
    static LossPmf discretise(PrivacyCurve curve, double h, long[] grid) {
        int n = grid.length;
        double[] delta = new double[n];
        for (int i = 0; i < n; i++) {
            delta[i] = curve.delta(grid[i] * h);
        }
        for (int i = n - 2; i >= 0; i--) {
            delta[i] = Math.max(delta[i], delta[i + 1]);
        }
        double[] p = new double[n];
        double roundingError = 0;
        boolean contiguous = grid[n - 1] - grid[0] == n - 1;
        if (n == 1) {
            p[0] = 1 - delta[0];
        } else if (contiguous) {
            // fixed gap h: p_i = (d_i − e^h·d_{i−1})/(e^h − 1) = D2_i/(e^h − 1) − d_{i−1}, with d_i = δ_{i+1} − δ_i and
            // D2_i = d_i − d_{i−1} = δ_{i+1} − 2δ_i + δ_{i−1} formed with one rounding (TwoSum): the two terms are
            // O(h), so the rounding is O(u·h) per entry instead of the O(u) of the textbook form's O(1) terms.
            double em1 = Math.expm1(h);
            for (int i = 0; i < n; i++) {
                double value;
                double bound;
                if (i == 0) {
                    double d0 = delta[1] - delta[0];
                    value = (1 - delta[0]) + d0 / em1;
                    bound = 4 * U * (1 + Math.abs(d0) / em1);
                } else if (i == n - 1) {
                    double d = delta[i] - delta[i - 1];
                    value = d / Math.expm1(-h);
                    bound = 4 * U * Math.abs(value);
                } else {
                    double s = delta[i + 1] + delta[i - 1];
                    double e = twoSumError(delta[i + 1], delta[i - 1], s);
                    double d2 = (s - 2 * delta[i]) + e;
                    double d = delta[i] - delta[i - 1];
                    value = d2 / em1 - d;
                    bound = 8 * U * (Math.abs(d2) / em1 + Math.abs(d) + Math.abs(value)) + 4 * U * U * Math.abs(s) / em1;
                }
                roundingError += bound;
                p[i] = Math.max(0, value);
            }
        } else {
            for (int i = 0; i < n; i++) {
                double left;
                double leftBound;
                if (i == 0) {
                    left = 1 - delta[0];
                    leftBound = 2 * U * (1 + delta[0]);
                } else {
                    double d = delta[i] - delta[i - 1];
                    left = d / Math.expm1((grid[i - 1] - grid[i]) * h);
                    leftBound = 4 * U * Math.abs(left);
                }
                double right = 0;
                double rightBound = 0;
                if (i < n - 1) {
                    double d = delta[i + 1] - delta[i];
                    right = d / Math.expm1((grid[i + 1] - grid[i]) * h);
                    rightBound = 4 * U * Math.abs(right);
                }
                double value = left + right;
                roundingError += leftBound + rightBound + U * Math.abs(value);
                p[i] = Math.max(0, value);
            }
        }
        double infinity = delta[n - 1];
        double total = Fft.sum(p) + infinity;
        if (total < 1) {
            // rounding left the mass short of 1: put the rest on the lowest loss (raises the curve below it)
            p[0] += 1 - total;
        }
        int first = 0;
        while (first < n - 1 && p[first] == 0) {
            first++;
        }
        int last = n - 1;
        while (last > first && p[last] == 0) {
            last--;
        }
        double[] probs;
        long lower;
        if (contiguous) {
            probs = Arrays.copyOfRange(p, first, last + 1);
            lower = grid[first];
        } else {
            lower = grid[first];
            probs = new double[(int) (grid[last] - lower + 1)];
            for (int i = first; i <= last; i++) {
                probs[(int) (grid[i] - lower)] += p[i];
            }
        }
        double error = roundingError + 2 * curve.evaluationError();
        return new LossPmf(h, lower, probs, infinity, error);
    }
}
