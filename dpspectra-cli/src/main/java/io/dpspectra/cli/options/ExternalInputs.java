package io.dpspectra.cli.options;

import io.dpspectra.cli.output.CliException;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.PrivateBoundedMean;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.Schema;
import io.dpspectra.data.csv.CsvRows;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Where the releasing commands ({@code fit}, {@code covariance}) get INPUT from when it is not a local file
 * this CLI reads itself: a program that embeds the command line (the Spark job
 * {@code io.dpspectra.spark.DpPcaJob}) installs an {@link Opener} before running it (for {@code ldp aggregate},
 * the reports too), and everything else
 * (options, validation, the ledger, the budget plan, the private preprocessing's noise, algorithms, the
 * release JSON, --diagnostics, exit codes) stays the CLI's own.
 *
 * <p>The opener reads the rows where they lie and computes only exact statistics of them: the histogram of
 * the row norms (for {@code --clip-norm private}), the sum of the bounded rows (for {@code --center
 * private}), and the sufficient statistic the estimator reads. The CLI draws every noise on this machine
 * with core's mechanisms, so the release is the one the CLI would make from the same rows.
 */
public final class ExternalInputs {
    /**
     * How the CLI would read INPUT as a plain table: the {@code --header}, {@code --separator},
     * {@code --skip-lines} and {@code --comment-prefix} settings, and {@code configure}, which applies every
     * CSV option (these and the column selection) to a core {@link CsvRows.Builder} exactly as the CLI does.
     */
    public record Csv(CsvRows.Header header, Character separator, int skipLines, String commentPrefix,
                      UnaryOperator<CsvRows.Builder> configure) {
        public Csv {
            Objects.requireNonNull(header, "header");
            Objects.requireNonNull(configure, "configure");
        }
    }

    /**
     * How the CLI would read INPUT through a public schema ({@code --schema}): the schema, the separator
     * (0: detect it), the lines to skip, the comment prefix (null: none), and whether the schema's public
     * centres are subtracted.
     */
    public record SchemaInput(Schema schema, char separator, int skipLines, String commentPrefix, boolean centre) {
        public SchemaInput {
            Objects.requireNonNull(schema, "schema");
        }
    }

    /** What to read: INPUT as typed, and either the CSV options or the schema (exactly one is non-null). */
    public record Request(String input, Csv csv, SchemaInput schema) {
        public Request {
            Objects.requireNonNull(input, "input");
            if ((csv == null) == (schema == null)) {
                throw new IllegalArgumentException("give the CSV options or a schema, not both or neither");
            }
        }
    }

    /**
     * The rows of INPUT, read where they lie (after the schema's map, when there is one), and the exact
     * statistics the CLI asks of them. None is private by itself: the CLI privatises what it releases.
     */
    public interface Rows {
        /** The names of the d features, as the CLI names them for the same file and options. */
        List<String> columnNames();

        /**
         * The histogram of the rows' L2 norms over {@code grid}, as
         * {@link io.dpspectra.data.AdaptiveQuantile#rowNormHistogram} computes it on local rows.
         */
        long[] rowNormHistogram(double[] grid);

        /**
         * The sum and number of the rows bounded to L2 norm ≤ {@code bound} by {@code policy} (clipped, or
         * refused when above it), as {@link PrivateBoundedMean#sum} computes it on local rows.
         */
        PrivateBoundedMean.Sum boundedSum(double bound, DataBounds.Policy policy);

        /**
         * The rows the estimator reads: bounded to {@code inputBound} by {@code policy}; then, when
         * {@code mean} is not null, minus {@code mean} and clipped to {@code bound}. The result declares
         * the L2 bound {@code bound} and serves each algorithm the statistic it reads (a Gram statistic).
         */
        RowSource bounded(double inputBound, DataBounds.Policy policy, double[] mean, double bound);
    }

    /** Opens INPUT where it lies. */
    public interface Opener {
        /**
         * @throws CliException (usage) for an option this opener cannot honour, naming it and the alternative
         */
        Rows open(Request request);

        /**
         * Called before any row is read or anything is spent when {@code what} (the option as typed, e.g.
         * {@code --algorithm analyze-gauss}, or {@code covariance}) will form d x d matrices; refuses them when
         * they do not fit where this opener computes (a cluster's driver and executors). By default, nothing:
         * the CLI's own memory check follows.
         *
         * @throws io.dpspectra.release.ReleaseSettingException naming the limit and the alternative
         */
        default void checkDense(String what, int d) {
        }

        /**
         * Whether {@link #openByUnit} groups rows by a privacy unit column ({@code --privacy-unit}); when not, the
         * option is refused before anything is read.
         *
         * @return false by default
         */
        default boolean groupsByUnit() {
            return false;
        }

        /**
         * INPUT grouped by the privacy unit's column where it lies: the feature columns chosen as the CLI chooses
         * them ({@code options}: {@link io.dpspectra.release.UnitCsv#featureColumns}, each cell under
         * {@link io.dpspectra.release.UnitCsv#cell}), or the rows mapped through {@code schema}, whose column marked
         * {@code "type": "id"} is the unit's (checked by the CLI before); at most M rows kept per person by core's
         * per-person code, and the exact statistics of the persons' bounded contributions, summed as core's
         * {@link io.dpspectra.release.UnitStatistics} sums them (persons in id order).
         *
         * @param input   INPUT as typed
         * @param options the CSV options and the column selection
         * @param schema  the schema INPUT is read through, or null (then {@code options} lay it out)
         * @param unit    the unit (a column)
         * @param random  the release's random source (a seeded release draws its selection key from it)
         * @return the grouped source
         */
        default io.dpspectra.release.StatisticSource openByUnit(String input, io.dpspectra.release.UnitCsv.Options
                options, SchemaInput schema, io.dpspectra.release.PrivacyUnit unit,
                io.dpspectra.noise.RandomSource random) {
            throw unsupported("--privacy-unit is not supported by this program", "run the release with dpspectra fit");
        }

        /**
         * The average of the local-DP reports in {@code reports} (as typed), summed where they lie and checked
         * as core's {@link io.dpspectra.local.LocalPcaAggregator} checks them ({@code ldp aggregate}); null
         * when there is no report.
         *
         * @throws io.dpspectra.local.InvalidReportException for the first refused report (nothing is released)
         */
        default io.dpspectra.local.LocalAggregate aggregateReports(String reports) {
            throw unsupported("this program does not read local-DP reports", "run 'dpspectra ldp aggregate'");
        }
    }

    private static volatile Opener installed;

    private ExternalInputs() {
    }

    /** Makes {@code fit} and {@code covariance} read INPUT through {@code opener} (null: local files again). */
    public static void install(Opener opener) {
        installed = opener;
    }

    /** Whether an opener is installed (INPUT is not read by this CLI). */
    public static boolean isInstalled() {
        return installed != null;
    }

    /** The installed opener, or empty when none is installed. */
    public static Optional<Opener> installed() {
        return Optional.ofNullable(installed);
    }

    /** The installed opener's rows for {@code request}, or empty when none is installed. */
    static Optional<Rows> open(Request request) {
        Opener opener = installed;
        return opener == null ? Optional.empty() : Optional.of(opener.open(request));
    }

    /**
     * A usage error (exit 2) for an option an opener cannot honour: {@code what} names the option as the
     * user typed it, {@code instead} the alternative.
     */
    public static RuntimeException unsupported(String what, String instead) {
        return CliException.usage(what, instead);
    }
}
