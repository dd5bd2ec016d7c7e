package io.dpspectra.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.privacy.PrivacyGuarantee;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Translates results to and from the JSON shapes the CLI prints (no algorithm logic). */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    static String write(Object tree) {
        try {
            return MAPPER.writeValueAsString(tree) + System.lineSeparator();
        } catch (IOException e) {
            throw new IllegalStateException("could not serialise the result to JSON: " + e.getMessage(), e);
        }
    }

    /** The guarantee as a JSON object, or null for a non-private result. */
    static Map<String, Object> guarantee(PrivacyGuarantee g) {
        if (g == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("epsilon", g.epsilon());
        m.put("delta", g.delta());
        m.put("neighbouring", PrivacyOptions.cliName(g.neighbouring()));
        m.put("mechanism", g.mechanism());
        m.put("sensitivity", g.sensitivity());
        m.put("privacyUnit", g.privacyUnit());
        m.put("reference", g.reference());
        return m;
    }

    /** Column j of m as an array, for j = 0..cols−1. */
    static List<double[]> columns(Matrix m) {
        List<double[]> cols = new ArrayList<>(m.cols());
        for (int j = 0; j < m.cols(); j++) {
            cols.add(m.column(j));
        }
        return cols;
    }

    /** A model file written by {@code dpspectra fit}: its components (d × k) and column names. */
    record Model(Matrix components, List<String> columns, String algorithm) {
    }

    /** Reads the components of a model file; a malformed file is a data error (exit 3). */
    static Model readModel(Path path) {
        Inputs.checkReadable(path);
        JsonNode root;
        try {
            root = MAPPER.readTree(path.toFile());
        } catch (IOException e) {
            throw CliException.data("model file " + path + " is not valid JSON: " + e.getMessage().lines().findFirst().orElse(""),
                    "pass a file written by 'dpspectra fit --output FILE'", e);
        }
        if (root != null && root.has(Release.NOT_PRIVATE_KEY)) {
            throw CliException.data("model file " + path + " is a diagnostics file (facts about a run, not private), "
                    + "not a model", "pass the release written by 'dpspectra fit --output FILE'", null);
        }
        JsonNode comps = root == null ? null : root.get("components");
        if (comps == null || !comps.isArray() || comps.size() == 0) {
            throw CliException.data("model file " + path + " has no \"components\" array",
                    "pass a file written by 'dpspectra fit --output FILE'", null);
        }
        int k = comps.size();
        int d = -1;
        double[][] cols = new double[k][];
        for (int j = 0; j < k; j++) {
            JsonNode c = comps.get(j);
            if (!c.isArray() || c.size() == 0 || (d >= 0 && c.size() != d)) {
                throw CliException.data("model file " + path + ": component " + (j + 1)
                        + " is not an array of the same length as component 1", "the model file is damaged", null);
            }
            d = c.size();
            cols[j] = new double[d];
            for (int i = 0; i < d; i++) {
                JsonNode v = c.get(i);
                if (!v.isNumber() || !Double.isFinite(v.asDouble())) {
                    throw CliException.data("model file " + path + ": component " + (j + 1) + " entry " + (i + 1)
                            + " is not a finite number", "the model file is damaged", null);
                }
                cols[j][i] = v.asDouble();
            }
        }
        List<String> names = new ArrayList<>();
        JsonNode columns = root.get("columns");
        if (columns != null && columns.isArray() && columns.size() == d) {
            columns.forEach(n -> names.add(n.asText()));
        } else {
            names.addAll(Inputs.genericNames(d));
        }
        JsonNode alg = root.get("algorithm");
        return new Model(Matrix.fromColumns(cols), names, alg == null ? "unknown" : alg.asText());
    }
}
