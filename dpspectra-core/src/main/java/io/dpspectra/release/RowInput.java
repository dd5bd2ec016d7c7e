package io.dpspectra.release;

import io.dpspectra.data.RowSource;
import io.dpspectra.data.SchemaFile;
import io.dpspectra.data.csv.SchemaRows;
import io.dpspectra.data.csv.CsvRows;
import io.dpspectra.noise.RandomSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where a release's rows come from, opened only when the release has planned its budget and is about to
 * read: a local file, rows in memory, or (implemented by dpspectra-spark) a dataset on a cluster. Opening
 * applies the public schema, when there is one, where the rows lie; the opened {@link StatisticSource}
 * computes the exact statistics the release asks for.
 */
public interface RowInput {
    /**
     * How the release will read the rows, known before it opens them.
     *
     * @param schema        the public schema and its file format, or null for numeric rows as they are
     * @param publicCentres whether the schema's public centres are subtracted (any centring but none)
     * @param readsOnce     whether the release reads the rows exactly once (no private bound or mean, an
     *                      estimator of one pass that asks no n first): a stream need then not be kept for a
     *                      second pass
     * @param unit          the privacy unit: one row, or the rows of one person, grouped by a column
     * @param random        the release's source, for the random selection of a person's rows (null for one row)
     */
    record Request(SchemaFile schema, boolean publicCentres, boolean readsOnce, PrivacyUnit unit, RandomSource random) {
        /**
         * Checks the unit.
         *
         * @param schema        the schema, or null
         * @param publicCentres whether public centres are subtracted
         * @param readsOnce     whether the rows are read once
         * @param unit          the privacy unit
         * @param random        the source, or null
         */
        public Request {
            Objects.requireNonNull(unit, "unit");
        }

        /**
         * A request with one row as the unit.
         *
         * @param schema        the schema, or null
         * @param publicCentres whether public centres are subtracted
         * @param readsOnce     whether the rows are read once
         */
        public Request(SchemaFile schema, boolean publicCentres, boolean readsOnce) {
            this(schema, publicCentres, readsOnce, PrivacyUnit.ROW, null);
        }

        /**
         * Refuses a unit other than one row, for an input without a column to group by.
         *
         * @param what the input, for the message
         */
        public void requireRowUnit(String what) {
            if (!unit.isRow()) {
                throw new ReleaseSettingException(what + " have no column naming the person, so the privacy unit "
                        + unit + " cannot be grouped", "open a CSV file with RowInput.csv, or rows with their ids "
                        + "with RowInput.byUnit");
            }
        }
    }

    /**
     * Opens the rows for one release.
     *
     * @param request how they will be read
     * @return the source of their statistics
     */
    StatisticSource open(Request request);

    /**
     * Whether the rows may be opened once more before the release, to count them ({@link
     * StatisticSource#rowCount}) for planning: true for files, rows in memory and a cluster's dataset; false
     * for a stream read once (standard input), which then plans without n.
     *
     * @return true when a count before the release is possible
     */
    default boolean countable() {
        return true;
    }

    /**
     * Numeric rows as they are (a schema is refused), named x1..xd.
     *
     * @param rows the rows, each one contribution
     * @return the input
     */
    static RowInput of(RowSource rows) {
        return of(rows, genericNames(rows.dimension()));
    }

    /**
     * Numeric rows as they are (a schema is refused).
     *
     * @param rows  the rows, each one contribution
     * @param names the names of the d features
     * @return the input
     */
    static RowInput of(RowSource rows, List<String> names) {
        Objects.requireNonNull(rows, "rows");
        List<String> features = List.copyOf(names);
        return request -> {
            request.requireRowUnit("numeric rows");
            if (request.schema() != null) {
                throw new ReleaseSettingException("a schema maps the text cells of a file, but these rows are "
                        + "already numbers", "open the file through RowInput.csv, or drop the schema");
            }
            return RowStatistics.of(rows, features);
        };
    }

    /**
     * A local CSV file (or any text table with a schema): through the schema and its format when the release
     * has one, else as a numeric CSV with a header detected and every column used. With a person as the privacy
     * unit, the rows are grouped by the unit's column: a header column (every other column a feature), or the
     * column the schema marks {@code "type": "id"} ({@link UnitCsv#checkSchema}: the schema and the unit agree).
     *
     * @param file the file
     * @return the input
     */
    static RowInput csv(Path file) {
        return csv(file, GroupingMemory.defaults());
    }

    /**
     * A local CSV file, as {@link #csv(Path)}, whose grouping by a privacy unit column holds at most
     * {@code memory} and spills beyond it to its directory ({@link UnitStatistics}); the memory does not matter for
     * one row as the unit.
     *
     * @param file   the file
     * @param memory the grouping's memory and spill directory
     * @return the input
     */
    static RowInput csv(Path file, GroupingMemory memory) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(memory, "memory");
        return request -> {
            SchemaFile s = request.schema();
            if (!request.unit().isRow()) {
                return s == null ? UnitCsv.read(file, UnitCsv.Options.DEFAULT, request.unit(), request.random(), memory)
                        : UnitCsv.read(SchemaRows.open(file, s.schema(), request.publicCentres(), s.separator(),
                                s.skipLines(), s.commentPrefix()), request.unit(), request.random(), memory);
            }
            if (s == null) {
                CsvRows rows = CsvRows.builder(file).build();
                return RowStatistics.of(rows, rows.columnNames());
            }
            SchemaRows rows = SchemaRows.open(file, s.schema(), request.publicCentres(), s.separator(), s.skipLines(),
                    s.commentPrefix());
            return RowStatistics.of(rows, s.schema().featureNames()).clampedCells(rows::clampedCells);
        };
    }

    /**
     * Numeric rows with the id of the person each belongs to, for a release whose privacy unit is the person
     * ({@link PrivatePca#privacyUnit}); with one row as the unit the ids are refused rather than ignored.
     *
     * @param rows  the rows
     * @param ids   the person of each row, in the rows' order
     * @param names the names of the d features
     * @return the input
     */
    static RowInput byUnit(RowSource rows, List<String> ids, List<String> names) {
        Objects.requireNonNull(rows, "rows");
        List<String> idList = List.copyOf(ids);
        List<String> features = List.copyOf(names);
        return request -> {
            if (request.unit().isRow()) {
                throw new ReleaseSettingException("rows with person ids need a privacy unit",
                        "set one, e.g. privacyUnit(PrivacyUnit.column(\"person\", 10))");
            }
            if (request.schema() != null) {
                throw new ReleaseSettingException("a schema maps the text cells of a file, but these rows are "
                        + "already numbers", "drop the schema");
            }
            return UnitStatistics.of(rows, idList, features, request.unit(), request.random());
        };
    }

    /**
     * x1, …, xd.
     *
     * @param d the width
     * @return the names
     */
    static List<String> genericNames(int d) {
        List<String> names = new ArrayList<>(d);
        for (int i = 1; i <= d; i++) {
            names.add("x" + i);
        }
        return names;
    }
}
