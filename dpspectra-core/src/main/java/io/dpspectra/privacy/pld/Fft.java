package io.dpspectra.privacy.pld;

/**
 * Convolution of two non-negative arrays (probability mass functions) with a rigorous bound on its floating-point
 * error, by our own radix-2 FFT (no dependency), or directly when the arrays are short.
 *
 * <p>FFT path: c = IFFT(FFT(a) ⊙ FFT(b)) in complex double precision, iterative Cooley–Tukey with bit-reversed
 * input and twiddle factors w_k = exp(−2πik/N) computed directly with {@link Math#cos}/{@link Math#sin} (each
 * within |ŵ − w| ≤ μ = 10u, u = 2⁻⁵³: the angle 2πk/N carries a relative error ≤ 1.5u and cos/sin one ulp).
 * Error bound (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., Theorem 24.2): a computed
 * length-N FFT satisfies ‖ŷ − y‖₂ ≤ e_F‖y‖₂ with e_F = Lη/(1 − Lη), L = log₂N, η = μ + γ₄(√2 + μ) ≤ 16u. With
 * ‖FFT(a)‖∞ ≤ ‖a‖₁ = s_a, ‖FFT(a)‖₂ = √N‖a‖₂ = √N·r_a, the complex product's error √2γ₂ (Higham Lemma 3.5) and
 * Parseval for the inverse transform, the computed ĉ satisfies
 * ‖ĉ − c‖₂ ≤ 1.01·(3e_F + 3u)·(r_a s_b + s_a r_b) for N ≤ 2³⁰ (the factor 1.01 covers the second-order terms,
 * which are below e_F√N ≤ 2e−9). Over the m kept entries the L1 error is at most √m times that; negative
 * computed entries are set to 0, which moves no entry further from its exact (non-negative) value.
 *
 * <p>Direct path (when the numbers of non-zero entries multiply to at most {@value #DIRECT_LIMIT}, e.g. an
 * identity, randomized response or a few atoms against anything): each output is a sum of at most n = min(nnz_a,
 * nnz_b) non-negative products, so its relative error is at most γ_{n+1} = (n + 1)u/(1 − (n + 1)u) and the L1
 * error at most γ_{n+1}·s_a·s_b.
 *
 * <p>Cost: O(N log N) with N the power of two ≥ na + nb − 1: three transforms (two for a self-convolution).
 */
final class Fft {
    /** Products of the numbers of non-zero entries up to which the direct sum is used. */
    static final long DIRECT_LIMIT = 1L << 22;

    private static final double U = 0x1.0p-53;

    private Fft() {
    }

    /** A convolution and a bound on the L1 distance between it and the exact convolution. */
    record Result(double[] values, double l1Error) {
    }

    /** a * b (length na + nb − 1), entries ≥ 0. */
    static Result convolve(double[] a, double[] b) {
        if (a.length == 0 || b.length == 0) {
            throw new IllegalArgumentException("cannot convolve an empty array");
        }
        int[] nzA = nonZeros(a);
        int[] nzB = a == b ? nzA : nonZeros(b);
        if ((long) nzA.length * nzB.length <= DIRECT_LIMIT) {
            return direct(a, nzA, b, nzB);
        }
        int m = a.length + b.length - 1;
        int n = Integer.highestOneBit(m - 1) << 1;
        if (m == 1) {
            n = 1;
        }
        if (n <= 0 || n > (1 << 30)) {
            throw new IllegalArgumentException("privacy loss distribution too large to convolve: " + m + " entries");
        }
        boolean square = a == b;
        double[] ar = new double[n];
        double[] ai = new double[n];
        System.arraycopy(a, 0, ar, 0, a.length);
        double[] cosTable = new double[n / 2 + 1];
        double[] sinTable = new double[n / 2 + 1];
        twiddles(n, cosTable, sinTable);
        transform(ar, ai, cosTable, sinTable, false);
        double[] br;
        double[] bi;
        if (square) {
            br = ar;
            bi = ai;
        } else {
            br = new double[n];
            bi = new double[n];
            System.arraycopy(b, 0, br, 0, b.length);
            transform(br, bi, cosTable, sinTable, false);
        }
        for (int k = 0; k < n; k++) {
            double re = ar[k] * br[k] - ai[k] * bi[k];
            double im = ar[k] * bi[k] + ai[k] * br[k];
            ar[k] = re;
            ai[k] = im;
        }
        transform(ar, ai, cosTable, sinTable, true);
        double scale = 1.0 / n; // a power of two: exact
        double[] c = new double[m];
        for (int k = 0; k < m; k++) {
            c[k] = Math.max(0, ar[k] * scale);
        }
        int levels = Integer.numberOfTrailingZeros(n);
        double eta = 16 * U;
        double eF = levels * eta / (1 - levels * eta);
        double l2 = 1.01 * (3 * eF + 3 * U) * (norm2(a) * sum(b) + sum(a) * norm2(b));
        return new Result(c, Math.sqrt((double) m) * l2 * (1 + 1e-12));
    }

    private static int[] nonZeros(double[] x) {
        int count = 0;
        for (double v : x) {
            if (v != 0) {
                count++;
            }
        }
        int[] idx = new int[count];
        int k = 0;
        for (int i = 0; i < x.length; i++) {
            if (x[i] != 0) {
                idx[k++] = i;
            }
        }
        return idx;
    }

    private static Result direct(double[] a, int[] nzA, double[] b, int[] nzB) {
        int m = a.length + b.length - 1;
        double[] c = new double[m];
        for (int i : nzA) {
            double ai = a[i];
            for (int j : nzB) {
                c[i + j] += ai * b[j];
            }
        }
        int terms = Math.min(nzA.length, nzB.length) + 1;
        double gamma = terms * U / (1 - terms * U);
        return new Result(c, gamma * sum(a) * sum(b) * (1 + 1e-12));
    }

    static double sum(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s * (1 + (x.length + 1) * U * 2);
    }

    private static double norm2(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v * v;
        }
        return Math.sqrt(s * (1 + (x.length + 2) * U * 2));
    }

    /** cos and sin of 2πk/N for k = 0..N/2. */
    private static void twiddles(int n, double[] cos, double[] sin) {
        double step = 2 * Math.PI / n;
        for (int k = 0; k <= n / 2; k++) {
            double angle = step * k;
            cos[k] = Math.cos(angle);
            sin[k] = Math.sin(angle);
        }
    }

    /**
     * In-place radix-2 transform: forward computes Σ_j x_j exp(−2πijk/N); inverse the same with +i (unscaled).
     */
    static void transform(double[] re, double[] im, double[] cos, double[] sin, boolean inverse) {
        int n = re.length;
        if (n == 1) {
            return;
        }
        int bits = Integer.numberOfTrailingZeros(n);
        for (int i = 0; i < n; i++) {
            int j = Integer.reverse(i) >>> (32 - bits);
            if (j > i) {
                double t = re[i];
                re[i] = re[j];
                re[j] = t;
                t = im[i];
                im[i] = im[j];
                im[j] = t;
            }
        }
        double sign = inverse ? 1 : -1;
        for (int size = 2; size <= n; size <<= 1) {
            int half = size >> 1;
            int stride = n / size;
            for (int start = 0; start < n; start += size) {
                for (int k = 0; k < half; k++) {
                    double wr = cos[k * stride];
                    double wi = sign * sin[k * stride];
                    int p = start + k;
                    int q = p + half;
                    double xr = re[q] * wr - im[q] * wi;
                    double xi = re[q] * wi + im[q] * wr;
                    re[q] = re[p] - xr;
                    im[q] = im[p] - xi;
                    re[p] += xr;
                    im[p] += xi;
                }
            }
        }
    }
}
