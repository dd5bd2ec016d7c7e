package io.dpspectra.cli;

import io.dpspectra.data.RowCursor;
import io.dpspectra.linalg.Matrix;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code dpspectra transform}: project rows onto a model's components (post-processing). */
@Command(name = "transform", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Project every row x of INPUT onto the components U of a model written by 'dpspectra fit' "
                + "and print the k coordinates Uᵀx as CSV (header pc1..pck). Post-processing of the model: "
                + "spends no privacy budget, but the output describes the rows of INPUT. The model's recorded "
                + "preprocessing (schema or CSV columns, centring by the released mean, row-norm bound) is replayed "
                + "on INPUT first, and a file with other columns is refused.")
final class TransformCommand extends BaseCommand {
    @Mixin
    ModelAndInput modelAndInput = new ModelAndInput();

    @Mixin
    OutputOption output = new OutputOption();

    @Override
    public Integer call() throws Exception {
        output.checkBeforeReading();
        ModelAndInput.Loaded loaded = modelAndInput.load();
        Json.Model m = loaded.model();
        Inputs.Opened opened = loaded.rows();
        Matrix u = loaded.components();
        if (output.file == null) {
            // stdout cannot be rolled back: check every row before printing the first coordinate
            Inputs.validate(opened.rows());
            Writer w = out();
            write(opened, u, w);
            w.flush();
        } else {
            AtomicFiles.write(output.file, o -> {
                Writer w = new BufferedWriter(new OutputStreamWriter(o, StandardCharsets.UTF_8));
                write(opened, u, w);
                w.flush();
            });
        }
        return ExitCodes.OK;
    }

    private static void write(Inputs.Opened opened, Matrix u, Writer w) throws IOException {
        int k = u.cols();
        StringBuilder sb = new StringBuilder();
        for (int j = 1; j <= k; j++) {
            sb.append(j > 1 ? "," : "").append("pc").append(j);
        }
        w.write(sb.append('\n').toString());
        double[] row = new double[u.rows()];
        try (RowCursor cursor = opened.rows().open()) {
            while (cursor.next(row)) {
                double[] y = u.transposeTimes(row);
                sb.setLength(0);
                for (int j = 0; j < k; j++) {
                    sb.append(j > 0 ? "," : "").append(y[j]);
                }
                w.write(sb.append('\n').toString());
            }
        }
    }
}
