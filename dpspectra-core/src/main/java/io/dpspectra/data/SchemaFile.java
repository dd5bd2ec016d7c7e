package io.dpspectra.data;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A public {@link Schema} with the file format it declares: the JSON a schema file holds
 * ({@code docs/schemas/} ships examples, {@code dpspectra schema draft} writes a skeleton):
 * <pre>
 * {"description": "...", "format": {"separator": "whitespace", "skipLines": 0},
 *  "columns": [
 *    {"name": "age", "type": "numeric", "min": 17, "max": 90, "center": 53.5, "scale": 36.5},
 *    {"name": "sex", "type": "categorical", "categories": ["Female", "Male"]},
 *    {"name": "income", "type": "ignore"}]}
 * </pre>
 * A column of {@code "type": "id"} names the person a row belongs to, for a release whose privacy unit is that
 * column; it is never a feature.
 * "format" is optional: separator ",", ";", "tab", "whitespace" or "|" (default, or "detect": detected), skipLines (default
 * 0), commentPrefix (default none: every line is data). A column's type defaults to numeric.
 *
 * @param schema        the columns
 * @param separator     the cell separator, or 0 to detect it
 * @param skipLines     lines dropped before the header, at least 0
 * @param commentPrefix lines starting with it are ignored; null for none
 * @param description   the schema's description (provenance of its bounds), or ""
 */
public record SchemaFile(Schema schema, char separator, int skipLines, String commentPrefix, String description) {
    /**
     * Checks the schema and the format.
     *
     * @param schema        the columns
     * @param separator     the separator, or 0
     * @param skipLines     lines to skip
     * @param commentPrefix the comment prefix, or null
     * @param description   the description
     */
    public SchemaFile {
        java.util.Objects.requireNonNull(schema, "schema");
        if (skipLines < 0) {
            throw new IllegalArgumentException("format.skipLines must be >= 0, got " + skipLines);
        }
        description = description == null ? "" : description;
    }

    /**
     * Reads a schema file.
     *
     * @param file the JSON file
     * @return the schema and its format
     * @throws InvalidDataException when the file cannot be read
     * @throws IllegalArgumentException when it is not a schema (the message says where and why)
     */
    public static SchemaFile read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidDataException("cannot read the schema file " + file + ": " + e.getMessage(),
                    "check the path and its permissions");
        }
        return parse(text);
    }

    /**
     * Parses a schema from its JSON text.
     *
     * @param json the text
     * @return the schema and its format
     * @throws IllegalArgumentException when the text is not JSON or not a schema (the message says why)
     */
    public static SchemaFile parse(String json) {
        Object root = JsonTree.parse(json);
        if (!(root instanceof Map<?, ?> top) || !(top.get("columns") instanceof List<?> columns)) {
            throw new IllegalArgumentException("a schema is a JSON object with a \"columns\" array");
        }
        List<Schema.Column> cols = new ArrayList<>();
        int i = 0;
        for (Object c : columns) {
            i++;
            Map<?, ?> col = c instanceof Map<?, ?> m ? m : Map.of();
            String name = JsonTree.text(col.get("name"), null);
            if (name == null) {
                throw new IllegalArgumentException("column " + i + " has no \"name\"");
            }
            String type = JsonTree.text(col.get("type"), "numeric").toLowerCase(Locale.ROOT);
            switch (type) {
                case "numeric" -> cols.add(new Schema.Numeric(name, number(col, name, "min"), number(col, name, "max"),
                        number(col, name, "center"), number(col, name, "scale")));
                case "categorical" -> {
                    if (!(col.get("categories") instanceof List<?> values)) {
                        throw new IllegalArgumentException("categorical column \"" + name
                                + "\" needs a \"categories\" array of its public categories");
                    }
                    List<String> cats = new ArrayList<>();
                    values.forEach(v -> cats.add(JsonTree.text(v, "null")));
                    cols.add(new Schema.Categorical(name, cats));
                }
                case "ignore" -> cols.add(new Schema.Ignored(name));
                case "id" -> cols.add(new Schema.Id(name));
                default -> throw new IllegalArgumentException("column \"" + name + "\" has type \"" + type
                        + "\"; use numeric, categorical, ignore or id");
            }
        }
        Map<?, ?> format = top.get("format") instanceof Map<?, ?> f ? f : Map.of();
        char sep = separator(JsonTree.text(format.get("separator"), ""));
        int skip = JsonTree.integer(format.get("skipLines"), 0);
        if (skip < 0) {
            throw new IllegalArgumentException("format.skipLines must be >= 0, got " + skip);
        }
        Object prefix = format.get("commentPrefix");
        String comment = prefix == null || prefix == JsonTree.NULL ? null : JsonTree.text(prefix, null);
        if (comment != null && comment.isEmpty()) {
            throw new IllegalArgumentException("format.commentPrefix must not be empty; remove it for none");
        }
        return new SchemaFile(Schema.of(cols), sep, skip, comment, JsonTree.text(top.get("description"), ""));
    }

    private static Double number(Map<?, ?> col, String name, String key) {
        Object v = col.get(key);
        if (v == null || v == JsonTree.NULL) {
            return null;
        }
        if (!(v instanceof Number n)) {
            throw new IllegalArgumentException("column \"" + name + "\": \"" + key + "\" must be a number, got "
                    + JsonTree.write(v));
        }
        return n.doubleValue();
    }

    /**
     * The separator a schema's "format" names: ",", ";", "tab", "whitespace" or "|" (and their spellings), or
     * "" or "detect" to detect it.
     *
     * @param s the name
     * @return the separator, or 0 to detect it
     * @throws IllegalArgumentException for another name
     */
    public static char separator(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "", "detect" -> 0;
            case ",", "comma" -> ',';
            case ";", "semicolon" -> ';';
            case "tab", "\t" -> '\t';
            case "whitespace", " " -> ' ';
            case "|", "pipe" -> '|';
            default -> throw new IllegalArgumentException("format.separator must be \",\", \";\", \"tab\", "
                    + "\"whitespace\", \"|\" or \"detect\", got \"" + s + "\"");
        };
    }

    /**
     * The name a schema's "format" gives {@code c}: ",", ";", "tab", "whitespace", "|", or "detect" for 0.
     *
     * @param c the separator
     * @return its name
     * @throws IllegalArgumentException for a separator no name reads back as
     */
    public static String separatorName(char c) {
        return switch (c) {
            case ',' -> ",";
            case ';' -> ";";
            case '\t' -> "tab";
            case ' ' -> "whitespace";
            case '|' -> "|";
            case 0 -> "detect";
            default -> throw new IllegalArgumentException("no name for the separator '" + c + "'");
        };
    }
}
