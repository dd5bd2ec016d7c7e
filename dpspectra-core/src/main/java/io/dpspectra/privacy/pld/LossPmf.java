package io.dpspectra.privacy.pld;

import java.util.Arrays;

/**
 * One direction of a discretised privacy loss distribution: probabilities p_i on the losses (lower + i)·h, a mass
 * at +∞, and a bound on how far the stored masses may be from the exact masses of the dominating distribution they
 * stand for (floating-point error of the discretisation and of every convolution, in L1).
 *
 * <p>The hockey-stick divergence is δ(ε) = p_∞ + Σ_{ℓ_i &gt; ε} p_i·(1 − e^{ε − ℓ_i}) (Sommer, Meiser &amp;
 * Mohammadi 2019; Koskela, Jälkö &amp; Honkela 2020). Because every term is at most 1, an L1 error e in the masses
 * moves δ(ε) by at most e, so {@link #deltaForEpsilon} adds the error bound: the result is never below the δ of
 * the exact dominating distribution. Composition convolves the finite parts (its PLD is the distribution of the
 * sum of the losses), combines the masses at ∞ as 1 − (1 − a)(1 − b), and propagates the error bounds
 * (e_a·s_b + s_a·e_b + e_a·e_b, plus the convolution's own error, {@link Fft}). Tails whose mass is below
 * {@value #TAIL} on each side are cut after a convolution: the left tail is moved up to the first kept loss and
 * the right tail to +∞; both moves only raise losses, so δ(ε) only grows.
 */
final class LossPmf {
    /**
     * Mass cut from each tail after a convolution. The FFT leaves noise of about 1e−20 per entry where the exact
     * masses are far smaller; a budget well above the noise lets the tails go (which keeps the arrays near the
     * distribution's real width), and well below any δ of interest keeps the cost, at most this much added to δ per
     * convolution, negligible.
     */
    static final double TAIL = 1e-14;

    private static final double U = 0x1.0p-53;

    final double h;
    final long lower;
    final double[] probs;
    final double infinity;
    final double error;

    LossPmf(double h, long lower, double[] probs, double infinity, double error) {
        this.h = h;
        this.lower = lower;
        this.probs = probs;
        this.infinity = Math.min(1, infinity);
        this.error = error;
    }

    /** The PMF with all mass at loss 0 (the mechanism that releases nothing). */
    static LossPmf identity(double h) {
        return new LossPmf(h, 0, new double[] {1}, 0, 0);
    }

    double loss(int i) {
        return (lower + i) * h;
    }

    /** Total finite mass. */
    double finiteMass() {
        return Fft.sum(probs);
    }

    LossPmf compose(LossPmf other) {
        checkCompatible(other);
        Fft.Result c = Fft.convolve(probs, other.probs);
        return combine(other, c);
    }

    private LossPmf combine(LossPmf other, Fft.Result c) {
        double sa = finiteMass();
        double sb = other.finiteMass();
        double err = error * sb + sa * other.error + error * other.error + c.l1Error();
        double inf = 1 - (1 - infinity) * (1 - other.infinity);
        inf = Math.min(1, inf + 2 * U); // the product's rounding
        return truncated(lower + other.lower, c.values(), inf, err);
    }

    /** This PMF composed with itself k times (binary powering, k ≥ 1). */
    LossPmf selfCompose(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("number of compositions must be >= 1, got " + k);
        }
        LossPmf result = null;
        LossPmf power = this;
        int rest = k;
        while (true) {
            if ((rest & 1) != 0) {
                result = result == null ? power : result.compose(power);
            }
            rest >>>= 1;
            if (rest == 0) {
                return result;
            }
            power = power.square();
        }
    }

    private LossPmf square() {
        Fft.Result c = Fft.convolve(probs, probs);
        return combine(this, c);
    }

    /** Cuts tails of mass ≤ TAIL: the left into the first kept entry, the right to +∞. */
    private LossPmf truncated(long low, double[] p, double inf, double err) {
        int first = 0;
        double left = 0;
        while (first < p.length - 1 && left + p[first] <= TAIL) {
            left += p[first];
            first++;
        }
        int last = p.length - 1;
        double right = 0;
        while (last > first && right + p[last] <= TAIL) {
            right += p[last];
            last--;
        }
        double[] kept = Arrays.copyOfRange(p, first, last + 1);
        kept[0] += left;
        return new LossPmf(h, low + first, kept, inf + right * (1 + 4 * U), err);
    }

    /**
     * δ(ε) = p_∞ + error + Σ_{ℓ_i &gt; ε} p_i·(1 − e^{ε − ℓ_i}), rounded up for the floating-point sum (every term is
     * non-negative, so the relative error of the sum is at most (n + 4)u).
     */
    double deltaForEpsilon(double epsilon) {
        double s = 0;
        int n = probs.length;
        int start = firstAbove(epsilon);
        for (int i = start; i < n; i++) {
            double p = probs[i];
            if (p != 0) {
                s += -Math.expm1(epsilon - loss(i)) * p;
            }
        }
        double d = (infinity + error + s) * (1 + (n + 8) * U * 2);
        return Math.min(1, d);
    }

    /** The first index whose loss is &gt; ε. */
    private int firstAbove(double epsilon) {
        double x = epsilon / h - lower;
        if (x < 0) {
            return 0;
        }
        if (x >= probs.length) {
            return probs.length;
        }
        int i = (int) Math.floor(x);
        while (i > 0 && loss(i - 1) > epsilon) {
            i--;
        }
        while (i < probs.length && loss(i) <= epsilon) {
            i++;
        }
        return i;
    }

    /**
     * The smallest ε ≥ 0 with {@link #deltaForEpsilon}(ε) ≤ δ, or +∞ when even ε → ∞ leaves more than δ. On each
     * interval between losses δ(ε) = A − e^ε·B with A, B the masses (and e^{−ℓ}-weighted masses) above it; the
     * root is solved there, then the candidate is checked with {@link #deltaForEpsilon} and moved up until it
     * passes, so the answer is never below the exact one of this PMF.
     */
    double epsilonForDelta(double delta) {
        if (infinity + error >= delta) {
            return Double.POSITIVE_INFINITY;
        }
        // A = p_inf + error + sum of the entries above epsilon, B = their e^{-loss}-weighted sum
        double a = infinity + error;
        double b = 0;
        double root = Double.NEGATIVE_INFINITY;
        for (int i = probs.length - 1; i >= 0; i--) {
            double lossI = loss(i);
            a += probs[i];
            b += probs[i] * Math.exp(-lossI);
            // on [loss(i-1), loss(i)) the entries i.. lie above epsilon: delta(eps) = a - e^eps b
            double lowEnd = i > 0 ? loss(i - 1) : Double.NEGATIVE_INFINITY;
            double atLowEnd = i > 0 ? a - Math.exp(lowEnd) * b : a;
            if (atLowEnd <= delta) {
                continue;
            }
            root = b > 0 ? Math.log((a - delta) / b) : lossI;
            root = Math.min(lossI, Math.max(lowEnd, root));
            break;
        }
        double eps = Math.max(0, root);
        // guard against rounding: step up until the rounded-up delta passes
        double step = Math.max(1e-12, eps * 1e-12);
        for (int k = 0; k < 1100 && deltaForEpsilon(eps) > delta; k++) {
            eps += step;
            step *= 2;
        }
        return deltaForEpsilon(eps) <= delta ? eps : Double.POSITIVE_INFINITY;
    }

    private void checkCompatible(LossPmf other) {
        if (other.h != h) {
            throw new IllegalArgumentException("privacy loss distributions with different discretisation intervals ("
                    + h + " and " + other.h + ") cannot be composed");
        }
    }
}
