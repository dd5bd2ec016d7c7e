package io.dpspectra.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.options.InputOptions;
import io.dpspectra.cli.options.Inputs;
import io.dpspectra.data.Schema;
import io.dpspectra.data.SchemaFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of a {@link Schema} (what {@code --schema FILE} reads and {@code schema draft} writes), read by
 * core's {@link SchemaFile} and written here:
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
public final class SchemaJson {
    /**
     * The schema's format with what the user typed instead: --separator, --skip-lines and --comment-prefix,
     * when given, override the schema's "format" (a file laid out otherwise, e.g. with a title line).
     */
    public static SchemaFile withTyped(SchemaFile s, InputOptions typed) {
        if (typed.skipLines < 0) {
            throw CliException.usage("--skip-lines must be >= 0, got " + typed.skipLines,
                    "pass the number of lines to drop");
        }
        if (typed.commentPrefix != null && typed.commentPrefix.isBlank()) {
            throw CliException.usage("--comment-prefix must be visible text, got '" + typed.commentPrefix + "'",
                    "e.g. --comment-prefix '#'");
        }
        return new SchemaFile(s.schema(), typed.separator != null ? typed.separator : s.separator(),
                typed.skipLines != 0 ? typed.skipLines : s.skipLines(),
                typed.commentPrefix != null ? typed.commentPrefix : s.commentPrefix(), s.description());
    }

    private SchemaJson() {
    }

    /**
     * Reads {@code --schema FILE}: malformed JSON and a file that is not a schema are usage errors naming it;
     * the schema's meaning is core's ({@link SchemaFile#parse}).
     */
    public static SchemaFile read(Path path) {
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

    /** A schema from its JSON tree (a --schema file, or the one a model records), by core's {@link SchemaFile#parse}. */
    public static SchemaFile parse(JsonNode root) {
        return SchemaFile.parse(root == null ? "null" : root.toString());
    }

    /** A "separator" of a schema's (or a model's) "format": "detect" (or none) is 0, detected when read. */
    public static char separator(String s) {
        return SchemaFile.separator(s);
    }

    /** The name {@link #separator(String)} reads back as {@code c}. */
    public static String separatorName(char c) {
        return SchemaFile.separatorName(c);
    }

    /** The JSON object of a schema (what the model records and {@code schema draft} writes). */
    public static Map<String, Object> toJson(Schema schema, char separator, int skipLines, String description) {
        return toJson(schema, separator, skipLines, null, description);
    }

    /** As {@link #toJson(Schema, char, int, String)}, with the comment prefix (null: none). */
    public static Map<String, Object> toJson(Schema schema, char separator, int skipLines, String commentPrefix,
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
            } else if (c instanceof Schema.Id) {
                o.put("type", "id");
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
