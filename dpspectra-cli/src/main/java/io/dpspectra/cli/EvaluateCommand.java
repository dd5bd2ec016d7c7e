package io.dpspectra.cli;

import io.dpspectra.data.GramPass;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.metrics.SubspaceMetrics;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dpspectra evaluate}: utility of a model against exact PCA of a data file. */
@Command(name = "evaluate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Measure how well a model's components U (d x k) capture INPUT, against exact PCA of INPUT "
                + "with C = XᵀX/n and V_k its top-k eigenvectors:",
                "  capturedVarianceRatio = <UUᵀ, C> / <V_kV_kᵀ, C>   (1 is perfect)",
                "  subspaceDistance      = ||UUᵀ - V_kV_kᵀ||_F        (0 is perfect)",
                "NOT private: the numbers describe INPUT exactly; use it on test or synthetic data."})
final class EvaluateCommand extends BaseCommand {
    @Option(names = "--model", paramLabel = "FILE", required = true,
            description = "A JSON model written by 'dpspectra fit --output FILE'.")
    Path model;

    @Mixin
    InputOptions input = new InputOptions();

    @Option(names = {"--output", "-o"}, paramLabel = "FILE",
            description = "Write the JSON to FILE atomically. Default: stdout.")
    Path output;

    @Parameters(index = "0", paramLabel = "INPUT", description = "Rows to evaluate on: .csv/.csv.gz or .dpsr.")
    Path inputPath;

    @Override
    public Integer call() throws Exception {
        if (output != null) {
            AtomicFiles.checkWritableTarget(output, "--output");
        }
        Json.Model m = Json.readModel(model);
        Inputs.Opened opened = Inputs.open(inputPath, input);
        Matrix u = m.components();
        if (opened.dimension() != u.rows()) {
            throw CliException.data(inputPath + " has " + opened.dimension() + " columns but the model has dimension "
                    + u.rows(), "select the model's columns with --columns", null);
        }
        long n0 = Inputs.rowCount(opened.rows());
        GramPass pass = GramPass.of(Progress.track(opened.rows(), "evaluate", n0));
        Matrix c = pass.gram().scaled(1.0 / pass.rows());
        Matrix vk = SymmetricEigen.top(c, u.cols()).vectors();

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("model", model.toString());
        json.put("modelAlgorithm", m.algorithm());
        json.put("input", inputPath.toString());
        json.put("rows", pass.rows());
        json.put("dimension", u.rows());
        json.put("k", u.cols());
        json.put("capturedVarianceRatio", SubspaceMetrics.capturedVarianceRatio(u, c));
        json.put("subspaceDistance", SubspaceMetrics.projectorDistance(u, vk));
        json.put("note", "non-private evaluation against exact PCA of the input (uncentred, C = XᵀX/n)");
        emit(Json.write(json), output);
        return ExitCodes.OK;
    }
}
