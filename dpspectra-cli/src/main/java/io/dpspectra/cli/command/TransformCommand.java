package io.dpspectra.cli.command;

import io.dpspectra.cli.options.Inputs;
import io.dpspectra.cli.options.KeptColumns;
import io.dpspectra.cli.options.ModelAndInput;
import io.dpspectra.cli.options.OutputOption;
import io.dpspectra.cli.output.AtomicFiles;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.Progress;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code dpspectra transform}: project rows onto a model's components (post-processing). */
@Command(name = "transform", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Project every row x of INPUT onto the components U of a model written by 'dpspectra fit' "
                + "(or 'ldp aggregate') and print the k coordinates Uᵀx as CSV (header pc1..pck). Post-processing of "
                + "the model: spends no privacy budget, but the output describes the rows of INPUT. The model's "
                + "recorded preprocessing (schema or CSV columns, centring by the released mean, row-norm bound) is "
                + "replayed on INPUT first, and a file with other columns is refused; --separator, --skip-lines and "
                + "--comment-prefix read a file laid out otherwise (e.g. --skip-lines 1 for a title line).")
public final class TransformCommand extends BaseCommand {
    @Mixin
    ModelAndInput modelAndInput = new ModelAndInput();

    @Option(names = "--keep-columns", split = ",", paramLabel = "COL",
            description = "Copy these columns of INPUT (header names or 1-based numbers, comma-separated) unchanged "
                    + "into the output, before the coordinates, e.g. --keep-columns label to colour a plot by it. "
                    + "They are INPUT's own cells, as text: like the coordinates, they describe INPUT's rows.")
    List<String> keepColumns;

    @Mixin
    OutputOption output = new OutputOption();

    @Override
    public Integer call() throws Exception {
        modelAndInput.checkBeforeReading(output);
        ModelAndInput.Loaded loaded = modelAndInput.load();
        Json.Model m = loaded.model();
        // a progress bar per pass on a terminal, for large inputs
        RowSource rows = Progress.track(loaded.rows().rows(), "transform");
        Matrix u = loaded.components();
        KeptColumns kept = keepColumns == null || keepColumns.isEmpty() ? null
                : KeptColumns.of(modelAndInput.inputPath, loaded.read(), keepColumns, "--keep-columns");
        if (output.file == null) {
            // stdout cannot be rolled back: check every row before printing the first coordinate
            Inputs.validate(rows);
            Writer w = out();
            write(rows, u, kept, w);
            w.flush();
        } else {
            AtomicFiles.write(output.file, o -> {
                Writer w = new BufferedWriter(new OutputStreamWriter(o, StandardCharsets.UTF_8));
                write(rows, u, kept, w);
                w.flush();
            });
        }
        return ExitCodes.OK;
    }

    private static void write(RowSource rows, Matrix u, KeptColumns kept, Writer w) throws IOException {
        int k = u.cols();
        StringBuilder sb = new StringBuilder();
        if (kept != null) {
            kept.names().forEach(n -> sb.append(KeptColumns.quoted(n)).append(','));
        }
        for (int j = 1; j <= k; j++) {
            sb.append(j > 1 ? "," : "").append("pc").append(j);
        }
        w.write(sb.append('\n').toString());
        double[] row = new double[u.rows()];
        try (RowCursor cursor = rows.open(); KeptColumns.Lines lines = kept == null ? null : kept.open()) {
            while (cursor.next(row)) {
                double[] y = u.transposeTimes(row);
                sb.setLength(0);
                if (lines != null) {
                    lines.cellsOf(cursor.line()).forEach(c -> sb.append(c).append(','));
                }
                for (int j = 0; j < k; j++) {
                    sb.append(j > 0 ? "," : "").append(y[j]);
                }
                w.write(sb.append('\n').toString());
            }
        }
    }
}
