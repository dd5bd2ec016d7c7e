package io.dpspectra.cli;

import io.dpspectra.data.CsvRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.RowSource;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Where the releasing commands ({@code fit}, {@code covariance}) get INPUT from when it is not a local file
 * this CLI reads itself: a program that embeds the command line (the Spark job
 * {@code io.dpspectra.spark.DpPcaJob}) installs an {@link Opener} before running it, and everything else
 * (options, validation, algorithms, the release JSON, --diagnostics, exit codes) stays the CLI's own.
 */
public final class ExternalInputs {
    /** Rows of width d and their column names. */
    public record Source(RowSource rows, List<String> columnNames) {
        public Source {
            Objects.requireNonNull(rows, "rows");
            Objects.requireNonNull(columnNames, "columnNames");
        }
    }

    /** Opens INPUT as rows that satisfy {@code bounds} (the user's --clip-norm or --norm-bound). */
    public interface Opener {
        /**
         * @param input   INPUT as the user typed it (a path or URI)
         * @param columns the --columns selection (names or 1-based indices), or null for all
         * @param header  the --header setting
         * @param bounds  the user's row bound and policy, which the returned rows must satisfy
         */
        Source open(String input, List<String> columns, CsvRows.Header header, DataBounds bounds);
    }

    private static volatile Opener installed;

    private ExternalInputs() {
    }

    /** Makes {@code fit} and {@code covariance} read INPUT through {@code opener} (null: local files again). */
    public static void install(Opener opener) {
        installed = opener;
    }

    /** Whether an opener is installed (INPUT is not read by this CLI). */
    static boolean isInstalled() {
        return installed != null;
    }

    /**
     * The installed opener's rows for INPUT, or empty when none is installed; {@code bounds} is asked only
     * when one is (it refuses a bound that needs the rows on this machine first).
     */
    static Optional<Inputs.Opened> open(java.nio.file.Path input, InputOptions options, Supplier<DataBounds> bounds) {
        Opener opener = installed;
        if (opener == null) {
            return Optional.empty();
        }
        if (options.excludeColumns != null && !options.excludeColumns.isEmpty() || options.headerNames != null
                || options.separator != null || options.skipLines != 0 || options.commentPrefix != null) {
            throw CliException.usage("this input is read by Spark, which takes --columns and --header only (not "
                    + "--exclude-columns, --header-names, --separator, --skip-lines or --comment-prefix)",
                    "select the columns with --columns, or prepare the file as a plain comma-separated CSV or Parquet");
        }
        Source s = opener.open(input.toString(), options.columns, options.header, bounds.get());
        return Optional.of(new Inputs.Opened(s.rows(), s.columnNames(), input));
    }
}
