package io.dpspectra.cli.options;

import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.OutputTargets;
import io.dpspectra.cli.output.SchemaJson;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.csv.CsvRows;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.release.Bounding;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The options of the commands that apply a fitted model to rows: {@code --model FILE} and INPUT. */
public final class ModelAndInput {
    @Option(names = "--model", paramLabel = "FILE", required = true,
            description = "A JSON model written by 'dpspectra fit --output FILE'.")
    public Path model;

    @Mixin
    InputOptions input = new InputOptions();

    @Parameters(index = "0", paramLabel = "INPUT", description = "Rows: a .csv/.csv.gz file, - for standard input (CSV), or a .dpsr binary file.")
    public Path inputPath;

    /**
     * A model, and rows of the model's dimension: {@code rows} through the model's preprocessing, {@code read}
     * the same rows as read from INPUT (before any bound or centring), for what a command takes from the file
     * itself.
     */
    public record Loaded(Json.Model model, Matrix components, Inputs.Opened rows, RowSource read) {
    }

    /**
     * Checks --output before reading: a writable target (exit 2); that it is neither the model nor INPUT is
     * checked for every command before it runs ({@link OutputTargets}).
     */
    public void checkBeforeReading(OutputOption output) {
        output.checkBeforeReading();
    }

    /**
     * Reads the model and opens INPUT: through the model's recorded preprocessing (schema or CSV columns,
     * centring, bound) when it has one, which refuses a file whose columns differ, with the reading options
     * typed now in place of the recorded ones (a file laid out otherwise); else as a plain file with the CSV
     * options. A data error (exit 3) if the dimensions differ.
     */
    public Loaded load() {
        Json.Model m = Json.readModel(model);
        if (m.pipeline() != null) {
            Pipeline p = replayed(m.pipeline());
            if (!Inputs.isStdin(inputPath)) {
                Inputs.checkReadable(inputPath);
            }
            RowSource read = p.read(inputPath);
            ClippedRows rows = p.bounding(DataBounds.Origin.USER_GIVEN).apply(read);
            return new Loaded(m, m.components(), new Inputs.Opened(rows, p.features(), inputPath), read);
        }
        Inputs.Opened opened = Inputs.open(inputPath, input);
        Matrix u = m.components();
        if (opened.dimension() != u.rows()) {
            throw CliException.data(inputPath + " has " + opened.dimension() + " columns but the model has dimension "
                    + u.rows(), "select the model's columns with --columns", null);
        }
        RowSource read = opened.rows();
        if (!Double.isNaN(m.clipNorm())) {
            // a local-DP release: its subspace is that of records clipped to the clients' bound, as these rows are
            opened = new Inputs.Opened(Bounding.of(m.clipNorm(), DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN)
                    .apply(read), opened.columnNames(), inputPath);
        }
        return new Loaded(m, u, opened, read);
    }

    /**
     * The model's pipeline reading INPUT with the options typed now: --separator, --skip-lines,
     * --comment-prefix (and for a plain CSV model --header and --header-names) replace the recorded ones, so
     * that a file laid out otherwise (a title line, another separator) can be read; the columns are the
     * model's, so --columns and --exclude-columns are refused (and, with a schema, --header and --header-names).
     */
    public Pipeline replayed(Pipeline p) {
        if (input.columns != null && !input.columns.isEmpty() || input.excludeColumns != null
                && !input.excludeColumns.isEmpty()) {
            throw CliException.usage("--columns and --exclude-columns do not apply: the model " + model + " records the "
                    + "columns it was fitted on, and they are replayed on INPUT", "drop them (--separator, --skip-lines "
                    + "and --comment-prefix read a file laid out otherwise)");
        }
        if (p.schema() != null) {
            if (input.headerNames != null || input.header != CsvRows.Header.AUTO) {
                throw CliException.usage("--header and --header-names do not apply: the model " + model + " was fitted "
                        + "with a schema, which names every column", "drop them");
            }
            return p.withReading(SchemaJson.withTyped(p.schema(), input), null);
        }
        InputOptions recorded = p.csv();
        InputOptions o = new InputOptions();
        o.columns = recorded.columns;
        o.excludeColumns = recorded.excludeColumns;
        o.header = input.header != CsvRows.Header.AUTO ? input.header : recorded.header;
        o.headerNames = input.headerNames != null ? input.headerNames : recorded.headerNames;
        o.separator = input.separator != null ? input.separator : recorded.separator;
        o.skipLines = input.skipLines != 0 ? input.skipLines : recorded.skipLines;
        o.commentPrefix = input.commentPrefix != null ? input.commentPrefix : recorded.commentPrefix;
        return p.withReading(null, o);
    }
}
