package io.dpspectra.linalg;

/** Small dense-vector helpers. Nothing here allocates unless it says it returns a new array. */
public final class Vectors {
    private Vectors() {
    }

    /**
     * The dot product Σ a_i b_i.
     *
     * @param a a vector
     * @param b a vector of the same length
     * @return a · b
     */
    public static double dot(double[] a, double[] b) {
        requireSameLength(a, b);
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    /**
     * Euclidean norm, scaled so that huge or tiny entries do not overflow or underflow.
     *
     * @param a a vector
     * @return ‖a‖₂
     */
    public static double norm2(double[] a) {
        return norm2(a, 0, a.length);
    }

    /**
     * Euclidean norm of a[off .. off+len), computed as {@link #norm2(double[])}: one plain pass of squares,
     * and a second, rescaled pass only when that sum overflowed or may have lost precision to underflow.
     *
     * @param a   a vector
     * @param off the first index
     * @param len the number of entries
     * @return ‖a[off .. off+len)‖₂
     */
    public static double norm2(double[] a, int off, int len) {
        double ss = 0;
        for (int i = off; i < off + len; i++) {
            ss += a[i] * a[i];
        }
        return norm2From(a, off, len, ss);
    }

    /**
     * The Euclidean norms of several rows of width {@code len}, the r-th starting at {@code offsets[r]}, into
     * {@code norms[r]}: each the same bits as {@link #norm2(double[], int, int)} of that row (the same sum of
     * squares in the same order), but eight (then four) rows' sums run side by side, so that the additions of one row
     * do not wait for each other (about 3 to 4 times faster on rows of a block than one row at a time with four; eight
     * took about 1 to 5 % off the decode and clip of a .dpsr pass, docs/benchmarks/pass.md). Not modified: a.
     *
     * @param a       holds the rows
     * @param offsets the index of each row's first entry
     * @param count   the number of rows (the first {@code count} offsets)
     * @param len     the rows' width
     * @param norms   receives the norms, at least {@code count} long
     */
    public static void norms2(double[] a, int[] offsets, int count, int len, double[] norms) {
        int r = 0;
        for (; r + 8 <= count; r += 8) {
            int o0 = offsets[r];
            int o1 = offsets[r + 1];
            int o2 = offsets[r + 2];
            int o3 = offsets[r + 3];
            int o4 = offsets[r + 4];
            int o5 = offsets[r + 5];
            int o6 = offsets[r + 6];
            int o7 = offsets[r + 7];
            double s0 = 0;
            double s1 = 0;
            double s2 = 0;
            double s3 = 0;
            double s4 = 0;
            double s5 = 0;
            double s6 = 0;
            double s7 = 0;
            for (int i = 0; i < len; i++) {
                double x0 = a[o0 + i];
                double x1 = a[o1 + i];
                double x2 = a[o2 + i];
                double x3 = a[o3 + i];
                double x4 = a[o4 + i];
                double x5 = a[o5 + i];
                double x6 = a[o6 + i];
                double x7 = a[o7 + i];
                s0 += x0 * x0;
                s1 += x1 * x1;
                s2 += x2 * x2;
                s3 += x3 * x3;
                s4 += x4 * x4;
                s5 += x5 * x5;
                s6 += x6 * x6;
                s7 += x7 * x7;
            }
            norms[r] = norm2From(a, o0, len, s0);
            norms[r + 1] = norm2From(a, o1, len, s1);
            norms[r + 2] = norm2From(a, o2, len, s2);
            norms[r + 3] = norm2From(a, o3, len, s3);
            norms[r + 4] = norm2From(a, o4, len, s4);
            norms[r + 5] = norm2From(a, o5, len, s5);
            norms[r + 6] = norm2From(a, o6, len, s6);
            norms[r + 7] = norm2From(a, o7, len, s7);
        }
        for (; r + 4 <= count; r += 4) {
            int o0 = offsets[r];
            int o1 = offsets[r + 1];
            int o2 = offsets[r + 2];
            int o3 = offsets[r + 3];
            double s0 = 0;
            double s1 = 0;
            double s2 = 0;
            double s3 = 0;
            for (int i = 0; i < len; i++) {
                double x0 = a[o0 + i];
                double x1 = a[o1 + i];
                double x2 = a[o2 + i];
                double x3 = a[o3 + i];
                s0 += x0 * x0;
                s1 += x1 * x1;
                s2 += x2 * x2;
                s3 += x3 * x3;
            }
            norms[r] = norm2From(a, o0, len, s0);
            norms[r + 1] = norm2From(a, o1, len, s1);
            norms[r + 2] = norm2From(a, o2, len, s2);
            norms[r + 3] = norm2From(a, o3, len, s3);
        }
        for (; r < count; r++) {
            norms[r] = norm2(a, offsets[r], len);
        }
    }

    /** {@link #norm2(double[], int, int)} of a[off .. off+len) given its plain sum of squares {@code ss}. */
    private static double norm2From(double[] a, int off, int len, double ss) {
        // safe range: no square overflowed, and the sum is far above the subnormal range where squares
        // of small entries lose bits (entries below ~1e-146 square to below 1e-292)
        if (ss < 1e300 && ss > 1e-280) {
            return Math.sqrt(ss);
        }
        double scale = 0;
        for (int i = off; i < off + len; i++) {
            scale = Math.max(scale, Math.abs(a[i]));
        }
        if (scale == 0 || !Double.isFinite(scale)) {
            return scale;
        }
        double s = 0;
        for (int i = off; i < off + len; i++) {
            double t = a[i] / scale;
            s += t * t;
        }
        return scale * Math.sqrt(s);
    }

    /**
     * Scales a[off .. off+len) onto the closed L2 ball of radius {@code bound} when its Euclidean norm exceeds
     * the bound, and returns true if it did. Overflow-safe for every row of finite entries, however large:
     * the norm is {@link #norm2(double[], int, int)}, and when even that overflows (entries near
     * {@link Double#MAX_VALUE}, where ‖a‖ itself is not a double) the row is first divided by its largest
     * magnitude, so the clipped row keeps its direction and lands on the bound instead of becoming zero or
     * NaN. The result satisfies ‖a‖₂ ≤ bound as {@link #norm2} measures it (rounding that leaves it a hair
     * above is undone by shrinking a few ulps). This is the one clipping step of the library: every per-row
     * or per-sample L2 clip goes through it, so that no finite input can make a privacy computation
     * overflow.
     *
     * <p>Modified: a.
     *
     * @param a     holds the row
     * @param off   the index of the row's first entry
     * @param len   the row's length
     * @param bound a finite bound &gt; 0
     * @return whether the row was scaled
     * @throws IllegalArgumentException if an entry is NaN or infinite (such a row has no norm; callers
     *                                  refuse it before any private computation, see {@link #isFinite})
     */
    public static boolean clipL2InPlace(double[] a, int off, int len, double bound) {
        double l2 = norm2(a, off, len);
        if (l2 <= bound) {
            return false;
        }
        double factor = bound / l2;
        if (factor >= Double.MIN_NORMAL) {
            scaleInPlace(a, off, len, factor);
        } else { // ‖a‖ overflowed, or bound/‖a‖ is subnormal (too few bits to scale by): a power of two first
            shrinkByLargest(a, off, len); // entries now below 2 in magnitude
            scaleInPlace(a, off, len, bound / norm2(a, off, len));
        }
        settleL2(a, off, len, bound, norm2(a, off, len));
        return true;
    }

    /**
     * The guard steps of an L2 clip: while the row's norm {@code l2} (its {@link #norm2} as it is now) is above
     * the bound, shrink it by {@link #shrinkStep} and measure again.
     */
    private static void settleL2(double[] a, int off, int len, double bound, double l2) {
        for (int step = 0; l2 > bound; step++) {
            scaleInPlace(a, off, len, 1 - shrinkStep(step));
            l2 = norm2(a, off, len);
        }
    }

    /**
     * {@link #clipL2InPlace(double[], int, int, double)} on each of several rows of width {@code len}, the r-th
     * starting at {@code offsets[r]}, in that order: every row ends with the same bits as clipped alone, and
     * {@code clipped[r]} says whether it was scaled. The rows' norms before and after scaling are taken eight or four
     * rows at a time ({@link #norms2}), which makes clipping a block of rows several times faster than row by row.
     * Modified: a, clipped.
     *
     * @param a       holds the rows
     * @param offsets the index of each row's first entry (rows must not overlap)
     * @param count   the number of rows (the first {@code count} offsets)
     * @param len     the rows' width
     * @param bound   a finite bound &gt; 0
     * @param clipped receives whether each row was scaled, at least {@code count} long
     * @throws IllegalArgumentException if an entry is NaN or infinite (rows may then be left partly clipped)
     */
    public static void clipL2InPlace(double[] a, int[] offsets, int count, int len, double bound, boolean[] clipped) {
        double[] norms = new double[count];
        norms2(a, offsets, count, len, norms);
        int[] scaled = new int[count];
        int settling = 0;
        for (int r = 0; r < count; r++) {
            int off = offsets[r];
            double l2 = norms[r];
            clipped[r] = !(l2 <= bound);
            if (!clipped[r]) {
                continue;
            }
            double factor = bound / l2;
            if (factor >= Double.MIN_NORMAL) {
                scaleInPlace(a, off, len, factor);
                scaled[settling++] = off;   // its guard steps below, several rows' norms at a time
            } else {
                clipL2InPlace(a, off, len, bound);   // the rare overflow-safe path, row by row (its norm is l2 again)
            }
        }
        // the guard steps of settleL2, every row still above the bound taking step s in round s
        norms2(a, scaled, settling, len, norms);
        for (int step = 0; ; step++) {
            int above = 0;
            for (int r = 0; r < settling; r++) {
                if (norms[r] > bound) {
                    scaled[above++] = scaled[r];
                }
            }
            if (above == 0) {
                return;
            }
            settling = above;
            double shrink = 1 - shrinkStep(step);
            for (int r = 0; r < settling; r++) {
                scaleInPlace(a, scaled[r], len, shrink);
            }
            norms2(a, scaled, settling, len, norms);
        }
    }

    /**
     * As {@link #clipL2InPlace} for the L1 norm: scales a[off .. off+len) onto ‖a‖₁ ≤ bound, overflow-safe for
     * every finite row (a sum of magnitudes that overflows is taken after dividing by the largest one).
     * Modified: a.
     *
     * @param a     holds the row
     * @param off   the index of the row's first entry
     * @param len   the row's length
     * @param bound a finite bound &gt; 0
     * @return whether the row was scaled
     * @throws IllegalArgumentException if an entry is NaN or infinite
     */
    public static boolean clipL1InPlace(double[] a, int off, int len, double bound) {
        double l1 = norm1(a, off, len);
        if (l1 <= bound) {
            return false;
        }
        double factor = bound / l1;
        if (factor >= Double.MIN_NORMAL) {
            scaleInPlace(a, off, len, factor);
        } else {
            shrinkByLargest(a, off, len);
            scaleInPlace(a, off, len, bound / norm1(a, off, len));
        }
        for (int step = 0; norm1(a, off, len) > bound; step++) {
            scaleInPlace(a, off, len, 1 - shrinkStep(step));
        }
        return true;
    }

    /**
     * The relative shrink of the {@code step}-th guard step of a clip, for a row that rounding left a hair
     * above its bound: 1e-15 (a few ulps) for the first eight steps, then doubling, so that even a row scaled
     * into the subnormal range (a bound below ~1e-300) settles in a few dozen steps.
     *
     * @param step the guard step, from 0
     * @return the relative shrink, in (0, 0.5]
     */
    public static double shrinkStep(int step) {
        return step < 8 ? 1e-15 : Math.min(0.5, Math.scalb(1e-15, step - 7));
    }

    /**
     * Divides a[off .. off+len) by the power of two 2^e of its largest magnitude (a change of exponent: exact,
     * except that entries below 2^e · 2⁻¹⁰⁷⁴ underflow to zero, far below the rounding of the norm), so that every
     * entry is below 2 in magnitude. Refuses a NaN or infinite entry (the clip helpers'
     * precondition). Modified: a.
     */
    private static void shrinkByLargest(double[] a, int off, int len) {
        double m = 0;
        for (int i = off; i < off + len; i++) {
            double v = Math.abs(a[i]);
            if (!(v <= Double.MAX_VALUE)) {
                throw new IllegalArgumentException("entry " + (i - off + 1) + " is " + a[i] + "; only rows of finite "
                        + "numbers can be clipped");
            }
            m = Math.max(m, v);
        }
        int e = Math.getExponent(m);
        for (int i = off; i < off + len; i++) {
            a[i] = Math.scalb(a[i], -e);
        }
    }

    /**
     * The L1 norm Σ |a_i|.
     *
     * @param a a vector
     * @return ‖a‖₁
     */
    public static double norm1(double[] a) {
        return norm1(a, 0, a.length);
    }

    /**
     * L1 norm of a[off .. off+len).
     *
     * @param a   a vector
     * @param off the first index
     * @param len the number of entries
     * @return ‖a[off .. off+len)‖₁
     */
    public static double norm1(double[] a, int off, int len) {
        double s = 0;
        for (int i = off; i < off + len; i++) {
            s += Math.abs(a[i]);
        }
        return s;
    }

    /**
     * The largest |a_i|.
     *
     * @param a a vector
     * @return ‖a‖∞, 0 for an empty vector
     */
    public static double normInf(double[] a) {
        double s = 0;
        for (double v : a) {
            s = Math.max(s, Math.abs(v));
        }
        return s;
    }

    /**
     * a ← c · a. Modified: a.
     *
     * @param a the vector
     * @param c the factor
     */
    public static void scaleInPlace(double[] a, double c) {
        scaleInPlace(a, 0, a.length, c);
    }

    /**
     * a[off .. off+len) ← c · a[off .. off+len). Modified: a.
     *
     * @param a   the vector
     * @param off the first index
     * @param len the number of entries
     * @param c   the factor
     */
    public static void scaleInPlace(double[] a, int off, int len, double c) {
        for (int i = off; i < off + len; i++) {
            a[i] *= c;
        }
    }

    /**
     * y ← y + c · x. Modified: y.
     *
     * @param c the factor
     * @param x a vector
     * @param y a vector of the same length, updated in place
     */
    public static void axpy(double c, double[] x, double[] y) {
        requireSameLength(x, y);
        for (int i = 0; i < x.length; i++) {
            y[i] += c * x[i];
        }
    }

    /**
     * Scales a to unit norm and returns its former norm; a zero vector is left as it is. Modified: a.
     *
     * @param a the vector
     * @return ‖a‖₂ before scaling
     */
    public static double normalizeInPlace(double[] a) {
        double n = norm2(a);
        if (n > 0) {
            scaleInPlace(a, 1.0 / n);
        }
        return n;
    }

    /**
     * True if every entry is finite.
     *
     * @param a a vector
     * @return false when an entry is NaN or infinite
     */
    public static boolean isFinite(double[] a) {
        return isFinite(a, 0, a.length);
    }

    /**
     * True if every entry of a[off .. off+len) is finite.
     *
     * @param a   a vector
     * @param off the index of the first entry
     * @param len the number of entries
     * @return whether none is NaN or infinite
     */
    public static boolean isFinite(double[] a, int off, int len) {
        for (int i = off; i < off + len; i++) {
            if (!Double.isFinite(a[i])) {
                return false;
            }
        }
        return true;
    }

    static void requireSameLength(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("vector lengths differ: " + a.length + " vs " + b.length);
        }
    }
}
