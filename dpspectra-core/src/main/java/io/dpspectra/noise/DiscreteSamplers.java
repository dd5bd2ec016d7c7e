package io.dpspectra.noise;

import java.math.BigInteger;

/**
 * Exact samplers on the integer lattice: Bernoulli(exp(−γ)) for rational γ, the discrete Laplace
 * and the discrete Gaussian, after Canonne, Kamath &amp; Steinke (2020), Algorithms 1–3.
 *
 * <p>Exactness: every probability is a ratio of integers and every Bernoulli trial compares a
 * uniform integer from {@link RandomSource#nextLong(long)} (or a uniform {@link BigInteger}) with an
 * integer threshold; no floating-point number enters the sampling. The output distribution is
 * therefore exactly the stated one, up to the quality of the underlying random bits.
 *
 * <p>Reference: C. Canonne, G. Kamath, T. Steinke, "The Discrete Gaussian for Differential Privacy",
 * NeurIPS 2020, Algorithms 1 (Bernoulli(exp(−γ))), 2 (discrete Laplace) and 3 (discrete Gaussian).
 *
 * <p>Cost: O(1) expected uniform draws per sample (about 10–20 longs; the Gaussian adds a few
 * BigInteger operations on ~200-bit integers).
 */
final class DiscreteSamplers {
    private DiscreteSamplers() {
    }

    /** Bernoulli(num/den) for 0 ≤ num ≤ den, den &gt; 0. */
    static boolean bernoulli(RandomSource random, long num, long den) {
        return random.nextLong(den) < num;
    }

    /**
     * Bernoulli(exp(−num/den)) for 0 ≤ num ≤ den (CKS Algorithm 1): draw A_k ~ Bernoulli(γ/k) for
     * k = 1, 2, … until the first failure at K; return whether K is odd. Bernoulli(γ/k) is drawn as
     * Bernoulli(γ) ∧ Bernoulli(1/k) so that no product can overflow.
     */
    static boolean bernoulliExpMinusAtMostOne(RandomSource random, long num, long den) {
        long k = 1;
        while (bernoulli(random, num, den) && random.nextLong(k) == 0) {
            k++;
        }
        return (k & 1) == 1;
    }

    /** Bernoulli(exp(−1)). */
    static boolean bernoulliExpMinusOne(RandomSource random) {
        return bernoulliExpMinusAtMostOne(random, 1, 1);
    }

    /** Bernoulli(exp(−num/den)) for any num ≥ 0, den &gt; 0 (BigInteger; CKS Algorithm 1, γ &gt; 1 part). */
    static boolean bernoulliExpMinus(RandomSource random, BigInteger num, BigInteger den) {
        BigInteger[] qr = num.divideAndRemainder(den);
        // exp(−γ) = exp(−1)^⌊γ⌋ · exp(−(γ−⌊γ⌋)); each factor fails with probability 1 − 1/e, so the
        // expected number of iterations is O(1) however large ⌊γ⌋ is.
        for (BigInteger i = BigInteger.ZERO; i.compareTo(qr[0]) < 0; i = i.add(BigInteger.ONE)) {
            if (!bernoulliExpMinusOne(random)) {
                return false;
            }
        }
        BigInteger rest = qr[1];
        if (den.bitLength() < 63) {
            return bernoulliExpMinusAtMostOne(random, rest.longValueExact(), den.longValueExact());
        }
        long k = 1;
        while (uniformBelow(random, den).compareTo(rest) < 0 && random.nextLong(k) == 0) {
            k++;
        }
        return (k & 1) == 1;
    }

    /** Uniform BigInteger in [0, bound), bound &gt; 0, by rejection on bitLength(bound) random bits. */
    static BigInteger uniformBelow(RandomSource random, BigInteger bound) {
        int bits = bound.bitLength();
        int words = (bits + 63) / 64;
        byte[] bytes = new byte[words * 8 + 1]; // leading zero byte keeps the value non-negative
        while (true) {
            for (int w = 0; w < words; w++) {
                long v = random.nextLong();
                for (int b = 0; b < 8; b++) {
                    bytes[1 + w * 8 + b] = (byte) (v >>> (56 - 8 * b));
                }
            }
            BigInteger candidate = new BigInteger(bytes).shiftRight(words * 64 - bits);
            if (candidate.compareTo(bound) < 0) {
                return candidate;
            }
        }
    }

    /**
     * Discrete Laplace with scale t/s: P(x) ∝ exp(−|x|·s/t) on the integers (CKS Algorithm 2).
     * Requires t ≥ 1 and s ≥ 1 a power of two (so that ⌊X/s⌋ is a shift).
     */
    static long discreteLaplace(RandomSource random, long t, long s) {
        if (t < 1 || s < 1 || Long.bitCount(s) != 1) {
            throw new IllegalArgumentException("discrete Laplace needs t >= 1 and s a power of two, got t="
                    + t + ", s=" + s);
        }
        int shift = Long.numberOfTrailingZeros(s);
        while (true) {
            long u = random.nextLong(t);
            if (!bernoulliExpMinusAtMostOne(random, u, t)) {
                continue;
            }
            long v = 0;
            while (bernoulliExpMinusOne(random)) {
                v++;
            }
            long x = Math.addExact(u, Math.multiplyExact(t, v));
            long y = x >>> shift;
            boolean negative = random.nextBoolean();
            if (negative && y == 0) {
                continue;
            }
            return negative ? -y : y;
        }
    }

    /**
     * Discrete Gaussian with integer parameter σ = sigma: P(x) ∝ exp(−x²/(2σ²)) on the integers
     * (CKS Algorithm 3 with t = σ + 1): draw Y from the discrete Laplace of scale t and accept with
     * probability exp(−(|Y| − σ²/t)²/(2σ²)), evaluated exactly in integers.
     */
    static long discreteGaussian(RandomSource random, long sigma) {
        if (sigma < 1) {
            throw new IllegalArgumentException("discrete Gaussian needs an integer sigma >= 1, got " + sigma);
        }
        long t = sigma + 1;
        BigInteger bt = BigInteger.valueOf(t);
        BigInteger sigma2 = BigInteger.valueOf(sigma).multiply(BigInteger.valueOf(sigma));
        // γ = (|Y| − σ²/t)² / (2σ²) = (|Y|·t − σ²)² / (2σ²t²)
        BigInteger den = sigma2.multiply(bt).multiply(bt).shiftLeft(1);
        while (true) {
            long y = discreteLaplace(random, t, 1);
            BigInteger diff = BigInteger.valueOf(Math.abs(y)).multiply(bt).subtract(sigma2);
            if (bernoulliExpMinus(random, diff.multiply(diff), den)) {
                return y;
            }
        }
    }
}
