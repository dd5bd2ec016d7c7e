package io.dpspectra.data;

import io.dpspectra.json.JsonReader;
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

    private JsonTree() {
    }

    /**
     * Parses {@code text} with core's one JSON parser ({@link JsonReader}: strict RFC 8259, a name twice in one
     * object refused); malformed JSON is an {@link IllegalArgumentException} naming the line and column.
     */
    static Object parse(String text) {
        JsonReader r = new JsonReader(text);
        try {
            Object v = value(r);
            r.endDocument();
            return v;
        } catch (JsonReader.SyntaxError e) {
            throw new IllegalArgumentException("not valid JSON at line " + e.line() + ", column " + e.column() + ": "
                    + e.getMessage().substring(e.getMessage().indexOf(": ") + 2), e);
        }
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

    private static Object value(JsonReader r) {
        return switch (r.peek()) {
            case BEGIN_OBJECT -> {
                Map<String, Object> m = new LinkedHashMap<>();
                r.beginObject();
                while (r.hasNext()) {
                    String key = r.nextName();
                    m.put(key, value(r));
                }
                r.endObject();
                yield m;
            }
            case BEGIN_ARRAY -> {
                List<Object> l = new ArrayList<>();
                r.beginArray();
                while (r.hasNext()) {
                    l.add(value(r));
                }
                r.endArray();
                yield l;
            }
            case STRING -> r.nextString();
            case BOOLEAN -> r.nextBoolean();
            case NULL -> {
                r.nextNull();
                yield NULL;
            }
            case NUMBER -> number(r.nextNumberText());
            default -> throw new IllegalStateException("peek() returns a value's token here");
        };
    }

    /** An integer as a Long (or BigInteger), any other number as a Double (or BigDecimal beyond the doubles). */
    private static Object number(String t) {
        if (t.indexOf('.') < 0 && t.indexOf('e') < 0 && t.indexOf('E') < 0) {
            BigInteger v = new BigInteger(t);
            return v.bitLength() < 64 ? (Object) v.longValue() : v;
        }
        double d = Double.parseDouble(t);
        return Double.isInfinite(d) ? new BigDecimal(t) : d;
    }
}
