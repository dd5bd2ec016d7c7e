package io.dpspectra.noise;

import java.math.BigInteger;

/**
 * Exact samplers on the integer lattice: Bernoulli(exp(−γ)) for rational γ, the discrete Laplace
 * and the discrete Gaussian, after Canonne, Kamath &amp; Steinke (2020), Algorithms 1–3.
 *
 * <p>Two implementations. The reference ones ({@link #discreteLaplaceReference},
 * {@link #discreteGaussianReference}, {@link #bernoulliExpMinus}) compare uniform integers with
 * integer thresholds only. The fast ones used by the noise classes ({@link #discreteLaplace},
 * {@link #discreteGaussian}) decide every Bernoulli(exp(−γ)) as [U &lt; exp(−γ)] for one uniform real U
 * whose bits are drawn lazily: from its first 64-bit word a double bound (a Taylor bracket of exp(−γ)
 * for γ ≤ 1, else −ln U by {@link Math#log}) with a proven error margin decides unless U lies within
 * about 2^−47 of the threshold; then {@link #uniformBelowExpMinus} decides exactly, with more words of
 * the SAME U against rational brackets of exp(−γ). The decision is thus exactly [U &lt; exp(−γ)] and
 * the output distribution exactly the stated one; floating point only chooses how fast it is found.
 * The geometric part of the Laplace is X = ⌊t·(−ln U)⌋ (P(X ≥ k) = exp(−k/t)), computed the same way,
 * for every t, with a double-double logarithm accurate to 2^−74 from one or two words of U
 * ({@link #minusLogTwoWords}).
 *
 * <p>Exactness of the reference samplers: every probability is a ratio of integers and every Bernoulli
 * trial compares a uniform integer from {@link RandomSource#nextLong(long)} (or a uniform
 * {@link BigInteger}) with an integer threshold.
 *
 * <p>Reference: C. Canonne, G. Kamath, T. Steinke, "The Discrete Gaussian for Differential Privacy",
 * NeurIPS 2020, Algorithms 1 (Bernoulli(exp(−γ))), 2 (discrete Laplace) and 3 (discrete Gaussian).
 *
 * <p>Cost: fast samplers about 2.1 random longs per Laplace and 4 per Gaussian sample (counting a coin
 * as a long), no allocation except on the exact path (probability below 1e−9 per decision); reference
 * samplers 10–30 longs and BigInteger operations on ~200-bit integers.
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
    static long discreteLaplaceReference(RandomSource random, long t, long s) {
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
    static long discreteGaussianReference(RandomSource random, long sigma) {
        if (sigma < 1) {
            throw new IllegalArgumentException("discrete Gaussian needs an integer sigma >= 1, got " + sigma);
        }
        long t = sigma + 1;
        BigInteger bt = BigInteger.valueOf(t);
        BigInteger sigma2 = BigInteger.valueOf(sigma).multiply(BigInteger.valueOf(sigma));
        // γ = (|Y| − σ²/t)² / (2σ²) = (|Y|·t − σ²)² / (2σ²t²)
        BigInteger den = sigma2.multiply(bt).multiply(bt).shiftLeft(1);
        while (true) {
            long y = discreteLaplaceReference(random, t, 1);
            BigInteger diff = BigInteger.valueOf(Math.abs(y)).multiply(bt).subtract(sigma2);
            if (bernoulliExpMinus(random, diff.multiply(diff), den)) {
                return y;
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Fast exact samplers. Every decision has the form [U < exp(−γ)] for one uniform real U ∈ [0, 1)
    // whose binary digits are drawn lazily, 64 at a time, equivalently [L > γ] with L = −ln U.
    // The first word w pins U to [w·2^−64, (w+1)·2^−64); a double evaluation of L with a rigorous
    // error bound decides whenever the interval for L lies entirely on one side of the interval for γ.
    // Otherwise (probability ~1e−14) the decision is made exactly from the SAME U, extended by more
    // words, against rational brackets of exp(−γ) (alternating Taylor series), see uniformBelowExpMinus.
    // The decision is therefore always exactly [U < exp(−γ)]: floating point only chooses the path.
    // ---------------------------------------------------------------------------------------------

    /** Largest t (and σ + 1) for the fast path: t·L must stay exact enough and below 2^63. */
    static final long MAX_FAST = 1L << 53;

    /** Decision value of {@link #lessThanExpMinusFast}: undecided, the exact path must decide. */
    static final int UNDECIDED = -1;

    /**
     * Discrete Laplace with scale t/s: P(x) ∝ exp(−|x|·s/t) on the integers, exact. Same distribution
     * as {@link #discreteLaplaceReference} (CKS Algorithm 2): X = U + t·V there is geometric,
     * P(X ≥ k) = exp(−k/t); here X = ⌊t·(−ln U)⌋ is computed exactly from one lazily drawn uniform.
     * Requires t ≥ 1 and s ≥ 1 a power of two.
     */
    static long discreteLaplace(RandomSource random, long t, long s) {
        if (t < 1 || s < 1 || Long.bitCount(s) != 1) {
            throw new IllegalArgumentException("discrete Laplace needs t >= 1 and s a power of two, got t="
                    + t + ", s=" + s);
        }
        if (t > MAX_FAST) {
            return discreteLaplaceReference(random, t, s);
        }
        return laplaceFast(random, t, (double) t, Long.numberOfTrailingZeros(s));
    }

    private static long laplaceFast(RandomSource random, long t, double td, int shift) {
        while (true) {
            long y = geometric(random, t, td) >>> shift;
            boolean negative = random.nextBoolean();
            if (negative && y == 0) {
                continue;
            }
            return negative ? -y : y;
        }
    }

    /**
     * X = ⌊t·(−ln U)⌋ for a lazily drawn uniform U, so that P(X ≥ k) = P(U &lt; exp(−k/t)) = exp(−k/t):
     * the geometric distribution of ratio exp(−1/t). Requires 1 ≤ t ≤ {@link #MAX_FAST}, td = t.
     *
     * <p>−ln U is evaluated to about 2^−76 absolute error by {@link #minusLogTwoWords}. U's first word alone
     * decides when it has at most 3 leading zeros (U is then known to a relative 2^−60) and t·(−ln U) is not
     * within about t·2^−60 of an integer; otherwise a second word is drawn and decides unless t·(−ln U) is
     * within about t·2^−74 + 2^−50 of an integer (probability about 2^−20 at t = 2^53, 2^−29 at the noise
     * classes' t ≈ 2^44), when {@link #geometricExact} decides on the same U. About 1.13 words per call.
     */
    static long geometric(RandomSource random, long t, double td) {
        long w1 = random.nextLong();
        int z = Long.numberOfLeadingZeros(w1);
        if (z <= 3) {
            // U·2^z ∈ [x, x + 2^(z−64)) with x from (w1, 0): L ∈ (L_x − 2^(z−63), L_x]
            long x = floorTimesMinusLog(w1, 0, z - 63, td);
            if (x >= 0) {
                return x;
            }
        }
        return geometricFromWords(random, w1, random.nextLong(), t, td);
    }

    /** {@link #geometric} with U's first two words w1, w2 given (further words from random). */
    static long geometricFromWords(RandomSource random, long w1, long w2, long t, double td) {
        if (w1 != 0) {
            // U·2^z ∈ [x, x + 2^(z−128)): L ∈ (L_x − 2^(z−127), L_x]
            long x = floorTimesMinusLog(w1, w2, Long.numberOfLeadingZeros(w1) - 127, td);
            if (x >= 0) {
                return x;
            }
        }
        return geometricExact(new LazyUniform(random, w1, w2), t, 0, -1);
    }

    /**
     * ⌊t·L⌋ for every L ∈ [L_x − 2^widthExponent, L_x], L_x = {@link #minusLogTwoWords}(w1, w2) (w1 ≠ 0),
     * or −1 if that interval (widened by the evaluation's error bounds) straddles an integer.
     */
    private static long floorTimesMinusLog(long w1, long w2, int widthExponent, double td) {
        double[] l = new double[2]; // scalar-replaced once minusLogTwoWords is inlined
        minusLogTwoWords(w1, w2, l);
        double ph = td * l[0];
        double pl = Math.fma(td, l[0], -ph) + td * l[1];
        double k = Math.floor(ph);
        double f = (ph - k) + pl; // ph − k exact
        // t·L ∈ [f − t·2^w − margin, f + margin] + k; the margin covers t times the log's error bound and
        // the roundings of td·l[1], pl (≤ 2^−53|pl| each) and f (≤ 2^−53(1 + |pl|))
        double margin = td * LOG_ERROR + 0x1.0p-50 * (1 + Math.abs(pl));
        double width = td * Double.longBitsToDouble((long) (widthExponent + 1023) << 52);
        double low = Math.floor(f - margin - width);
        if (low != Math.floor(f + margin)) {
            return -1;
        }
        return (long) k + (long) low;
    }

    /** Bound on the absolute error of {@link #minusLogTwoWords} at the point x (see there): 2^−74. */
    static final double LOG_ERROR = 0x1.0p-74;

    /** ln 2 as a double-double (hi + lo, |lo| ≤ ulp(hi)/2); LogTableTest checks it against a series. */
    static final double LN2_HI = 0x1.62e42fefa39efp-1;
    static final double LN2_LO = 0x1.abc9e3b39803fp-56;

    /** Table size of {@link #minusLogTwoWords}: x ∈ [1/2, 1) in 2^8 cells ({@link LogTable}). */
    private static final int LOG_TABLE_BITS = 8;
    private static final double[] INV = LogTable.INV;
    private static final double[] LN_CELL_HI = LogTable.HI;
    private static final double[] LN_CELL_LO = LogTable.LO;

    /**
     * −ln of the uniform U whose first two 64-bit words are w1 ≠ 0, w2, at the left end of U's interval:
     * with z the number of leading zeros of w1 and x = (w1·2^64 + w2)·2^(z−128) ∈ [1/2, 1), writes
     * L_x = z·ln 2 − ln x into out[0] + out[1] (a double-double) with |out[0] + out[1] − L_x| ≤
     * {@link #LOG_ERROR}, and returns z. Since U·2^z ∈ [x, x + 2^(z−128)), L = −ln U lies in
     * (L_x − 2^(z−127), L_x].
     *
     * <p>Method: x = x1 + x2 + x3 exactly (53 + 53 + 22 bits); with the cell j of x (its 8 bits after
     * the leading one) r = x·INV[j] − 1 is formed as a double-double (x1·INV[j] by fma, exact; the other
     * products err by ≤ 2^−105), |r| ≤ 2^−8.4, and ln x = ln(1/INV[j]) + ln(1 + r) with the table
     * value to 2^−106 and ln(1 + r) = r − r²/2 + Σ_{i=3..8} (−1)^(i+1) r^i / i, truncated after r^8
     * (error ≤ |r|^9/9 &lt; 2^−78), r² split exactly by fma, the tail (≤ 2^−25) in double (error &lt; 2^−77).
     * The double-double sums add at most 2^−100. Total well inside 2^−74.
     */
    static int minusLogTwoWords(long w1, long w2, double[] out) {
        int z = Long.numberOfLeadingZeros(w1);
        long hi = z == 0 ? w1 : (w1 << z) | (w2 >>> (64 - z));
        long lo = w2 << z;
        // x = hi·2^−64 + lo·2^−128, hi ≥ 2^63. Split exactly: x1 = top 53 bits, x2 = next 53, x3 = rest.
        double x1 = (hi >>> 11) * 0x1.0p-53;
        long mid = ((hi & 0x7FF) << 42) | (lo >>> 22); // 11 + 42 = 53 bits
        double x2 = mid * 0x1.0p-106;
        double x3 = (lo & 0x3FFFFF) * 0x1.0p-128;
        int j = (int) (hi >>> (63 - LOG_TABLE_BITS)) & ((1 << LOG_TABLE_BITS) - 1);
        double inv = INV[j];
        double p = x1 * inv;
        double pe = Math.fma(x1, inv, -p); // x1·inv = p + pe exactly
        // r = (p − 1) + pe + x2·inv + x3·inv; p − 1 is exact (Sterbenz, p ∈ [1/2, 2])
        double small = pe + (x2 * inv + x3 * inv);
        double pm1 = p - 1;
        double rh = pm1 + small;
        double rl = twoSumError(pm1, small, rh);
        // ln(1 + r) = rh − rh²/2 + [rl − rh·rl + tail]; rh² = q + qe exactly
        double q = rh * rh;
        double qe = Math.fma(rh, rh, -q);
        double r3 = q * rh;
        double tail = r3 * (1.0 / 3 - rh * (0.25 - rh * (0.2 - rh * (1.0 / 6 - rh * (1.0 / 7 - rh * 0.125)))));
        double minor = rl - rh * rl - 0.5 * qe + tail;
        // L_x = z·ln2 − LN_CELL[j] − rh + q/2 − minor, summed as a double-double (two-sums)
        double sh = z * LN2_HI;
        double sl = Math.fma(z, LN2_HI, -sh) + z * LN2_LO;
        // add −LN_CELL[j] (hi part by TwoSum), −rh, +q/2, then the low-order parts
        double a = sh - LN_CELL_HI[j];
        double ae = twoSumError(sh, -LN_CELL_HI[j], a);
        double b = a - rh;
        double be = twoSumError(a, -rh, b);
        double c = b + 0.5 * q;
        double ce = twoSumError(b, 0.5 * q, c);
        double low = sl - LN_CELL_LO[j] - minor + ae + be + ce;
        double h = c + low;
        out[0] = h;
        out[1] = twoSumError(c, low, h);
        return z;
    }

    /** The rounding error of s = fl(a + b): a + b = s + error exactly (Knuth's TwoSum). */
    private static double twoSumError(double a, double b, double s) {
        double bb = s - a;
        return (a - (s - bb)) + (b - bb);
    }

    /** ⌊t·(−ln U)⌋ exactly, given k0 ≤ X and (if k1 ≥ 0) X ≤ k1, by exact comparisons of U. */
    static long geometricExact(LazyUniform u, long t, long k0, long k1) {
        BigInteger bt = BigInteger.valueOf(t);
        long lo = k0; // X ≥ lo
        long hi; // X < hi
        if (k1 >= 0) {
            hi = k1 + 1;
        } else {
            hi = Math.max(1, 2 * lo);
            while (uniformBelowExpMinus(u, BigInteger.valueOf(hi), bt)) {
                lo = hi;
                hi = Math.multiplyExact(hi, 2);
            }
        }
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (uniformBelowExpMinus(u, BigInteger.valueOf(mid), bt)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Discrete Gaussian with integer parameter σ: P(x) ∝ exp(−x²/(2σ²)), exact; the same algorithm as
     * {@link #discreteGaussianReference} (CKS Algorithm 3, t = σ + 1) with the fast exact Laplace and
     * the acceptance Bernoulli(exp(−γ)) decided as [U &lt; exp(−γ)] by {@link #lessThanExpMinusFast}
     * (exact fallback on the same U).
     */
    static long discreteGaussian(RandomSource random, long sigma) {
        if (sigma < 1) {
            throw new IllegalArgumentException("discrete Gaussian needs an integer sigma >= 1, got " + sigma);
        }
        long t = sigma + 1;
        if (t > MAX_FAST) {
            return discreteGaussianReference(random, sigma);
        }
        double sd = sigma;
        double td = t;
        double b = sd / td; // σ/t
        while (true) {
            long y = laplaceFast(random, t, td, 0);
            long ay = Math.abs(y);
            // γ = (|y|t − σ²)²/(2σ²t²) = d²/2 with d = |y|/σ − σ/t; a, b, d carry relative rounding ≤ 2^−52
            double a = ay / sd;
            double d = a - b;
            double dd = 0x1.0p-51 * (a + b); // ≥ |d − d̃| (about 3·2^−53·(a + b))
            double gamma = 0.5 * d * d;
            double gammaErr = 2 * (Math.abs(d) * dd + dd * dd + 0x1.0p-52 * gamma);
            long w = random.nextLong();
            int fast = lessThanExpMinusFast(w, gamma, gammaErr);
            boolean accept;
            if (fast != UNDECIDED) {
                accept = fast == 1;
            } else {
                BigInteger bt = BigInteger.valueOf(t);
                BigInteger sigma2 = BigInteger.valueOf(sigma).multiply(BigInteger.valueOf(sigma));
                BigInteger diff = BigInteger.valueOf(ay).multiply(bt).subtract(sigma2);
                BigInteger den = sigma2.multiply(bt).multiply(bt).shiftLeft(1);
                accept = uniformBelowExpMinus(new LazyUniform(random, w), diff.multiply(diff), den);
            }
            if (accept) {
                return y;
            }
        }
    }

    /**
     * The decision [U &lt; exp(−γ)] for U in [w·2^−64, (w+1)·2^−64), valid for every γ with
     * |γ − gamma| ≤ gammaErr: 1 (true), 0 (false) or {@link #UNDECIDED} when the first word of U
     * or the error bounds do not suffice. Never wrong when it decides.
     */
    static int lessThanExpMinusFast(long w, double gamma, double gammaErr) {
        if (!(gammaErr >= 0) || !(gamma >= 0)) {
            return UNDECIDED;
        }
        if (gamma <= 1 && gammaErr < 0x1.0p-20) {
            // For γ ∈ [0, 1] the alternating series gives S3(γ) ≤ exp(−γ) ≤ S4(γ) = S3 + γ⁴/24, and
            // |exp(−γ) − exp(−γ̃)| ≤ |γ − γ̃|. U ∈ [c − 2^−52, c + 2^−52] (c = w·2^−64 rounded); the
            // evaluation of S3, S4 errs by less than 2^−49. slack covers all of it. Undecided with
            // probability about γ⁴/24: then the logarithm below decides.
            double c = (w >>> 11) * 0x1.0p-53; // c ≤ U < c + 2^−53 (exact, no branch)
            double g2 = gamma * gamma;
            double s3 = 1 - gamma + 0.5 * g2 - g2 * gamma * (1.0 / 6);
            double s4 = s3 + g2 * g2 * (1.0 / 24);
            double slack = gammaErr + 0x1.0p-47;
            if (c < s3 - slack) {
                return 1;
            }
            if (c > s4 + slack) {
                return 0;
            }
        }
        if ((w >>> 32) == 0) {
            return UNDECIDED;
        }
        double l = minusLog(w);
        double e = logError(w, l);
        // L − γ ∈ [diff − margin, diff + margin]: 2^−50(l + γ) covers the rounding of diff and margin
        double diff = l - gamma;
        double margin = e + gammaErr + 0x1.0p-50 * (l + gamma);
        if (diff > margin) {
            return 1;
        }
        if (diff < -margin) {
            return 0;
        }
        return UNDECIDED;
    }

    /** −ln of fl(w·2^−64) for unsigned w, by Math.log (within 1 ulp). */
    private static double minusLog(long w) {
        return -Math.log(unsignedToDouble(w) * 0x1.0p-64);
    }

    /**
     * A bound on |L − l| for every U ∈ [w·2^−64, (w+1)·2^−64), L = −ln U, l = {@link #minusLog}(w),
     * w ≥ 2^32: the interval adds ln(1 + 1/w) ≤ 1/w, rounding w to double adds ≤ 2^−52, Math.log
     * ≤ 1 ulp ≤ 2^−52·l. The bound returned is at least twice the sum.
     */
    private static double logError(long w, double l) {
        return 0x1.0p-48 * (1 + l) + 2 / (unsignedToDouble(w));
    }

    /** The unsigned value of w, correctly rounded to double. */
    static double unsignedToDouble(long w) {
        if (w >= 0) {
            return w;
        }
        return ((double) ((w >>> 1) | (w & 1))) * 2.0;
    }

    /** A uniform real in [0, 1) whose 64-bit words (most significant first) are drawn on demand. */
    static final class LazyUniform {
        private final RandomSource random;
        private long[] words = new long[4];
        private int count;

        LazyUniform(RandomSource random, long firstWord) {
            this.random = random;
            words[0] = firstWord;
            count = 1;
        }

        LazyUniform(RandomSource random, long firstWord, long secondWord) {
            this(random, firstWord);
            words[1] = secondWord;
            count = 2;
        }

        long word(int i) {
            while (count <= i) {
                if (count == words.length) {
                    words = java.util.Arrays.copyOf(words, 2 * count);
                }
                words[count++] = random.nextLong();
            }
            return words[i];
        }

        /** The first m words as a non-negative integer A: U ∈ [A·2^−64m, (A+1)·2^−64m). */
        BigInteger prefix(int m) {
            BigInteger a = BigInteger.ZERO;
            for (int i = 0; i < m; i++) {
                a = a.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(word(i))));
            }
            return a;
        }
    }

    /**
     * Exactly [U &lt; exp(−num/den)] for the lazy uniform U (num ≥ 0, den &gt; 0), with rational brackets
     * lo ≤ exp(−γ) ≤ hi of shrinking width and more words of U until U's interval lies on one side.
     * Terminates with probability 1 (exp(−γ) is irrational for rational γ &gt; 0, so U ≠ exp(−γ) a.s.).
     */
    static boolean uniformBelowExpMinus(LazyUniform u, BigInteger num, BigInteger den) {
        return uniformBelowScaledExpMinus(u, num, den, BigInteger.ONE, BigInteger.ONE);
    }

    /**
     * Exactly [U &lt; D·exp(−num/den)] with D = dNum/dDen &gt; 0 (num ≥ 0, den &gt; 0), as
     * {@link #uniformBelowExpMinus} with the brackets multiplied by D. Terminates with probability 1.
     */
    static boolean uniformBelowScaledExpMinus(LazyUniform u, BigInteger num, BigInteger den, BigInteger dNum,
                                              BigInteger dDen) {
        if (num.signum() == 0 && dNum.compareTo(dDen) >= 0) {
            return true; // D·exp(0) ≥ 1 > U
        }
        // D < 2^(scaleBits): D·exp(−γ) < 2^(scaleBits − q) for q = ⌊γ⌋
        int scaleBits = dNum.bitLength() - dDen.bitLength() + 1;
        BigInteger[] qr = num.divideAndRemainder(den);
        if (qr[0].bitLength() > 31) {
            // D·exp(−γ) < 2^−(2^30): U below it needs 2^30 zero bits; decided by the first nonzero word
            for (int i = 0; ; i++) {
                if (u.word(i) != 0) {
                    return false;
                }
            }
        }
        int q = qr[0].intValueExact();
        int zeroWords = Math.max(0, (q - scaleBits) / 64);
        // a nonzero word among the first zeroWords means U ≥ 2^−(q − scaleBits) > D·exp(−γ)
        for (int i = 0; i < zeroWords; i++) {
            if (u.word(i) != 0) {
                return false;
            }
        }
        BigInteger r = qr[1];
        for (int n = 9, m = zeroWords + 2; ; n += 8, m++) {
            BigInteger[] f = expMinusBracket(r, den, n);
            BigInteger[] e = expMinusBracket(BigInteger.ONE, BigInteger.ONE, n);
            // lo = D·f.lo·e.lo^q, hi = D·f.hi·e.hi^q (all factors ≥ 0)
            BigInteger loNum = f[0].multiply(e[0].pow(q)).multiply(dNum);
            BigInteger loDen = f[1].multiply(e[1].pow(q)).multiply(dDen);
            BigInteger hiNum = f[2].multiply(e[2].pow(q)).multiply(dNum);
            BigInteger hiDen = f[3].multiply(e[3].pow(q)).multiply(dDen);
            BigInteger a = u.prefix(m);
            int bits = 64 * m;
            if (a.add(BigInteger.ONE).multiply(loDen).compareTo(loNum.shiftLeft(bits)) <= 0) {
                return true; // U < (A+1)/2^bits ≤ lo ≤ D·exp(−γ)
            }
            if (a.multiply(hiDen).compareTo(hiNum.shiftLeft(bits)) >= 0) {
                return false; // U ≥ A/2^bits ≥ hi ≥ D·exp(−γ)
            }
        }
    }

    /**
     * Rational bracket of exp(−x), x = r/d ∈ [0, 1], from the alternating Taylor series: for odd n the
     * partial sums satisfy S_n ≤ exp(−x) ≤ S_{n+1} (terms x^i/i! are non-increasing since x ≤ 1).
     * Returns {loNum, loDen, hiNum, hiDen}.
     */
    static BigInteger[] expMinusBracket(BigInteger r, BigInteger d, int n) {
        if ((n & 1) == 0) {
            throw new IllegalArgumentException("n must be odd, got " + n);
        }
        // S_m = Σ_{i ≤ m} (−1)^i r^i d^{m−i} m!/i! / (d^m m!) computed with the common denominator of S_{n+1}
        int m = n + 1;
        BigInteger mFact = BigInteger.ONE;
        for (int i = 2; i <= m; i++) {
            mFact = mFact.multiply(BigInteger.valueOf(i));
        }
        BigInteger den = d.pow(m).multiply(mFact);
        // numerator of term i with denominator den: r^i d^{m−i} m!/i!
        BigInteger sumN = BigInteger.ZERO;
        BigInteger coef = mFact; // m!/i! at i = 0
        BigInteger rPow = BigInteger.ONE;
        BigInteger lastTerm = BigInteger.ZERO;
        for (int i = 0; i <= m; i++) {
            BigInteger t = rPow.multiply(d.pow(m - i)).multiply(coef);
            sumN = (i & 1) == 0 ? sumN.add(t) : sumN.subtract(t);
            lastTerm = t;
            rPow = rPow.multiply(r);
            if (i < m) {
                coef = coef.divide(BigInteger.valueOf(i + 1));
            }
        }
        // sumN/den = S_{m} (m even: upper); S_n = S_m − (term m) (m even so term m was added)
        BigInteger loN = sumN.subtract(lastTerm);
        return new BigInteger[] {loN, den, sumN, den};
    }
}
