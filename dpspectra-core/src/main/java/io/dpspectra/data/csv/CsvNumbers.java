package io.dpspectra.data.csv;

import ch.randelshofer.fastdoubleparser.JavaDoubleParser;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Parses a plain decimal number ({@code 1}, {@code -2.5}, {@code 3e-4}, {@code .5}, {@code 7.}) straight
 * from bytes, with a result bit-identical to {@link Double#parseDouble} on the same text.
 *
 * <p>Only plain decimals are accepted: hexadecimal, Java suffixes ({@code 1d}), {@code NaN},
 * {@code Infinity} and every other spelling return {@link #NOT_A_NUMBER} so that the caller can name
 * the problem. The digits are read eight at a time where they can be (one 64-bit load, tested and
 * converted with a few multiplications, as in Lemire's fast_float). Numbers of at most 18 significant
 * digits whose value fits in 53 bits, with a power of ten of at most 22, take the exact Clinger fast
 * path (one correctly rounded multiplication or division); other numbers of at most 18 significant
 * digits take {@link #eiselLemire}; numbers with more digits go to {@code ch.randelshofer:fastdoubleparser},
 * whose results are correctly rounded. A value beyond the double range comes back as ±infinity, which
 * the caller reports as an overflow.
 *
 * <p>One instance per thread: {@link #scan} leaves where it stopped in {@link #end}.
 */
final class CsvNumbers {
    /** The result for text that is not a plain decimal; never the result of a valid number. */
    static final double NOT_A_NUMBER = Double.NaN;

    private static final double[] POWERS_OF_TEN = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    };
    private static final long MAX_EXACT_MANTISSA = 1L << 53;
    /** Eight bytes at once, little-endian (the first byte in the low bits). */
    private static final VarHandle EIGHT = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Where the last {@link #scan} stopped: the index after the number's last byte. */
    int end;

    /**
     * The value of {@code bytes[start, end)} (ASCII, no surrounding whitespace), or {@link #NOT_A_NUMBER}
     * (test with {@link Double#isNaN}) when it is not a plain decimal.
     */
    static double parse(byte[] bytes, int start, int end) {
        CsvNumbers scanner = new CsvNumbers();
        double v = scanner.scan(bytes, start, end);
        return scanner.end == end ? v : NOT_A_NUMBER;
    }

    /**
     * Reads the longest plain decimal at {@code bytes[start, limit)}: its value, with {@link #end} set
     * just after it (the caller checks that a separator or the line end follows), or
     * {@link #NOT_A_NUMBER} when none starts there (no digit, or an exponent marker without digits).
     */
    double scan(byte[] bytes, int start, int limit) {
        int i = start;
        boolean negative = false;
        if (i < limit && (bytes[i] == '-' || bytes[i] == '+')) {
            negative = bytes[i] == '-';
            i++;
        }
        int firstDigit = i;
        // every digit goes into the mantissa (it wraps past 19 digits; then the slow path is taken)
        long mantissa = 0;
        while (i + 8 <= limit && isEightDigits((long) EIGHT.get(bytes, i))) {
            mantissa = mantissa * 100_000_000L + eightDigits((long) EIGHT.get(bytes, i));
            i += 8;
        }
        int c;
        while (i < limit && (c = bytes[i] - '0') >= 0 && c <= 9) {
            mantissa = mantissa * 10 + c;
            i++;
        }
        int digits = i - firstDigit;
        int exponent = 0;
        if (i < limit && bytes[i] == '.') {
            i++;
            int fractionStart = i;
            while (i + 8 <= limit && isEightDigits((long) EIGHT.get(bytes, i))) {
                mantissa = mantissa * 100_000_000L + eightDigits((long) EIGHT.get(bytes, i));
                i += 8;
            }
            while (i < limit && (c = bytes[i] - '0') >= 0 && c <= 9) {
                mantissa = mantissa * 10 + c;
                i++;
            }
            exponent = fractionStart - i;
            digits += i - fractionStart;
        }
        if (digits == 0) {
            end = i;
            return NOT_A_NUMBER;
        }
        if (i < limit && (bytes[i] == 'e' || bytes[i] == 'E')) {
            i++;
            boolean negativeExp = false;
            if (i < limit && (bytes[i] == '-' || bytes[i] == '+')) {
                negativeExp = bytes[i] == '-';
                i++;
            }
            int expStart = i;
            int e = 0;
            while (i < limit && (c = bytes[i] - '0') >= 0 && c <= 9) {
                if (e < 100_000) {
                    e = e * 10 + c;
                }
                i++;
            }
            if (i == expStart) {
                end = i;
                return NOT_A_NUMBER;
            }
            exponent += negativeExp ? -e : e;
        }
        end = i;
        if (digits > 18 && digits - leadingZeros(bytes, firstDigit, i) > 18) {
            return JavaDoubleParser.parseDouble(bytes, start, i - start);
        }
        // at most 18 significant digits: the mantissa is exact
        if (mantissa <= MAX_EXACT_MANTISSA && exponent >= -22 && exponent <= 22) {
            double v = mantissa;
            v = exponent >= 0 ? v * POWERS_OF_TEN[exponent] : v / POWERS_OF_TEN[-exponent];
            return negative ? -v : v;
        }
        if (mantissa == 0) {
            return negative ? -0.0 : 0.0;
        }
        double v = eiselLemire(mantissa, exponent);
        return negative ? -v : v;
    }

    /** Zeros (and the point) before the first nonzero digit in bytes[from, to). */
    private static int leadingZeros(byte[] bytes, int from, int to) {
        int zeros = 0;
        for (int i = from; i < to && (bytes[i] == '0' || bytes[i] == '.'); i++) {
            if (bytes[i] == '0') {
                zeros++;
            }
        }
        return zeros;
    }

    /** True if all eight bytes of {@code w} are ASCII digits (fast_float's is_made_of_eight_digits_fast). */
    private static boolean isEightDigits(long w) {
        return ((w & 0xF0F0F0F0F0F0F0F0L) | (((w + 0x0606060606060606L) & 0xF0F0F0F0F0F0F0F0L) >>> 4))
                == 0x3333333333333333L;
    }

    /** The value of eight ASCII digits loaded little-endian (fast_float's parse_eight_digits_unrolled). */
    private static long eightDigits(long w) {
        long v = w - 0x3030303030303030L;
        v = v * 10 + (v >>> 8);
        return ((v & 0x000000FF000000FFL) * (100 + (1_000_000L << 32))
                + ((v >>> 16) & 0x000000FF000000FFL) * (1 + (10_000L << 32))) >>> 32;
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
        // Long.numberOfLeadingZeros(w) for 0 < w < 2^63, from the exponent of (double) w (one less when the
        // conversion rounded up to the next power of two): the same under C2, and under C1 (the launcher's
        // compiler for text inputs under 1 GB), where numberOfLeadingZeros is a call, 3% less per number
        int log2 = (int) (Double.doubleToRawLongBits((double) w) >>> 52) - 1023;
        if ((w >>> log2) == 0) {
            log2--;
        }
        int lz = 63 - log2;
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
