package io.dpspectra.cli;

import com.fasterxml.jackson.databind.JsonNode;
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
 * "format" is optional: separator ",", ";", "tab" or "whitespace" (default: detected), skipLines
 * (default 0), commentPrefix (default none: every line is data).
 */
final class SchemaJson {
    private SchemaJson() {
    }

    /**
     * Reads {@code --schema FILE}: malformed JSON and a file that is not a schema are usage errors naming it;
     * the schema's meaning is core's ({@link SchemaFile#parse}).
     */
    static SchemaFile read(Path path) {
        Inputs.checkReadable(path);
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(path.toFile());
        } catch (IOException e) {
            throw CliException.usage("--schema " + path + " is not valid JSON: "
                    + e.getMessage().lines().findFirst().orElse(""), "fix the file, or write a skeleton with "
                    + "'dpspectra schema draft DATA'");
        }
        try {
            return parse(root);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--schema " + path + ": " + e.getMessage(),
                    "see 'dpspectra schema --help' for the format");
        }
    }

    /** A schema from its JSON tree (a --schema file, or the one a model records), by core's {@link SchemaFile#parse}. */
    static SchemaFile parse(JsonNode root) {
        return SchemaFile.parse(root == null ? "null" : root.toString());
    }

    static char separator(String s) {
        return SchemaFile.separator(s);
    }

    static String separatorName(char c) {
        return SchemaFile.separatorName(c);
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
