package io.dpspectra.cli;

import io.dpspectra.linalg.Matrix;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The options of the commands that apply a fitted model to rows: {@code --model FILE} and INPUT. */
final class ModelAndInput {
    @Option(names = "--model", paramLabel = "FILE", required = true,
            description = "A JSON model written by 'dpspectra fit --output FILE'.")
    Path model;

    @Mixin
    InputOptions input = new InputOptions();

    @Parameters(index = "0", paramLabel = "INPUT", description = "Rows: a .csv/.csv.gz file, - for standard input (CSV), or a .dpsr binary file.")
    Path inputPath;

    /** A model and rows of the model's dimension. */
    record Loaded(Json.Model model, Matrix components, Inputs.Opened rows) {
    }

    /**
     * Checks --output before reading: a writable target (exit 2); that it is neither the model nor INPUT is
     * checked for every command before it runs ({@link OutputTargets}).
     */
    void checkBeforeReading(OutputOption output) {
        output.checkBeforeReading();
    }

    /**
     * Reads the model and opens INPUT: through the model's recorded preprocessing (schema or CSV columns,
     * centring, bound) when it has one, which refuses a file whose columns differ; else as a plain file
     * with the CSV options. A data error (exit 3) if the dimensions differ.
     */
    Loaded load() {
        Json.Model m = Json.readModel(model);
        if (m.pipeline() != null) {
            if (input.columns != null && !input.columns.isEmpty()) {
                throw CliException.usage("--columns does not apply: the model " + model + " records the columns and "
                        + "preprocessing it was fitted with, and they are replayed on INPUT", "drop --columns");
            }
            Inputs.checkReadable(inputPath);
            Pipeline p = m.pipeline();
            return new Loaded(m, m.components(), new Inputs.Opened(p.apply(inputPath), p.features(), inputPath));
        }
        Inputs.Opened opened = Inputs.open(inputPath, input);
        Matrix u = m.components();
        if (opened.dimension() != u.rows()) {
            throw CliException.data(inputPath + " has " + opened.dimension() + " columns but the model has dimension "
                    + u.rows(), "select the model's columns with --columns", null);
        }
        if (!Double.isNaN(m.clipNorm())) {
            // a local-DP release: its subspace is that of records clipped to the clients' bound, as these rows are
            opened = new Inputs.Opened(Pipeline.bounded(opened.rows(), m.clipNorm(), "clip",
                    io.dpspectra.data.DataBounds.Origin.USER_GIVEN), opened.columnNames(), inputPath);
        }
        return new Loaded(m, u, opened);
    }
}
