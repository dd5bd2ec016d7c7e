package io.dpspectra.cli;

import io.dpspectra.data.GramPass;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.metrics.SubspaceMetrics;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code dpspectra evaluate}: utility of a model against exact PCA of a data file. */
@Command(name = "evaluate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Measure how well a model's components U (d x k) capture INPUT against exact PCA of INPUT (NOT "
                + "private: for test or synthetic data).",
                "With C = XᵀX/n of INPUT and V_k its top-k eigenvectors:",
                "  capturedVarianceRatio = <UUᵀ, C> / <V_kV_kᵀ, C>   (1 is perfect)",
                "  subspaceDistance      = ||UUᵀ - V_kV_kᵀ||_F        (0 is perfect)",
                "INPUT goes through the model's recorded preprocessing (schema, centring, bound) first.",
                "NOT private: the numbers describe INPUT exactly; use it on test or synthetic data."})
final class EvaluateCommand extends BaseCommand {
    @Mixin
    ModelAndInput modelAndInput = new ModelAndInput();

    @Mixin
    OutputOption output = new OutputOption();

    @Override
    public Integer call() throws Exception {
        modelAndInput.checkBeforeReading(output);
        ModelAndInput.Loaded loaded = modelAndInput.load();
        Json.Model m = loaded.model();
        Inputs.Opened opened = loaded.rows();
        Matrix u = loaded.components();
        MemoryCheck.checkDense("evaluate (exact PCA of INPUT)", u.rows(), Runtime.getRuntime().maxMemory());
        GramPass pass = GramPass.of(Progress.track(opened.rows(), "evaluate"));
        Matrix c = pass.gram().scaled(1.0 / pass.rows());
        Matrix vk = SymmetricEigen.top(c, u.cols()).vectors();

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("model", modelAndInput.model.toString());
        json.put("modelAlgorithm", m.algorithm());
        json.put("input", modelAndInput.inputPath.toString());
        json.put("rows", pass.rows());
        json.put("dimension", u.rows());
        json.put("k", u.cols());
        json.put("capturedVarianceRatio", SubspaceMetrics.capturedVarianceRatio(u, c));
        json.put("subspaceDistance", SubspaceMetrics.projectorDistance(u, vk));
        json.put("note", "non-private evaluation against exact PCA of the input after the model's preprocessing "
                + "(C = XᵀX/n of the preprocessed rows; uncentred unless the model centres)");
        emit(Json.write(json), output.file);
        return ExitCodes.OK;
    }
}
