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
 * division); every other number goes to {@code ch.randelshofer:fastdoubleparser}, whose results are
 * correctly rounded (Eisel–Lemire with an exact fallback). A value beyond the double range comes back
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
        return JavaDoubleParser.parseDouble(bytes, start, end - start);
    }
}
