package io.dpspectra.data;

import ch.randelshofer.fastdoubleparser.JavaDoubleParser;

/**
 * Parses a plain decimal number ({@code 1}, {@code -2.5}, {@code 3e-4}, {@code .5}, {@code 7.}) straight
 * from bytes, with a result bit-identical to {@link Double#parseDouble} on the same text.
 *
 * <p>Only plain decimals are accepted: hexadecimal, Java suffixes ({@code 1d}), {@code NaN},
 * {@code Infinity} and every other spelling return {@link #NOT_A_NUMBER} so that the caller can name
 * the problem. Short numbers (at most 18 significant digits whose value fits in 53 bits, with a power
 * of ten of at most 22) take the exact Clinger fast path (one correctly rounded multiplication or
 * division); other numbers of at most 18 significant digits take {@link #eiselLemire}; numbers with
 * more digits go to {@code ch.randelshofer:fastdoubleparser}, whose results are correctly rounded. A value beyond the double range comes back
 * as ±infinity, which the caller reports as an overflow.
 */
final class CsvNumbers {
    /** The result for text that is not a plain decimal; never the result of a valid number. */
    static final double NOT_A_NUMBER = Double.NaN;

    private static final double[] POWERS_OF_TEN = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    };
    private static final long MAX_EXACT_MANTISSA = 1L << 53;

    private CsvNumbers() {
    }

    /**
     * The value of {@code bytes[start, end)} (ASCII, no surrounding whitespace), or {@link #NOT_A_NUMBER}
     * (test with {@link Double#isNaN}) when it is not a plain decimal.
     */
    static double parse(byte[] bytes, int start, int end) {
        int i = start;
        boolean negative = false;
        if (i < end && (bytes[i] == '-' || bytes[i] == '+')) {
            negative = bytes[i] == '-';
            i++;
        }
        long mantissa = 0;
        int significant = 0; // digits accumulated into mantissa, leading zeros excluded
        int digits = 0;
        int exponent = 0; // decimal exponent adjustment from the point and dropped digits
        boolean exact = true;
        while (i < end) {
            int c = bytes[i] - '0';
            if (c < 0 || c > 9) {
                break;
            }
            if (significant < 18) {
                mantissa = mantissa * 10 + c;
                if (mantissa != 0) {
                    significant++;
                }
            } else {
                exact = false;
                exponent++;
            }
            digits++;
            i++;
        }
        if (i < end && bytes[i] == '.') {
            i++;
            while (i < end) {
                int c = bytes[i] - '0';
                if (c < 0 || c > 9) {
                    break;
                }
                if (significant < 18) {
                    mantissa = mantissa * 10 + c;
                    if (mantissa != 0) {
                        significant++;
                    }
                    exponent--;
                } else {
                    exact = false;
                }
                digits++;
                i++;
            }
        }
        if (digits == 0) {
            return NOT_A_NUMBER;
        }
        if (i < end && (bytes[i] == 'e' || bytes[i] == 'E')) {
            i++;
            boolean negativeExp = false;
            if (i < end && (bytes[i] == '-' || bytes[i] == '+')) {
                negativeExp = bytes[i] == '-';
                i++;
            }
            int expDigits = 0;
            int e = 0;
            while (i < end) {
                int c = bytes[i] - '0';
                if (c < 0 || c > 9) {
                    break;
                }
                if (e < 100_000) {
                    e = e * 10 + c;
                }
                expDigits++;
                i++;
            }
            if (expDigits == 0) {
                return NOT_A_NUMBER;
            }
            exponent += negativeExp ? -e : e;
        }
        if (i != end) {
            return NOT_A_NUMBER;
        }
        if (exact && mantissa <= MAX_EXACT_MANTISSA && exponent >= -22 && exponent <= 22) {
            double v = mantissa;
            v = exponent >= 0 ? v * POWERS_OF_TEN[exponent] : v / POWERS_OF_TEN[-exponent];
            return negative ? -v : v;
        }
        if (exact && mantissa == 0) {
            return negative ? -0.0 : 0.0;
        }
        if (exact) {
            double v = eiselLemire(mantissa, exponent);
            return negative ? -v : v;
        }
        return JavaDoubleParser.parseDouble(bytes, start, end - start);
    }

    /**
     * The correctly rounded double nearest w·10^q for an exact mantissa 0 &lt; w &lt; 10^18: the
     * Eisel–Lemire algorithm (Lemire, "Number parsing at a gigabyte per second", Softw. Pract. Exp.
     * 2021, Algorithm 1, as in the fast_float library), which is exact with no fallback for a mantissa of
     * at most 19 digits (Mushtak and Lemire, "Fast number parsing without fallback", 2023). Uses the
     * 128-bit truncated powers of five in {@link PowersOfFive}.
     */
    static double eiselLemire(long w, int q) {
        if (q < PowersOfFive.SMALLEST) {
            return 0.0;
        }
        if (q > PowersOfFive.LARGEST) {
            return Double.POSITIVE_INFINITY;
        }
        int lz = Long.numberOfLeadingZeros(w);
        long x = w << lz;
        int idx = 2 * (q - PowersOfFive.SMALLEST);
        long[] t = PowersOfFive.TABLE;
        long hi = unsignedMultiplyHigh(x, t[idx]);
        long lo = x * t[idx];
        if ((hi & 0x1FF) == 0x1FF) {
            long secondHi = unsignedMultiplyHigh(x, t[idx + 1]);
            long sum = lo + secondHi;
            if (Long.compareUnsigned(secondHi, sum) > 0) {
                hi++;
            }
            lo = sum;
        }
        int upperBit = (int) (hi >>> 63);
        long mantissa = hi >>> (upperBit + 9);
        int power2 = (((217706 * q) >> 16) + 63) + upperBit - lz + 1023;
        if (power2 <= 0) { // subnormal
            if (-power2 + 1 >= 64) {
                return 0.0;
            }
            mantissa >>>= -power2 + 1;
            mantissa += mantissa & 1;
            mantissa >>>= 1;
            power2 = mantissa < (1L << 52) ? 0 : 1;
            return Double.longBitsToDouble(((long) power2 << 52) | (mantissa & ((1L << 52) - 1)));
        }
        if (Long.compareUnsigned(lo, 1) <= 0 && q >= -4 && q <= 23 && (mantissa & 3) == 1
                && (mantissa << (upperBit + 9)) == hi) {
            mantissa &= ~1L; // exactly halfway: round to even
        }
        mantissa += mantissa & 1;
        mantissa >>>= 1;
        if (Long.compareUnsigned(mantissa, 2L << 52) >= 0) {
            mantissa = 1L << 52;
            power2++;
        }
        mantissa &= ~(1L << 52);
        if (power2 >= 0x7FF) {
            return Double.POSITIVE_INFINITY;
        }
        return Double.longBitsToDouble(((long) power2 << 52) | mantissa);
    }

    private static long unsignedMultiplyHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    /**
     * 5^q for q in [−342, 308], each as the 128 most significant bits (high word, low word): truncated
     * for q ≥ 0, and rounded up as fast_float tabulates them for q &lt; 0. Read on first use from the
     * resource {@code powers-of-five-128.bin} (10 KB); {@code CsvNumbersTest} recomputes every entry
     * with BigInteger (computing them at start-up would cost about 0.2 s).
     */
    static final class PowersOfFive {
        static final int SMALLEST = -342;
        static final int LARGEST = 308;
        static final long[] TABLE = load();

        private PowersOfFive() {
        }

        private static long[] load() {
            long[] t = new long[2 * (LARGEST - SMALLEST + 1)];
            try (java.io.DataInputStream in = new java.io.DataInputStream(new java.io.BufferedInputStream(
                    CsvNumbers.class.getResourceAsStream("powers-of-five-128.bin")))) {
                for (int i = 0; i < t.length; i++) {
                    t[i] = in.readLong();
                }
            } catch (java.io.IOException | NullPointerException e) {
                throw new IllegalStateException("the table powers-of-five-128.bin is missing from the jar; rebuild it",
                        e);
            }
            return t;
        }
    }
}
