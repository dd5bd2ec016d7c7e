package io.dpspectra.data.csv;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The byte parser gives exactly the bits of Double.parseDouble, and refuses every non-plain spelling. */
class CsvNumbersTest {

    private static double parse(String s) {
        byte[] b = ("xx" + s + "yy").getBytes(StandardCharsets.US_ASCII);
        double v = CsvNumbers.parse(b, 2, b.length - 2);
        // digits on both sides: the eight-at-a-time reads stop at the end given; and the scan of a
        // cell followed by a separator, as the CSV reader calls it, gives the same value and stops there
        byte[] padded = ("12345678" + s + "87654321").getBytes(StandardCharsets.US_ASCII);
        double inDigits = CsvNumbers.parse(padded, 8, padded.length - 8);
        byte[] cell = (s + ",12345678,").getBytes(StandardCharsets.US_ASCII);
        CsvNumbers scanner = new CsvNumbers();
        double scanned = scanner.scan(cell, 0, cell.length);
        if (!Double.isNaN(v)) {
            assertThat(Double.doubleToRawLongBits(inDigits)).as(s).isEqualTo(Double.doubleToRawLongBits(v));
            assertThat(Double.doubleToRawLongBits(scanned)).as(s).isEqualTo(Double.doubleToRawLongBits(v));
            assertThat(scanner.end).as(s).isEqualTo(s.length());
        } else {
            assertThat(inDigits).as(s).isNaN();
        }
        return v;
    }

    private static void assertExact(String s) {
        double expected = Double.parseDouble(s);
        double got = parse(s);
        assertThat(Double.doubleToRawLongBits(got)).as("parse(\"%s\") = %s, Double.parseDouble gives %s", s, got,
                expected).isEqualTo(Double.doubleToRawLongBits(expected));
    }

    /** Random digit strings: 1..40 significant digits, a point anywhere, exponents across the whole range. */
    @Test
    void aMillionRandomDecimalsParseBitIdenticallyToParseDouble() {
        SplittableRandom rnd = new SplittableRandom(20261123L);
        StringBuilder sb = new StringBuilder();
        for (int t = 0; t < 1_000_000; t++) {
            sb.setLength(0);
            switch (rnd.nextInt(3)) {
                case 0 -> sb.append('-');
                case 1 -> sb.append('+');
                default -> { }
            }
            int digits = 1 + rnd.nextInt(rnd.nextBoolean() ? 20 : 40);
            int point = rnd.nextInt(digits + 2) - 1; // -1: no point
            for (int i = 0; i < digits; i++) {
                if (i == point) {
                    sb.append('.');
                }
                sb.append((char) ('0' + rnd.nextInt(10)));
            }
            if (point == digits) {
                sb.append('.');
            }
            if (rnd.nextInt(3) > 0) {
                sb.append(rnd.nextBoolean() ? 'e' : 'E');
                int kind = rnd.nextInt(4);
                int exp = kind == 0 ? rnd.nextInt(23) : kind == 1 ? rnd.nextInt(330) : kind == 2 ? 290 + rnd.nextInt(60)
                        : rnd.nextInt(1000);
                sb.append(rnd.nextBoolean() ? "-" : rnd.nextBoolean() ? "+" : "").append(exp);
            }
            assertExact(sb.toString());
        }
    }

    /** Every double's shortest repr, and 17- and 15-digit renderings, round-trip exactly, subnormals included. */
    @Test
    @Tag("slow")
    void randomDoublesWrittenInSeveralFormsIncludingSubnormalsParseExactly() {
        SplittableRandom rnd = new SplittableRandom(7L);
        for (int t = 0; t < 300_000; t++) {
            double v = switch (rnd.nextInt(4)) {
                case 0 -> Double.longBitsToDouble(rnd.nextLong()); // any bit pattern
                case 1 -> Double.longBitsToDouble(rnd.nextLong(0x0010000000000000L)); // subnormal
                case 2 -> rnd.nextGaussian();
                default -> rnd.nextDouble() * Math.pow(10, rnd.nextInt(40) - 20);
            };
            if (!Double.isFinite(v)) {
                continue;
            }
            assertExact(Double.toString(v));
            assertExact(String.format(Locale.ROOT, "%.17g", v));
            assertExact(String.format(Locale.ROOT, "%.15e", v));
            assertExact(new java.math.BigDecimal(v).toPlainString().replace("E", "e")); // the exact value: many digits
        }
    }

    /** Mantissas of 16 to 18 digits (the Eisel–Lemire path) over the whole exponent range, subnormals included. */
    @Test
    void longMantissasOverTheWholeExponentRangeParseExactly() {
        SplittableRandom rnd = new SplittableRandom(99L);
        StringBuilder sb = new StringBuilder();
        for (int t = 0; t < 500_000; t++) {
            sb.setLength(0);
            int digits = 16 + rnd.nextInt(3);
            sb.append((char) ('1' + rnd.nextInt(9)));
            for (int i = 1; i < digits; i++) {
                sb.append((char) ('0' + rnd.nextInt(10)));
            }
            sb.append('e').append(rnd.nextInt(690) - 360);
            assertExact(sb.toString());
        }
    }

    /**
     * Mantissas just below and at a power of two (2^53 .. 2^59), where converting the mantissa to a double
     * rounds up to the next power and the leading-zero count taken from its exponent must be corrected.
     */
    @Test
    void mantissasNextToPowersOfTwoParseExactly() {
        for (int k = 53; k <= 59; k++) {
            for (long j = -3; j <= 40; j++) {
                long w = (1L << k) - j;
                for (int q = -340; q <= 300; q += 7) {
                    assertExact(w + "e" + q);
                }
                assertExact("0." + w);
                assertExact(w + ".0");
            }
        }
    }

    @Test
    void edgeCasesParseExactly() {
        for (String s : new String[] {"0", "-0", "+0", "0.0", "-0.0", ".5", "7.", "-.5e1", "4.9e-324", "2.4703282292062327e-324",
            "2.4703282292062328e-324", "2.2250738585072011e-308", "2.2250738585072012e-308", "1.7976931348623157e308",
            "1.7976931348623158e308", "9007199254740993", "9007199254740992", "123456789012345678901234567890",
            "0.1", "0.30000000000000004", "1e22", "1e23", "8.98846567431158e307", "1e-400", "0e999999", "00000001.5",
            "1.00000000000000011102230246251565404236316680908203125"}) {
            assertExact(s);
        }
        assertThat(parse("1e309")).isInfinite();
        assertThat(parse("-1e400")).isEqualTo(Double.NEGATIVE_INFINITY);
    }

    /** The shipped table of 128-bit powers of five is the one fast_float's generator defines. */
    @Test
    void thePowersOfFiveTableMatchesItsDefinition() {
        java.math.BigInteger two128 = java.math.BigInteger.ONE.shiftLeft(128);
        long[] t = CsvNumbers.PowersOfFive.TABLE;
        for (int q = CsvNumbers.PowersOfFive.SMALLEST; q <= CsvNumbers.PowersOfFive.LARGEST; q++) {
            java.math.BigInteger c;
            if (q < 0) {
                java.math.BigInteger p5 = java.math.BigInteger.valueOf(5).pow(-q);
                int z = p5.bitLength();
                int b = q >= -27 ? z + 127 : 2 * z + 128;
                c = java.math.BigInteger.ONE.shiftLeft(b).divide(p5).add(java.math.BigInteger.ONE);
                while (c.compareTo(two128) >= 0) {
                    c = c.shiftRight(1);
                }
            } else {
                c = java.math.BigInteger.valueOf(5).pow(q);
                c = c.bitLength() < 128 ? c.shiftLeft(128 - c.bitLength()) : c.shiftRight(c.bitLength() - 128);
            }
            int i = 2 * (q - CsvNumbers.PowersOfFive.SMALLEST);
            assertThat(t[i]).as("high word of 5^%d", q).isEqualTo(c.shiftRight(64).longValue());
            assertThat(t[i + 1]).as("low word of 5^%d", q).isEqualTo(c.longValue());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-", "+", ".", "e5", "1e", "1e+", "NaN", "nan", "-nan", "Infinity", "-Infinity", "inf",
        "+inf", "INF", "1d", "1f", "1D", "0x1p3", "0x10", "1.2.3", "1e5.5", "--1", "1 2", " 1", "1,5", "١", "1_000"})
    void everyOtherSpellingIsRefused(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        assertThat(CsvNumbers.parse(b, 0, b.length)).as(s).isNaN();
    }
}
