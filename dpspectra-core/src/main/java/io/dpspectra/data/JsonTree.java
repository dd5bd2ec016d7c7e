package io.dpspectra.data;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON reader for the library's own small public files (a schema), so that core needs no JSON
 * library: objects become {@link LinkedHashMap}s (keys in file order), arrays {@link List}s, strings
 * {@link String}s, integers {@link Long} (or {@link BigInteger}), other numbers {@link Double} (or
 * {@link BigDecimal}), true and false {@link Boolean}s, and null {@link #NULL}. The accessors read a value
 * as a lenient reader would ({@link #text}, {@link #integer}).
 */
final class JsonTree {
    /** JSON's null (a key that is present with no value), told apart from a missing key (Java null). */
    static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    private final String s;
    private int i;

    private JsonTree(String s) {
        this.s = s;
    }

    /** Parses {@code text}; malformed JSON is an {@link IllegalArgumentException} naming the line and column. */
    static Object parse(String text) {
        JsonTree p = new JsonTree(text);
        p.space();
        Object v = p.value();
        p.space();
        if (p.i < text.length()) {
            throw p.error("unexpected text after the JSON value");
        }
        return v;
    }

    /**
     * The value as text: a string itself, a number or boolean as written, "" for an object or array, and
     * {@code otherwise} for a missing key or null.
     */
    static String text(Object v, String otherwise) {
        if (v == null || v == NULL) {
            return otherwise;
        }
        if (v instanceof Map || v instanceof List) {
            return "";
        }
        return v.toString();
    }

    /** The value as an int: a number truncated, a string of digits parsed, true 1, anything else {@code otherwise}. */
    static int integer(Object v, int otherwise) {
        if (v instanceof Number n) {
            return n.intValue();
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (v instanceof String t) {
            try {
                return (int) Double.parseDouble(t.trim());
            } catch (NumberFormatException e) {
                return otherwise;
            }
        }
        return otherwise;
    }

    /** The value written as JSON on one line (for messages). */
    static String write(Object v) {
        if (v instanceof String t) {
            StringBuilder b = new StringBuilder("\"");
            for (char c : t.toCharArray()) {
                switch (c) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    case '\t' -> b.append("\\t");
                    case '\r' -> b.append("\\r");
                    default -> {
                        if (c < 0x20) {
                            b.append(String.format("\\u%04X", (int) c));
                        } else {
                            b.append(c);
                        }
                    }
                }
            }
            return b.append('"').toString();
        }
        if (v instanceof Map<?, ?> m) {
            List<String> parts = new ArrayList<>();
            m.forEach((k, x) -> parts.add(write(k) + ":" + write(x)));
            return "{" + String.join(",", parts) + "}";
        }
        if (v instanceof List<?> l) {
            List<String> parts = new ArrayList<>();
            l.forEach(x -> parts.add(write(x)));
            return "[" + String.join(",", parts) + "]";
        }
        return String.valueOf(v);
    }

    private Object value() {
        if (i >= s.length()) {
            throw error("the text ends where a value is expected");
        }
        char c = s.charAt(i);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", NULL);
            default -> {
                if (c == '-' || c >= '0' && c <= '9') {
                    yield number();
                }
                throw error("unexpected character '" + c + "'");
            }
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        space();
        if (peek('}')) {
            i++;
            return m;
        }
        while (true) {
            space();
            if (!peek('"')) {
                throw error("expected a quoted key");
            }
            String key = string();
            space();
            expect(':');
            space();
            m.put(key, value());
            space();
            if (peek(',')) {
                i++;
            } else {
                expect('}');
                return m;
            }
        }
    }

    private List<Object> array() {
        List<Object> l = new ArrayList<>();
        i++;
        space();
        if (peek(']')) {
            i++;
            return l;
        }
        while (true) {
            space();
            l.add(value());
            space();
            if (peek(',')) {
                i++;
            } else {
                expect(']');
                return l;
            }
        }
    }

    private String string() {
        StringBuilder b = new StringBuilder();
        i++;
        while (true) {
            if (i >= s.length()) {
                throw error("a string is not closed");
            }
            char c = s.charAt(i++);
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                throw error("a control character inside a string");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (i >= s.length()) {
                throw error("a string is not closed");
            }
            char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    if (i + 4 > s.length()) {
                        throw error("a \\u escape needs four hex digits");
                    }
                    try {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    } catch (NumberFormatException x) {
                        throw error("a \\u escape needs four hex digits");
                    }
                    i += 4;
                }
                default -> throw error("unknown escape '\\" + e + "'");
            }
        }
    }

    private Object number() {
        int start = i;
        if (peek('-')) {
            i++;
        }
        digits();
        boolean integral = true;
        if (peek('.')) {
            integral = false;
            i++;
            digits();
        }
        if (peek('e') || peek('E')) {
            integral = false;
            i++;
            if (peek('+') || peek('-')) {
                i++;
            }
            digits();
        }
        String t = s.substring(start, i);
        if (integral) {
            BigInteger v = new BigInteger(t);
            return v.bitLength() < 64 ? (Object) v.longValue() : v;
        }
        double d = Double.parseDouble(t);
        return Double.isInfinite(d) ? new BigDecimal(t) : d;
    }

    private void digits() {
        int start = i;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        if (i == start) {
            throw error("a number needs digits");
        }
    }

    private Object literal(String word, Object value) {
        if (!s.startsWith(word, i)) {
            throw error("unexpected word");
        }
        i += word.length();
        return value;
    }

    private boolean peek(char c) {
        return i < s.length() && s.charAt(i) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("expected '" + c + "'");
        }
        i++;
    }

    private void space() {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\n'
                || s.charAt(i) == '\r')) {
            i++;
        }
    }

    private IllegalArgumentException error(String what) {
        int line = 1;
        int column = 1;
        for (int k = 0; k < Math.min(i, s.length()); k++) {
            if (s.charAt(k) == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return new IllegalArgumentException("not valid JSON at line " + line + ", column " + column + ": " + what);
    }
}
