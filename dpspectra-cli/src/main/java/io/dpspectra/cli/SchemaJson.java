package io.dpspectra.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.data.Schema;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON form of a {@link Schema} (what {@code --schema FILE} reads and {@code schema draft} writes):
 * <pre>
 * {"description": "...", "format": {"separator": "whitespace", "skipLines": 0},
 *  "columns": [
 *    {"name": "age", "type": "numeric", "min": 17, "max": 90, "center": 53.5, "scale": 36.5},
 *    {"name": "sex", "type": "categorical", "categories": ["Female", "Male"]},
 *    {"name": "income", "type": "ignore"}]}
 * </pre>
 * "format" is optional: separator ",", ";", "tab", "whitespace" or "|" (default, or "detect": detected), skipLines
 * (default 0), commentPrefix (default none: every line is data).
 */
final class SchemaJson {
    /** A schema with the file format it declares. */
    record Loaded(Schema schema, char separator, int skipLines, String commentPrefix, String description) {
        /**
         * The format with what the user typed instead: --separator, --skip-lines and --comment-prefix, when
         * given, override the schema's "format" (a file laid out otherwise, e.g. with a title line).
         */
        Loaded withTyped(InputOptions typed) {
            if (typed.skipLines < 0) {
                throw CliException.usage("--skip-lines must be >= 0, got " + typed.skipLines,
                        "pass the number of lines to drop");
            }
            if (typed.commentPrefix != null && typed.commentPrefix.isBlank()) {
                throw CliException.usage("--comment-prefix must be visible text, got '" + typed.commentPrefix + "'",
                        "e.g. --comment-prefix '#'");
            }
            return new Loaded(schema, typed.separator != null ? typed.separator : separator,
                    typed.skipLines != 0 ? typed.skipLines : skipLines,
                    typed.commentPrefix != null ? typed.commentPrefix : commentPrefix, description);
        }
    }

    private SchemaJson() {
    }

    static Loaded read(Path path) {
        Inputs.checkReadable(path);
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(path.toFile());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw CliException.usage("--schema " + path + " is not valid JSON (" + Json.whereItStops(e) + ")",
                    "fix the file, or write a skeleton with 'dpspectra schema draft DATA'");
        } catch (IOException e) {
            throw CliException.data("cannot read --schema " + path + ": " + AtomicFiles.reason(e),
                    "check the file and its permissions", e);
        }
        try {
            return parse(root);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--schema " + path + ": " + e.getMessage(),
                    "see 'dpspectra schema --help' for the format");
        }
    }

    static Loaded parse(JsonNode root) {
        if (root == null || !root.isObject() || !root.path("columns").isArray()) {
            throw new IllegalArgumentException("a schema is a JSON object with a \"columns\" array");
        }
        List<Schema.Column> cols = new ArrayList<>();
        int i = 0;
        for (JsonNode c : root.get("columns")) {
            i++;
            String name = c.path("name").asText(null);
            if (name == null) {
                throw new IllegalArgumentException("column " + i + " has no \"name\"");
            }
            String type = c.path("type").asText("numeric").toLowerCase(Locale.ROOT);
            switch (type) {
                case "numeric" -> cols.add(new Schema.Numeric(name, number(c, "min"), number(c, "max"),
                        number(c, "center"), number(c, "scale")));
                case "categorical" -> {
                    List<String> cats = new ArrayList<>();
                    if (!c.path("categories").isArray()) {
                        throw new IllegalArgumentException("categorical column \"" + name
                                + "\" needs a \"categories\" array of its public categories");
                    }
                    c.get("categories").forEach(v -> cats.add(v.asText()));
                    cols.add(new Schema.Categorical(name, cats));
                }
                case "ignore" -> cols.add(new Schema.Ignored(name));
                default -> throw new IllegalArgumentException("column \"" + name + "\" has type \"" + type
                        + "\"; use numeric, categorical or ignore");
            }
        }
        JsonNode format = root.path("format");
        char sep = separator(format.path("separator").asText(""));
        int skip = format.path("skipLines").asInt(0);
        if (skip < 0) {
            throw new IllegalArgumentException("format.skipLines must be >= 0, got " + skip);
        }
        String comment = format.hasNonNull("commentPrefix") ? format.get("commentPrefix").asText() : null;
        if (comment != null && comment.isEmpty()) {
            throw new IllegalArgumentException("format.commentPrefix must not be empty; remove it for none");
        }
        return new Loaded(Schema.of(cols), sep, skip, comment, root.path("description").asText(""));
    }

    private static Double number(JsonNode c, String key) {
        JsonNode v = c.get(key);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isNumber()) {
            throw new IllegalArgumentException("column \"" + c.path("name").asText() + "\": \"" + key
                    + "\" must be a number, got " + v);
        }
        return v.asDouble();
    }

    /** A "separator" of a schema's (or a model's) "format": "detect" (or none) is 0, detected when read. */
    static char separator(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "", "detect" -> 0;
            case "," , "comma" -> ',';
            case ";", "semicolon" -> ';';
            case "tab", "\t" -> '\t';
            case "whitespace", " " -> ' ';
            case "|", "pipe" -> '|';
            default -> throw new IllegalArgumentException("format.separator must be \",\", \";\", \"tab\", "
                    + "\"whitespace\", \"|\" or \"detect\", got \"" + s + "\"");
        };
    }

    /** The name {@link #separator(String)} reads back as {@code c}. */
    static String separatorName(char c) {
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

    /** The JSON object of a schema (what the model records and {@code schema draft} writes). */
    static Map<String, Object> toJson(Schema schema, char separator, int skipLines, String description) {
        return toJson(schema, separator, skipLines, null, description);
    }

    /** As {@link #toJson(Schema, char, int, String)}, with the comment prefix (null: none). */
    static Map<String, Object> toJson(Schema schema, char separator, int skipLines, String commentPrefix,
                                      String description) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (description != null && !description.isEmpty()) {
            m.put("description", description);
        }
        Map<String, Object> format = new LinkedHashMap<>();
        format.put("separator", separatorName(separator));
        format.put("skipLines", skipLines);
        if (commentPrefix != null) {
            format.put("commentPrefix", commentPrefix);
        }
        m.put("format", format);
        List<Map<String, Object>> cols = new ArrayList<>();
        for (Schema.Column c : schema.columns()) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("name", c.name());
            if (c instanceof Schema.Numeric n) {
                o.put("type", "numeric");
                putIfSet(o, "min", n.min());
                putIfSet(o, "max", n.max());
                putIfSet(o, "center", n.center());
                putIfSet(o, "scale", n.scale());
            } else if (c instanceof Schema.Categorical k) {
                o.put("type", "categorical");
                o.put("categories", k.categories());
            } else {
                o.put("type", "ignore");
            }
            cols.add(o);
        }
        m.put("columns", cols);
        return m;
    }

    private static void putIfSet(Map<String, Object> o, String key, Double v) {
        if (v != null) {
            o.put(key, v);
        }
    }
}
