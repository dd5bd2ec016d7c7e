package io.dpspectra.cli.command;

import io.dpspectra.cli.options.Inputs;
import io.dpspectra.cli.options.ModelAndInput;
import io.dpspectra.cli.options.OutputOption;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.Progress;
import io.dpspectra.data.GramPass;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.metrics.RawVarianceCapture;
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
                "raw: the same release against exact PCA of INPUT's raw selected columns (centred, and z-scored), "
                        + "and what the preprocessing itself kept of them: a preprocessing that destroyed the signal "
                        + "scores well above and badly here.",
                "NOT private: the numbers describe INPUT exactly; use it on test or synthetic data."})
public final class EvaluateCommand extends BaseCommand {
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
        if (m.pipeline() != null && !Inputs.isStdin(modelAndInput.inputPath)) {
            MemoryCheck.checkDense("evaluate (raw columns)", 2 * u.rows() + 1, Runtime.getRuntime().maxMemory());
            RawVarianceCapture raw = RawVarianceCapture.of(modelAndInput.replayed(m.pipeline())
                    .readRaw(modelAndInput.inputPath), opened.rows(), u);
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("capturedVarianceCentred", raw.centred());
            r.put("capturedVarianceZScored", raw.zScored());
            r.put("preprocessingKeptCentred", raw.keptCentred());
            r.put("preprocessingKeptZScored", raw.keptZScored());
            r.put("note", "against exact PCA of the raw selected columns, centred (and z-scored): the share of their "
                    + "variance that the best linear reconstruction from the release's k scores explains, over what "
                    + "the top-k principal-component scores explain (1 = as good as exact PCA of the raw data); "
                    + "preprocessingKept is the same for exact PCA of the preprocessed rows, i.e. what the "
                    + "preprocessing itself kept. Not private.");
            json.put("raw", r);
        }
        emit(Json.write(json), output.file);
        return ExitCodes.OK;
    }
}
