package io.dpspectra.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.options.Inputs;
import io.dpspectra.cli.options.OutputOption;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.Release;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.result.CovarianceRidge;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code dpspectra ridge}: ridge regression of one column on the others from a released covariance. */
@Command(name = "ridge", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Fit ridge regression of one column (--target) on all the others from a covariance file "
                + "written by 'dpspectra covariance' (Amin et al. 2019, Section 1.1): the weights minimise "
                + "||X'w - y||^2 + alpha*||w||^2, i.e. w = (A + alpha*I)^-1 b from the released matrix alone.",
                "Post-processing of the release: spends no further privacy budget, for any number of targets "
                        + "and alphas. With --rows N the Section 1.1 objective (1/n) sum 1/2 (w'x - y)^2 + "
                        + "alpha*||w||^2 is used instead (w = (A + 2*alpha*n*I)^-1 b)."},
        footer = {"", "Example: dpspectra covariance --algorithm ad --epsilon 1 --clip-norm 1 -o cov.json data.csv",
                "         dpspectra ridge --covariance cov.json --target quality --alpha 10"})
public final class RidgeCommand extends BaseCommand {
    @Option(names = "--covariance", paramLabel = "FILE", required = true,
            description = "A JSON covariance release written by 'dpspectra covariance --output FILE'.")
    Path covariance;

    @Option(names = "--target", paramLabel = "COLUMN", required = true,
            description = "The column to predict: its name in the release's \"columns\", or its 1-based index.")
    String target;

    @Option(names = "--alpha", paramLabel = "A", required = true,
            description = "The ridge regulariser alpha >= 0.")
    double alpha;

    @Option(names = "--rows", paramLabel = "N",
            description = "Use Amin et al.'s Section 1.1 scaling with the public number of rows N (optional).")
    Long rows;

    @Mixin
    OutputOption output = new OutputOption();

    @Override
    public Integer call() throws Exception {
        if (!(alpha >= 0) || !Double.isFinite(alpha)) {
            throw CliException.usage("--alpha must be >= 0 and finite, got " + alpha, "pass e.g. --alpha 10");
        }
        if (rows != null && rows < 1) {
            throw CliException.usage("--rows must be >= 1, got " + rows, "pass the public number of rows");
        }
        output.checkBeforeReading();
        Inputs.checkReadable(covariance);
        JsonNode root = Json.readTree(covariance, "covariance file", "pass a file written by 'dpspectra covariance'");
        if (root != null && root.has(Release.NOT_PRIVATE_KEY)) {
            throw CliException.data("covariance file " + covariance + " is a diagnostics file (facts about a run, "
                    + "not private), not a release", "pass the release written by 'dpspectra covariance --output FILE'",
                    null);
        }
        Matrix c = readMatrix(root);
        int d = c.rows();
        List<String> names = new ArrayList<>();
        JsonNode cols = root.get("columns");
        for (int j = 0; j < d; j++) {
            names.add(cols != null && cols.isArray() && cols.size() == d ? cols.get(j).asText() : "x" + (j + 1));
        }
        int t = resolveTarget(names);
        CovarianceRidge model = rows == null ? CovarianceRidge.fit(c, t, alpha, CovarianceRidge.Scaling.APPENDIX_C2, 0)
                : CovarianceRidge.fit(c, t, alpha, CovarianceRidge.Scaling.SECTION_1_1, rows);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target", names.get(t));
        m.put("alpha", alpha);
        m.put("scaling", model.scaling() == CovarianceRidge.Scaling.APPENDIX_C2
                ? "||X'w - y||^2 + alpha*||w||^2" : "(1/n) sum 1/2 (w'x - y)^2 + alpha*||w||^2, n = " + rows);
        Map<String, Object> weights = new LinkedHashMap<>();
        double[] w = model.weights();
        int[] f = model.features();
        for (int j = 0; j < f.length; j++) {
            weights.put(names.get(f[j]), w[j]);
        }
        m.put("weights", weights);
        m.put("source", Map.of("file", covariance.toString(),
                "algorithm", root.path("algorithm").asText("unknown")));
        if (root.has("guarantee")) {
            m.put("guarantee", Json.MAPPER.convertValue(root.get("guarantee"), Object.class));
        }
        m.put("note", "post-processing of the covariance release: no further privacy budget is spent");
        if (model.droppedDirections() > 0) {
            m.put("droppedDirections", model.droppedDirections());
            warn("the regularised matrix is singular in " + model.droppedDirections()
                    + " direction(s); a pseudo-inverse was used (raise --alpha)");
        }
        emit(Json.write(m), output.file);
        return ExitCodes.OK;
    }

    private Matrix readMatrix(JsonNode root) {
        JsonNode mat = root == null ? null : root.get("matrix");
        if (mat == null || !mat.isArray() || mat.size() < 2) {
            throw CliException.data("covariance file " + covariance + " has no \"matrix\" of at least 2 rows",
                    "pass a file written by 'dpspectra covariance --output FILE'", null);
        }
        int d = mat.size();
        Matrix c = new Matrix(d, d);
        for (int i = 0; i < d; i++) {
            JsonNode row = mat.get(i);
            if (!row.isArray() || row.size() != d) {
                throw CliException.data("covariance file " + covariance + ": matrix row " + (i + 1) + " has "
                        + row.size() + " entries, expected " + d, "the matrix must be square", null);
            }
            for (int j = 0; j < d; j++) {
                JsonNode v = row.get(j);
                if (!v.isNumber() || !Double.isFinite(v.asDouble())) {
                    throw CliException.data("covariance file " + covariance + ": matrix entry (" + (i + 1) + ", "
                            + (j + 1) + ") is not a finite number", "pass an unmodified release", null);
                }
                c.set(i, j, v.asDouble());
            }
        }
        return c;
    }

    private int resolveTarget(List<String> names) {
        int idx = names.indexOf(target);
        if (idx >= 0) {
            return idx;
        }
        try {
            int i = Integer.parseInt(target.trim());
            if (i >= 1 && i <= names.size()) {
                return i - 1;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw CliException.usage("--target '" + target + "' is neither a column of the release " + names
                + " nor a 1-based index in [1, " + names.size() + "]", "pass a column name or index");
    }
}
