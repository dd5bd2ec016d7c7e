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
        for (double v : a) {
            if (!Double.isFinite(v)) {
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
