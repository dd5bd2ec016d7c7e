package io.dpspectra.noise;

import java.math.BigInteger;

/**
 * Exact discrete Gaussian for large σ: P(k) ∝ exp(−k²/(2σ²)) on the integers |k| &lt; 2^53, by rejection
 * from a piecewise-uniform envelope whose pieces ("bins") are drawn from an exact integer alias table.
 * Built once per σ (about 2,090 bins) for bulk draws; about 3 random words and no logarithm per
 * sample, against 4 words and 1.3 logarithms for {@link DiscreteSamplers#discreteGaussian}. The law is
 * the same as that sampler's conditioned on |k| &lt; 2^53, which is what {@link GaussianNoise} releases
 * (it redraws larger samples).
 *
 * <p>Construction. m = |k| is drawn on [0, 2^53) with P(m) ∝ ρ(m) = exp(−γ(m)), γ(m) = m²/(2σ²); then a
 * fair sign, and (−, 0) is redrawn, so that P(k) ∝ ρ(|k|). With 2^e ≤ σ &lt; 2^(e+1) and W = 2^(e−8)
 * (so σ/W ∈ [128, 256)), the bins are 2,048 regular ones [jW, (j+1)W), covering [0, 2^(e+4)) ⊇ [0, 8σ),
 * then [2^s, 2^(s+1)) for s = e + 4, …, 52. Bin j has left end L_j and width 2^(b_j), b_j ≥ 8; ρ is
 * largest at L_j on it. Its integer weight is a_j = max(1, ⌈2^κ·2^(b_j)/W·ρ̂(L_j)⌉) with ρ̂ an upper bound
 * of ρ (Math.exp, widened by 2^−39 relative: covers the rounding of γ up to γ = 745, beyond which ρ &lt;
 * 2^−1075 and the weight is 1), and κ the largest integer with Σ a_j ≤ 2^62; the rest 2^62 − Σ a_j is a
 * "start over" outcome. A proposal: bin j with probability a_j/2^62 (alias table, exact in integers),
 * u uniform on the bin's 2^(b_j) integers, m = L_j + u, accepted with probability
 * D_j·ρ(m), D_j = 2^κ·2^(b_j)/(W·a_j). Then D_j·ρ(m) ≤ D_j·ρ(L_j) ≤ 1 by the choice of a_j, and
 * P(propose m and accept) = (a_j/2^62)·2^(−b_j)·D_j·ρ(m) = 2^(κ−62)·ρ(m)/W: proportional to ρ(m), as
 * required, whatever the rounding in the weights (it only affects speed). The acceptance rate is about
 * 0.99 per proposal.
 *
 * <p>The acceptance [U &lt; D_j·ρ(m)] is decided as [U &lt; exp(−(δ + c_j))] with δ = γ(m) − γ(L_j) (one
 * multiplication) and c_j = γ(L_j) − ln D_j ≥ 0 precomputed, both with rigorous error bounds, by
 * {@link DiscreteSamplers#lessThanExpMinusFast}; when that cannot decide (U within about 2^−45 of the
 * threshold), {@link DiscreteSamplers#uniformBelowScaledExpMinus} decides exactly on the same U with
 * the rational γ(m) = m²/(2σ²) and D_j. So, as in {@link DiscreteSamplers}, floating point only picks the
 * path; every decision is exact.
 */
final class BinnedDiscreteGaussian {
    /** Smallest σ: the regular bins are then at least 2^8 integers wide. */
    static final long MIN_SIGMA = 1L << 16;
    /** Largest σ: the regular bins must end by 2^52. */
    static final long MAX_SIGMA = (1L << 49) - 1;
    /** Samples satisfy |k| &lt; LIMIT. */
    static final long LIMIT = 1L << 53;

    private static final int REGULAR_BITS = 11;
    private static final int REGULAR = 1 << REGULAR_BITS;
    private static final int COLUMN_BITS = 12;
    private static final int COLUMN_WEIGHT_BITS = 62 - COLUMN_BITS;
    private static final long COLUMN_WEIGHT = 1L << COLUMN_WEIGHT_BITS;
    /** An alias entry: threshold (0..2^50, 51 bits) | alias outcome &lt;&lt; 51. */
    private static final long THRESHOLD_MASK = (1L << 51) - 1;
    private static final long TOTAL = 1L << 62;
    private static final double LN2 = Math.log(2);

    private final long sigma;
    private final int binBits; // W = 2^binBits
    private final double inv2Sigma2;
    private final int bins;
    private final long[] left;
    private final int[] widthBits;
    private final long[] weight;
    private final int kappa;
    /** c_j and its error bound, interleaved (one cache line per bin). */
    private final double[] excess;
    /** The alias table, one long per column (see THRESHOLD_MASK): 32 KiB. */
    private final long[] columns = new long[1 << COLUMN_BITS];

    BinnedDiscreteGaussian(long sigma) {
        if (sigma < MIN_SIGMA || sigma > MAX_SIGMA) {
            throw new IllegalArgumentException("the binned discrete Gaussian needs sigma in [2^16, 2^49), got " + sigma);
        }
        this.sigma = sigma;
        int e = 63 - Long.numberOfLeadingZeros(sigma);
        binBits = e - 7;
        double s2 = (double) sigma * sigma;
        inv2Sigma2 = 1 / (2 * s2);
        int tailStart = binBits + REGULAR_BITS;
        bins = REGULAR + (53 - tailStart);
        left = new long[bins];
        widthBits = new int[bins];
        double[] gamma = new double[bins];
        double[] scaledRho = new double[bins]; // 2^(b_j)/W · ρ̂(L_j)
        double mass = 0;
        for (int j = 0; j < bins; j++) {
            if (j < REGULAR) {
                left[j] = (long) j << binBits;
                widthBits[j] = binBits;
            } else {
                int s = tailStart + j - REGULAR;
                left[j] = 1L << s;
                widthBits[j] = s;
            }
            double l = left[j];
            gamma[j] = l * l * inv2Sigma2;
            scaledRho[j] = Math.scalb(Math.exp(-gamma[j]) * (1 + 0x1.0p-39), widthBits[j] - binBits);
            mass += scaledRho[j];
        }
        // the largest κ with Σ a_j ≤ 2^62 (a_j ≤ 2^κ·scaledRho_j + 1)
        int k = Math.getExponent((TOTAL - 2.0 * bins) / mass);
        long[] a = new long[bins];
        while (true) {
            long sum = 0;
            for (int j = 0; j < bins; j++) {
                a[j] = Math.max(1, (long) Math.ceil(Math.scalb(scaledRho[j], k)));
                sum += a[j];
            }
            if (sum <= TOTAL) {
                break;
            }
            k--;
        }
        kappa = k;
        weight = a;
        excess = new double[2 * bins];
        long slack = TOTAL;
        for (int j = 0; j < bins; j++) {
            slack -= a[j];
            // c_j = γ(L_j) − ln D_j = γ(L_j) − (κ + b_j − binBits)·ln 2 + ln a_j
            double log2D = kappa + widthBits[j] - binBits;
            double lnA = Math.log((double) a[j]);
            excess[2 * j] = gamma[j] - log2D * LN2 + lnA;
            // γ carries ≤ 4 roundings, the products and logs ≤ 2 each, the sum 2: 2^−48 of the magnitudes
            excess[2 * j + 1] = 0x1.0p-48 * (gamma[j] + Math.abs(log2D) * LN2 + lnA) + 0x1.0p-60;
        }
        buildAlias(a, slack);
    }

    /** Vose's alias method in exact integer arithmetic: outcomes 0..bins−1, bins = start over. */
    private void buildAlias(long[] a, long slack) {
        int n = 1 << COLUMN_BITS;
        long[] p = new long[n];
        System.arraycopy(a, 0, p, 0, bins);
        p[bins] = slack;
        int[] small = new int[n];
        int[] large = new int[n];
        int ns = 0;
        int nl = 0;
        for (int i = 0; i < n; i++) {
            if (p[i] < COLUMN_WEIGHT) {
                small[ns++] = i;
            } else {
                large[nl++] = i;
            }
        }
        while (ns > 0 && nl > 0) {
            int s = small[--ns];
            int l = large[--nl];
            columns[s] = p[s] | ((long) l << 51);
            p[l] -= COLUMN_WEIGHT - p[s];
            if (p[l] < COLUMN_WEIGHT) {
                small[ns++] = l;
            } else {
                large[nl++] = l;
            }
        }
        // Σ p = n·COLUMN_WEIGHT exactly, so whatever remains is exactly full
        while (nl > 0) {
            int l = large[--nl];
            columns[l] = COLUMN_WEIGHT | ((long) l << 51);
        }
        while (ns > 0) {
            int s = small[--ns];
            if (p[s] != COLUMN_WEIGHT) {
                throw new AssertionError("alias table out of balance");
            }
            columns[s] = COLUMN_WEIGHT | ((long) s << 51);
        }
    }

    long sigma() {
        return sigma;
    }

    /** An exact sample k, |k| &lt; 2^53. */
    long sample(RandomSource random) {
        while (true) {
            long r = random.nextLong();
            long column = columns[(int) (r >>> (64 - COLUMN_BITS))];
            int j = (r & (COLUMN_WEIGHT - 1)) < (column & THRESHOLD_MASK)
                    ? (int) (r >>> (64 - COLUMN_BITS)) : (int) (column >>> 51);
            if (j >= bins) {
                continue; // the start-over outcome
            }
            long r2 = random.nextLong();
            long u = r2 >>> (64 - (j < REGULAR ? binBits : widthBits[j])); // the top b_j ≤ 52 bits
            long sign = -(r2 & 1); // the lowest bit, not among them: −1 or 0
            long w = random.nextLong();
            int fast = acceptFast(j, u, w);
            if (fast == 0 || fast == DiscreteSamplers.UNDECIDED
                    && !acceptExact(new DiscreteSamplers.LazyUniform(random, w), j, u)) {
                continue;
            }
            long m = leftEnd(j) + u;
            if (sign != 0 && m == 0) {
                continue;
            }
            return (m ^ sign) - sign;
        }
    }

    /** [U &lt; D_j·ρ(L_j + u)] for U's first word w: 1, 0, or UNDECIDED. */
    int acceptFast(int j, long u, long w) {
        double du = u; // < 2^52: exact
        double delta = du * (2.0 * leftEnd(j) + du) * inv2Sigma2; // γ(m) − γ(L_j), ≤ 5 roundings: < 2^−50 relative
        double g = delta + excess[2 * j];
        double err = 0x1.0p-49 * delta + excess[2 * j + 1] + 0x1.0p-52 * Math.abs(g);
        // the common case first: exp(−γ) ≥ 1 − γ, and U < c + 2^−53 with c below
        double c = (w >>> 11) * 0x1.0p-53;
        if (c < 1 - (g + err) - 0x1.0p-50) {
            return 1;
        }
        if (g < 0) {
            err -= g;
            g = 0;
        }
        return DiscreteSamplers.lessThanExpMinusFast(w, g, err);
    }

    /** L_j; computed for the regular bins, whose loads cost about 15% of a sample. */
    private long leftEnd(int j) {
        return j < REGULAR ? (long) j << binBits : left[j];
    }

    /** Exactly [U &lt; D_j·exp(−m²/(2σ²))], m = L_j + u. */
    boolean acceptExact(DiscreteSamplers.LazyUniform uniform, int j, long u) {
        BigInteger m = BigInteger.valueOf(left[j] + u);
        BigInteger s = BigInteger.valueOf(sigma);
        int log2D = kappa + widthBits[j] - binBits;
        BigInteger dNum = log2D >= 0 ? BigInteger.ONE.shiftLeft(log2D) : BigInteger.ONE;
        BigInteger dDen = BigInteger.valueOf(weight[j]);
        if (log2D < 0) {
            dDen = dDen.shiftLeft(-log2D);
        }
        return DiscreteSamplers.uniformBelowScaledExpMinus(uniform, m.multiply(m), s.multiply(s).shiftLeft(1), dNum, dDen);
    }

    // package-private views for the tests

    int bins() {
        return bins;
    }

    long left(int j) {
        return left[j];
    }

    int widthBits(int j) {
        return widthBits[j];
    }

    long weight(int j) {
        return weight[j];
    }

    int kappa() {
        return kappa;
    }

    int binBits() {
        return binBits;
    }

    /** The probability, times 2^62, that the alias table returns outcome i (bins = start over). */
    long aliasMass(int i) {
        long total = 0;
        for (int c = 0; c < columns.length; c++) {
            long threshold = columns[c] & THRESHOLD_MASK;
            if (c == i) {
                total += threshold;
            }
            if ((int) (columns[c] >>> 51) == i) {
                total += COLUMN_WEIGHT - threshold;
            }
        }
        return total;
    }
}
