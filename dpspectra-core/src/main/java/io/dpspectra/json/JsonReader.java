package io.dpspectra.json;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * A small, strict pull parser for one JSON text (RFC 8259), for core code that reads JSON without a library
 * (core has no Jackson): the caller walks the document with {@link #beginObject()}, {@link #nextName()},
 * {@link #nextDouble()} and so on, so a large array of numbers streams into a {@code double[]} without a tree.
 *
 * <p>Strict: whitespace is exactly space, tab, line feed and carriage return, anywhere between tokens;
 * strings are double-quoted with the escapes \" \\ \/ \b \f \n \r \t and \\uXXXX (surrogate pairs joined, a
 * lone surrogate refused), and no raw control character; numbers follow the grammar
 * {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?} (no '+' sign, no leading zeros, no '.5' or '1.', no
 * NaN or Infinity, no hexadecimal) and are converted by {@link Double#parseDouble}, which rounds correctly;
 * the literals are true, false and null; a duplicate name in one object, a trailing comma and any text after
 * the document are refused. A violation throws {@link SyntaxError} naming the column (1-based) and what was
 * expected.
 *
 * <p>Cost: one pass over the text, O(depth) memory plus the names of the open objects.
 */
public final class JsonReader {
    /** What comes next. */
    public enum Token {
        /** '{'. */
        BEGIN_OBJECT,
        /** '}'. */
        END_OBJECT,
        /** '['. */
        BEGIN_ARRAY,
        /** ']'. */
        END_ARRAY,
        /** A member's name (a string followed by ':'). */
        NAME,
        /** A string value. */
        STRING,
        /** A number. */
        NUMBER,
        /** true or false. */
        BOOLEAN,
        /** null. */
        NULL,
        /** The end of the text, after the one value. */
        END_DOCUMENT
    }

    /**
     * A JSON syntax error, or a value of another kind than the caller asked for; the message names the column,
     * and the line too when the text has more than one.
     */
    public static final class SyntaxError extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        /** The 1-based line of the problem. */
        private final int line;
        /** The 1-based column of the problem (within its line). */
        private final int column;

        SyntaxError(int line, int column, boolean multiline, String problem) {
            super((multiline ? "line " + line + ", " : "") + "column " + column + ": " + problem);
            this.line = line;
            this.column = column;
        }

        /**
         * The 1-based line of the problem (1 for a text of one line).
         *
         * @return the line
         */
        public int line() {
            return line;
        }

        /**
         * The 1-based column of the problem, within its line.
         *
         * @return the column
         */
        public int column() {
            return column;
        }
    }

    /** One open object or array. */
    private static final class Scope {
        final boolean object;
        /** True once the first member or element was read (a comma is then needed before the next). */
        boolean nonEmpty;
        /** In an object: true when a name was read and its value is due. */
        boolean valueDue;
        /** True when the comma after a member or element was read and the next one is due. */
        boolean afterComma;
        final Set<String> names;

        Scope(boolean object) {
            this.object = object;
            this.names = object ? new HashSet<>() : null;
        }
    }

    private final String s;
    private int at;
    private final Deque<Scope> scopes = new ArrayDeque<>();
    private boolean started;
    private boolean done;

    /**
     * A reader of one JSON text.
     *
     * @param text the text (a JSON value, with whitespace around it allowed)
     */
    public JsonReader(String text) {
        this.s = Objects.requireNonNull(text, "text");
    }

    /**
     * The 1-based column of the next character to read.
     *
     * @return the column
     */
    public int column() {
        return at + 1;
    }

    private SyntaxError error(String problem) {
        int line = 1;
        int lineStart = 0;
        int end = Math.min(at, s.length());
        for (int k = 0; k < end; k++) {
            if (s.charAt(k) == '\n') {
                line++;
                lineStart = k + 1;
            }
        }
        return new SyntaxError(line, at - lineStart + 1, s.indexOf('\n') >= 0 && s.indexOf('\n') < s.length() - 1,
                problem);
    }

    private void skipWhitespace() {
        while (at < s.length()) {
            char c = s.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            at++;
        }
    }

    private String found() {
        if (at >= s.length()) {
            return "the end of the text";
        }
        char c = s.charAt(at);
        return c < 0x20 ? String.format("the control character U+%04X", (int) c) : "'" + c + "'";
    }

    /**
     * Moves to the next token, consuming the comma before it, and returns its kind without consuming the token
     * itself.
     *
     * @return the kind of the next token
     * @throws SyntaxError where the text is not JSON
     */
    public Token peek() {
        skipWhitespace();
        Scope scope = scopes.peek();
        if (scope == null) {
            if (done) {
                if (at < s.length()) {
                    throw error("unexpected " + found() + " after the JSON value");
                }
                return Token.END_DOCUMENT;
            }
            started = true;
            return valueToken();
        }
        if (scope.object && scope.valueDue) {
            return valueToken();
        }
        if (!scope.afterComma && at < s.length() && s.charAt(at) == (scope.object ? '}' : ']')) {
            return scope.object ? Token.END_OBJECT : Token.END_ARRAY;
        }
        if (scope.nonEmpty && !scope.afterComma) {
            if (at >= s.length() || s.charAt(at) != ',') {
                throw error("expected ',' or '" + (scope.object ? '}' : ']') + "', found " + found());
            }
            at++;
            scope.afterComma = true;
            skipWhitespace();
        }
        if (scope.afterComma && at < s.length() && (s.charAt(at) == '}' || s.charAt(at) == ']')) {
            throw error("a trailing comma before " + found() + " is not JSON");
        }
        if (scope.object) {
            if (at >= s.length() || s.charAt(at) != '"') {
                throw error("expected a member name (a string in double quotes), found " + found());
            }
            return Token.NAME;
        }
        return valueToken();
    }

    private Token valueToken() {
        if (at >= s.length()) {
            throw error("expected a value, found the end of the text");
        }
        char c = s.charAt(at);
        return switch (c) {
            case '{' -> Token.BEGIN_OBJECT;
            case '[' -> Token.BEGIN_ARRAY;
            case '"' -> Token.STRING;
            case 't', 'f' -> Token.BOOLEAN;
            case 'n' -> Token.NULL;
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield Token.NUMBER;
                }
                throw error("expected a value, found " + found());
            }
        };
    }

    private void expect(Token wanted, String what) {
        Token t = peek();
        if (t != wanted) {
            throw error("expected " + what + ", found " + describe(t));
        }
    }

    private String describe(Token t) {
        return switch (t) {
            case BEGIN_OBJECT -> "an object";
            case END_OBJECT -> "the end of the object";
            case BEGIN_ARRAY -> "an array";
            case END_ARRAY -> "the end of the array";
            case NAME -> "a member name";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "true or false";
            case NULL -> "null";
            case END_DOCUMENT -> "the end of the text";
        };
    }

    /** A value was consumed: the enclosing scope now needs a comma (or its end) next. */
    private void valueRead() {
        Scope scope = scopes.peek();
        if (scope == null) {
            done = true;
        } else {
            scope.nonEmpty = true;
            scope.valueDue = false;
            scope.afterComma = false;
        }
    }

    /**
     * Consumes the '{' of an object.
     *
     * @throws SyntaxError when the next token is not the start of an object
     */
    public void beginObject() {
        expect(Token.BEGIN_OBJECT, "an object");
        at++;
        scopes.push(new Scope(true));
    }

    /**
     * Consumes the '}' of the current object.
     *
     * @throws SyntaxError when the object has more members
     */
    public void endObject() {
        expect(Token.END_OBJECT, "the end of the object ('}')");
        at++;
        scopes.pop();
        valueRead();
    }

    /**
     * Consumes the '[' of an array.
     *
     * @throws SyntaxError when the next token is not the start of an array
     */
    public void beginArray() {
        expect(Token.BEGIN_ARRAY, "an array");
        at++;
        scopes.push(new Scope(false));
    }

    /**
     * Consumes the ']' of the current array.
     *
     * @throws SyntaxError when the array has more elements
     */
    public void endArray() {
        expect(Token.END_ARRAY, "the end of the array (']')");
        at++;
        scopes.pop();
        valueRead();
    }

    /**
     * True if the current object or array has another member or element.
     *
     * @return whether one follows
     */
    public boolean hasNext() {
        Token t = peek();
        return t != Token.END_OBJECT && t != Token.END_ARRAY && t != Token.END_DOCUMENT;
    }

    /**
     * The next member's name, and the colon after it. A name already seen in this object is refused.
     *
     * @return the name, unescaped
     */
    public String nextName() {
        expect(Token.NAME, "a member name");
        int start = at;
        String name = string();
        Scope scope = scopes.peek();
        if (!scope.names.add(name)) {
            at = start;
            throw error("the name \"" + name + "\" appears twice in one object");
        }
        skipWhitespace();
        if (at >= s.length() || s.charAt(at) != ':') {
            throw error("expected ':' after the name \"" + name + "\", found " + found());
        }
        at++;
        scope.valueDue = true;
        scope.afterComma = false;
        return name;
    }

    /**
     * The next value, a string.
     *
     * @return the string, unescaped
     */
    public String nextString() {
        expect(Token.STRING, "a string");
        String v = string();
        valueRead();
        return v;
    }

    /**
     * The next value, true or false.
     *
     * @return the value
     */
    public boolean nextBoolean() {
        expect(Token.BOOLEAN, "true or false");
        boolean v = s.startsWith("true", at);
        literal(v ? "true" : "false");
        valueRead();
        return v;
    }

    /** Consumes the next value, null. */
    public void nextNull() {
        expect(Token.NULL, "null");
        literal("null");
        valueRead();
    }

    /**
     * The next number as the nearest double.
     *
     * @return the correctly rounded value (a magnitude beyond the doubles is ±infinity, a tiny one ±0)
     */
    public double nextDouble() {
        return Double.parseDouble(numberText());
    }

    /**
     * The next number, which must be an integer within the range of a long (1e3 and 3.0 are; 2.5 is not).
     *
     * @return the integer
     */
    public long nextLong() {
        int start = at;
        String text = numberText();
        try {
            return new BigDecimal(text).longValueExact();
        } catch (ArithmeticException e) {
            at = start;
            throw error("expected an integer, found " + text);
        }
    }

    /**
     * The text of the next number, checked against the JSON grammar.
     *
     * @return the number as written
     */
    public String nextNumberText() {
        return numberText();
    }

    /** Skips the next value, whatever it is (objects and arrays whole). */
    public void skipValue() {
        switch (peek()) {
            case BEGIN_OBJECT -> {
                beginObject();
                while (hasNext()) {
                    nextName();
                    skipValue();
                }
                endObject();
            }
            case BEGIN_ARRAY -> {
                beginArray();
                while (hasNext()) {
                    skipValue();
                }
                endArray();
            }
            case STRING -> nextString();
            case NUMBER -> numberText();
            case BOOLEAN -> nextBoolean();
            case NULL -> nextNull();
            default -> throw error("expected a value, found " + describe(peek()));
        }
    }

    /** Checks that the whole text was one JSON value followed by whitespace only. */
    public void endDocument() {
        if (!started || !done) {
            throw error(started ? "the JSON value is not complete" : "expected a JSON value");
        }
        peek();
    }

    private void literal(String word) {
        if (!s.startsWith(word, at)) {
            throw error("expected " + word + ", found " + found());
        }
        at += word.length();
    }

    private String numberText() {
        expect(Token.NUMBER, "a number");
        int start = at;
        if (s.charAt(at) == '-') {
            at++;
        }
        if (at < s.length() && s.charAt(at) == '0') {
            at++;
            if (at < s.length() && isDigit(s.charAt(at))) {
                throw error("a number may not have a leading zero");
            }
        } else if (!digits()) {
            throw error("expected a digit, found " + found());
        }
        if (at < s.length() && s.charAt(at) == '.') {
            at++;
            if (!digits()) {
                throw error("expected a digit after the decimal point, found " + found());
            }
        }
        if (at < s.length() && (s.charAt(at) == 'e' || s.charAt(at) == 'E')) {
            at++;
            if (at < s.length() && (s.charAt(at) == '+' || s.charAt(at) == '-')) {
                at++;
            }
            if (!digits()) {
                throw error("expected a digit in the exponent, found " + found());
            }
        }
        if (at < s.length() && (Character.isLetterOrDigit(s.charAt(at)) || s.charAt(at) == '.'
                || s.charAt(at) == '+' || s.charAt(at) == '-')) {
            throw error("unexpected " + found() + " in a number");
        }
        valueRead();
        return s.substring(start, at);
    }

    private boolean digits() {
        int start = at;
        while (at < s.length() && isDigit(s.charAt(at))) {
            at++;
        }
        return at > start;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** The string starting at the opening quote under the cursor, unescaped; the cursor ends after its closing quote. */
    private String string() {
        at++; // the opening quote
        StringBuilder out = null;
        int runStart = at;
        while (true) {
            if (at >= s.length()) {
                throw error("the string is not closed (no '\"' before the end of the text)");
            }
            char c = s.charAt(at);
            if (c == '"') {
                String v = out == null ? s.substring(runStart, at) : out.append(s, runStart, at).toString();
                at++;
                return v;
            }
            if (c < 0x20) {
                throw error("a string may not hold " + found() + " unescaped");
            }
            if (Character.isSurrogate(c)) {
                if (!Character.isHighSurrogate(c) || at + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(at + 1))) {
                    throw error("a string holds a lone surrogate U+" + String.format("%04X", (int) c));
                }
                at += 2;
                continue;
            }
            if (c != '\\') {
                at++;
                continue;
            }
            if (out == null) {
                out = new StringBuilder();
            }
            out.append(s, runStart, at);
            at++;
            if (at >= s.length()) {
                throw error("the string ends inside an escape");
            }
            char e = s.charAt(at);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    char unit = hex4();
                    if (Character.isHighSurrogate(unit)) {
                        if (!s.startsWith("\\u", at + 1)) {
                            throw error("a \\u escape of a high surrogate must be followed by its low surrogate");
                        }
                        at += 2;
                        char low = hex4();
                        if (!Character.isLowSurrogate(low)) {
                            throw error("a \\u escape of a high surrogate must be followed by its low surrogate");
                        }
                        out.append(unit).append(low);
                    } else if (Character.isLowSurrogate(unit)) {
                        throw error("a \\u escape holds a lone low surrogate");
                    } else {
                        out.append(unit);
                    }
                }
                default -> throw error("'\\" + e + "' is not a JSON escape (use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)");
            }
            at++;
            runStart = at;
        }
    }

    /** The four hex digits after "\\u" (the cursor is on the 'u'; it ends on the last digit). */
    private char hex4() {
        int v = 0;
        for (int i = 1; i <= 4; i++) {
            int d = at + i < s.length() ? hexDigit(s.charAt(at + i)) : -1;
            if (d < 0) {
                at = Math.min(at + i, s.length());
                throw error("a \\u escape needs four hexadecimal digits, found " + found());
            }
            v = v * 16 + d;
        }
        at += 4;
        return (char) v;
    }

    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }
}
