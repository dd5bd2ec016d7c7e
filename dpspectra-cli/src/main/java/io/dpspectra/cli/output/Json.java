package io.dpspectra.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.dpspectra.cli.options.Inputs;
import io.dpspectra.cli.options.Pipeline;
import io.dpspectra.cli.options.PrivacyOptions;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.privacy.ComposedGuarantee;
import io.dpspectra.privacy.PrivacyGuarantee;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Translates results to and from the JSON shapes the CLI prints (no algorithm logic). */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    public static String write(Object tree) {
        try {
            return MAPPER.writeValueAsString(tree) + System.lineSeparator();
        } catch (IOException e) {
            throw new IllegalStateException("could not serialise the result to JSON: " + e.getMessage(), e);
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectWriter COMPACT = new ObjectMapper().writer();

    /** {@code tree} as JSON on one line, without indentation (for large releases). */
    static String writeCompact(Object tree) {
        try {
            return COMPACT.writeValueAsString(tree) + System.lineSeparator();
        } catch (IOException e) {
            throw new IllegalStateException("could not serialise the result to JSON: " + e.getMessage(), e);
        }
    }

    /**
     * A release's guarantee as a JSON object: one mechanism's own, or a composition's overall guarantee with
     * its rule and its parts.
     */
    static Map<String, Object> guarantee(ComposedGuarantee c) {
        if (c.rule() == ComposedGuarantee.Rule.SINGLE) {
            return guarantee(c.overall());
        }
        Map<String, Object> m = guarantee(c.overall());
        m.put("composition", c.rule().name().toLowerCase(java.util.Locale.ROOT));
        m.put("parts", c.parts().stream().map(Json::guarantee).toList());
        return m;
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

    /**
     * Parses a JSON file; a file that is not JSON is a data error (exit 3) that says where, in words, not
     * with the parser's internals.
     */
    public static JsonNode readTree(Path path, String what, String hint) {
        try {
            JsonNode root = MAPPER.readTree(path.toFile());
            if (root == null || root.isMissingNode()) {
                throw CliException.data(what + " " + path + " is empty", hint, null);
            }
            return root;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw CliException.data(what + " " + path + " is not a JSON file (" + whereItStops(e) + ")", hint, e);
        } catch (IOException e) {
            throw CliException.data("cannot read " + what + " " + path + ": " + AtomicFiles.reason(e), hint, e);
        }
    }

    /** Where a file stops being JSON, in words ("it stops being JSON at line 3, column 7"), not the parser's text. */
    static String whereItStops(com.fasterxml.jackson.core.JsonProcessingException e) {
        com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
        return at == null ? "it stops being JSON somewhere" : "it stops being JSON at line " + at.getLineNr()
                + ", column " + at.getColumnNr();
    }

    /**
     * A private spectrum behind --components auto: where it comes from, eigenvalues, trace, ratios, threshold,
     * the chosen k, and the guarantee of what it spent (the covariance release, or only the trace).
     */
    public static Map<String, Object> spectrum(io.dpspectra.covariance.PrivateSpectrum s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", s.source());
        m.put("eigenvalues", s.eigenvalues());
        m.put("units", EIGENVALUE_UNITS + " (the trace too); the ratios are unit-free");
        m.put("trace", s.trace());
        m.put("cumulativeExplainedVarianceRatio", s.ratios());
        m.put("explainedVarianceThreshold", s.threshold());
        m.put("chosenK", s.k());
        m.put("guarantee", guarantee(s.guarantee()));
        return m;
    }

    /** What eigenvalues in a release measure. */
    static final String EIGENVALUE_UNITS = "eigenvalues of XᵀX of the preprocessed rows: a sum over rows, not divided "
            + "by n";

    /**
     * Cumulative ratios (λ_1 + … + λ_k)/Σλ over the eigenvalues clamped at 0: post-processing of a release
     * that holds all d private eigenvalues (their sum is the trace of the released matrix).
     */
    public static double[] cumulativeRatios(double[] eigenvalues) {
        double t = 0;
        for (double v : eigenvalues) {
            t += Math.max(0, v);
        }
        double[] r = new double[eigenvalues.length];
        double c = 0;
        for (int i = 0; i < r.length; i++) {
            c += Math.max(0, eigenvalues[i]);
            r[i] = t > 0 ? c / t : 0;
        }
        return r;
    }

    /**
     * A model file written by {@code dpspectra fit} or {@code ldp aggregate}: its components (d × k), column
     * names, preprocessing, and for a model without one the L2 bound its rows were clipped to (a local-DP
     * release's client clip norm; NaN when none is recorded).
     */
    public record Model(Matrix components, List<String> columns, String algorithm, Pipeline pipeline, double clipNorm) {
    }

    /** Reads the components of a model file; a malformed file is a data error (exit 3). */
    public static Model readModel(Path path) {
        Inputs.checkReadable(path);
        JsonNode root = readTree(path, "model file", "pass a file written by 'dpspectra fit --output FILE'");
        if (root != null && root.has(Release.NOT_PRIVATE_KEY)) {
            throw CliException.data("model file " + path + " is a diagnostics file (facts about a run, not private), "
                    + "not a model", "pass the release written by 'dpspectra fit --output FILE'", null);
        }
        if (root != null && root.has(Release.RELEASED_KEY) && !root.get(Release.RELEASED_KEY).asBoolean(true)) {
            throw CliException.data("model file " + path + " records a refusal: nothing was released ("
                    + root.path("refusal").asText("no reason given") + ")", "fit again with more rows, a larger "
                    + "--epsilon or another --algorithm", null);
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
        Pipeline pipeline = Pipeline.fromJson(root, path);
        if (pipeline != null && pipeline.features().size() != d) {
            throw CliException.data("model file " + path + ": its preprocessing makes " + pipeline.features().size()
                    + " features but its components have dimension " + d, "the model file is damaged", null);
        }
        double clipNorm = Double.NaN;
        JsonNode pre = root.get("preprocessing");
        if (pipeline == null && pre != null && pre.isObject() && Pipeline.isLocalReports(pre)) {
            clipNorm = pre.get("clipNorm").asDouble();
            if (!(clipNorm > 0) || Double.isInfinite(clipNorm)) {
                throw CliException.data("model file " + path + ": its reports' \"clipNorm\" is "
                        + pre.get("clipNorm") + ", not a positive number", "the model file is damaged", null);
            }
        }
        Matrix u = Matrix.fromColumns(cols);
        double off = offOrthonormal(u);
        if (off > io.dpspectra.metrics.SubspaceMetrics.ORTHONORMAL_TOLERANCE) {
            throw CliException.data("model file " + path + ": its " + k + " components are not orthonormal (max |UᵀU - I| "
                    + "= " + String.format(java.util.Locale.ROOT, "%.3g", off) + ", more than the "
                    + io.dpspectra.metrics.SubspaceMetrics.ORTHONORMAL_TOLERANCE + " a released model keeps), so a "
                    + "projection onto them would mean nothing", "pass the file written by 'dpspectra fit --output "
                    + "FILE', unchanged", null);
        }
        return new Model(u, names, alg == null ? "unknown" : alg.asText(), pipeline, clipNorm);
    }

    /** max |UᵀU − I| over the entries. */
    static double offOrthonormal(Matrix u) {
        Matrix g = u.transposeTimes(u);
        double worst = 0;
        for (int i = 0; i < g.rows(); i++) {
            for (int j = 0; j < g.cols(); j++) {
                worst = Math.max(worst, Math.abs(g.get(i, j) - (i == j ? 1 : 0)));
            }
        }
        return worst;
    }
}
