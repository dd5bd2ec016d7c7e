package io.dpspectra.data;

/**
 * What a cell's text is, and how messages quote it: the rules {@link io.dpspectra.data.csv.CsvRows} applies,
 * shared with the schema-driven reader so that both accept the same numbers and quote cells alike.
 */
public final class CellText {
    private CellText() {
    }

    /**
     * True if {@code s} is a plain finite decimal: optional sign, digits with at most one point, optional
     * exponent (no hexadecimal, no Java suffixes, no NaN or infinity).
     *
     * @param s a cell's text, trimmed
     * @return whether it is such a number
     */
    public static boolean looksLikeFiniteNumber(String s) {
        int n = s.length();
        int i = 0;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int digits = 0;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
            digits++;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return false;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int exp = 0;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                exp++;
            }
            if (exp == 0) {
                return false;
            }
        }
        return i == n;
    }

    /**
     * True for a cell that spells a non-finite number or a missing value (NaN, inf, NA, n/a, null, none).
     *
     * @param cell the cell's text
     * @return whether the cell is such a marker
     */
    public static boolean isNonFiniteOrMissingMarker(String cell) {
        String lower = cell.toLowerCase(java.util.Locale.ROOT);
        return lower.matches("[+-]?(nan|inf|infinity)") || lower.equals("na") || lower.equals("n/a")
                || lower.equals("null") || lower.equals("none");
    }

    /**
     * True for an ASCII digit.
     *
     * @param c the character
     * @return whether {@code c} is 0–9
     */
    public static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /**
     * {@code s} cut to 60 characters (with "..." at the end when cut), for quoting a cell or line in a message.
     *
     * @param s the text
     * @return the text, at most 60 characters
     */
    public static String abbreviate(String s) {
        return abbreviate(s, 60);
    }

    /**
     * {@code s} cut to {@code max} characters (with "..." at the end when cut).
     *
     * @param s   the text
     * @param max the longest result, ≥ 3
     * @return the text, at most {@code max} characters
     */
    public static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }

    /**
     * A character as a message shows it: tab, line feed and carriage return escaped.
     *
     * @param c the character
     * @return its printable form
     */
    public static String printable(char c) {
        return switch (c) {
            case '\t' -> "\\t";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            default -> String.valueOf(c);
        };
    }
}
