package io.dpspectra.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonReaderTest {
    /** The whole document as plain Java values (objects as ordered maps, numbers as their text), for the tests. */
    private static Object read(String text) {
        JsonReader r = new JsonReader(text);
        Object v = value(r);
        r.endDocument();
        return v;
    }

    private static Object value(JsonReader r) {
        switch (r.peek()) {
            case BEGIN_OBJECT -> {
                Map<String, Object> m = new LinkedHashMap<>();
                r.beginObject();
                while (r.hasNext()) {
                    String name = r.nextName();
                    m.put(name, value(r));
                }
                r.endObject();
                return m;
            }
            case BEGIN_ARRAY -> {
                List<Object> a = new ArrayList<>();
                r.beginArray();
                while (r.hasNext()) {
                    a.add(value(r));
                }
                r.endArray();
                return a;
            }
            case STRING -> {
                return r.nextString();
            }
            case NUMBER -> {
                return r.nextDouble();
            }
            case BOOLEAN -> {
                return r.nextBoolean();
            }
            case NULL -> {
                r.nextNull();
                return "null";
            }
            default -> throw new AssertionError(r.peek());
        }
    }

    @Test
    void whitespaceIsAllowedBetweenEveryTwoTokens() {
        Object compact = read("{\"a\":[1,2,{\"b\":true}],\"c\":null}");
        Object spaced = read(" \t\r\n{ \"a\" :\t[ 1 ,\n2 , { \"b\" : true } ] ,\r\n \"c\" : null }\n ");
        assertThat(spaced).isEqualTo(compact);
        assertThat(compact).isEqualTo(Map.of("a", List.of(1.0, 2.0, Map.of("b", true)), "c", "null"));
    }

    @Test
    void stringEscapesAreDecoded() {
        assertThat(read("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"")).isEqualTo("a\"b\\c/d\b\f\n\r\t");
        assertThat(read("\"\\u0041\\u00e9\\u20AC\"")).isEqualTo("Aé€");
        assertThat(read("\"\\ud83d\\ude00 and 😀\"")).isEqualTo("😀 and 😀"); // a surrogate pair, escaped and raw
        assertThat(read("\"\"")).isEqualTo("");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"\\x41\"", "\"\\u00g1\"", "\"\\u12\"", "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83d\\u0041\"",
        "\"a\tb\"", "\"a\nb\"", "\"open", "'single'"})
    void badStringsAreRefused(String text) {
        assertThatThrownBy(() -> read(text)).isInstanceOf(JsonReader.SyntaxError.class)
                .hasMessageMatching("(line 1, )?column \\d+: .*"); // "a\nb" is a text of two lines
    }

    @Test
    void numbersInEveryValidFormReadToTheCorrectlyRoundedDouble() {
        String[] valid = {"0", "-0", "7", "-7", "10", "1.5", "-0.25", "0.1", "1e5", "1E5", "1e+5", "1e-5", "1.25e-3",
            "-2.5E+10", "123456789012345678901234567890", "0.30000000000000004", "4.9e-324", "1.7976931348623157e308",
            "2.2250738585072014E-308"};
        for (String v : valid) {
            assertThat(read(v)).as(v).isEqualTo(Double.parseDouble(v));
            assertThat(read("[" + v + "]")).as(v).isEqualTo(List.of(Double.parseDouble(v)));
        }
        assertThat((double) read("-0")).isEqualTo(-0.0).matches(x -> 1 / x < 0, "negative zero");
        assertThat(read("1e400")).isEqualTo(Double.POSITIVE_INFINITY); // valid JSON; the caller decides
        JsonReader r = new JsonReader("[3, 1e3, -20.0, 2.5, 1e30]");
        r.beginArray();
        assertThat(r.nextLong()).isEqualTo(3);
        assertThat(r.nextLong()).isEqualTo(1000);
        assertThat(r.nextLong()).isEqualTo(-20);
        assertThatThrownBy(r::nextLong).hasMessageContaining("expected an integer, found 2.5");
    }

    @ParameterizedTest
    @ValueSource(strings = {"01", "-01", "+1", ".5", "1.", "1.e5", "1e", "1e+", "-", "--1", "0x10", "NaN", "Infinity",
        "-Infinity", "1d", "1_000", "1.5.2", "١"})
    void numbersOutsideTheGrammarAreRefused(String text) {
        assertThatThrownBy(() -> read(text)).isInstanceOf(JsonReader.SyntaxError.class);
        assertThatThrownBy(() -> read("[" + text + "]")).isInstanceOf(JsonReader.SyntaxError.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "{", "[1,2", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{\"a\":1 \"b\":2}",
        "[1 2]", "{\"a\":1}{}", "{\"a\":1} x", "tru", "nul", "True", "{\"a\":1,\"a\":2}", "[1]]", "}", "{\"a\"}"})
    void malformedDocumentsAreRefused(String text) {
        assertThatThrownBy(() -> read(text)).isInstanceOf(JsonReader.SyntaxError.class);
    }

    @Test
    void errorsNameTheColumnAndWhatWasExpected() {
        assertThatThrownBy(() -> read("{\"a\": 1, \"b\" 2}")).hasMessage("column 14: expected ':' after the name \"b\", "
                + "found '2'");
        assertThatThrownBy(() -> read("[1, 2,]")).hasMessage("column 7: a trailing comma before ']' is not JSON");
        assertThatThrownBy(() -> read("{\"a\": 1, \"a\": 2}")).hasMessage("column 10: the name \"a\" appears twice in "
                + "one object");
        assertThatThrownBy(() -> read("[01]")).hasMessage("column 3: a number may not have a leading zero");
        assertThatThrownBy(() -> read("{\"a\": 1} x")).hasMessage("column 10: unexpected 'x' after the JSON value");
        assertThatThrownBy(() -> read("\"a\u0001\"")).hasMessage("column 3: a string may not hold the control "
                + "character U+0001 unescaped");
        JsonReader r = new JsonReader("{\"n\": \"text\"}");
        r.beginObject();
        r.nextName();
        assertThatThrownBy(r::nextDouble).hasMessage("column 7: expected a number, found a string");
    }

    @Test
    void inATextOfSeveralLinesErrorsNameTheLineAndTheColumnWithinIt() {
        String text = "{\n  \"a\": 1,\n  \"b\": [1, 2,]\n}\n";
        assertThatThrownBy(() -> read(text)).isInstanceOfSatisfying(JsonReader.SyntaxError.class, e -> {
            assertThat(e.line()).isEqualTo(3);
            assertThat(e.column()).isEqualTo(14);
        }).hasMessage("line 3, column 14: a trailing comma before ']' is not JSON");
        // one line with a final line feed is still one line
        assertThatThrownBy(() -> read("[1, 2,]\n")).hasMessage("column 7: a trailing comma before ']' is not JSON");
    }

    @Test
    void skipValueSkipsWholeObjectsAndArrays() {
        JsonReader r = new JsonReader("{\"skip\": {\"x\": [1, [2, {\"y\": null}]], \"z\": \"s\"}, \"keep\": 4}");
        r.beginObject();
        assertThat(r.nextName()).isEqualTo("skip");
        r.skipValue();
        assertThat(r.nextName()).isEqualTo("keep");
        assertThat(r.nextDouble()).isEqualTo(4);
        r.endObject();
        r.endDocument();
    }
}
