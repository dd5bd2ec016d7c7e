package io.dpspectra.release;

import io.dpspectra.data.CellText;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.Schema;
import io.dpspectra.data.csv.CsvRows;
import io.dpspectra.data.csv.SchemaRows;
import io.dpspectra.noise.RandomSource;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Reads a CSV file (or .csv.gz) whose columns include a privacy unit column and groups its rows by it, in memory or,
 * when the kept rows outgrow the {@link GroupingMemory}, by an external sort on disk ({@link UnitStatistics}): the
 * project's CSV reader ({@link CsvRows}, every reading option, message and line number
 * of a row-level read) with the unit's column as its {@link CsvRows.Builder#idColumn id column}, whose cells are ids
 * (any text), read for grouping only; the features are every other column (or the ones selected), numbers. Rows of
 * one person need not be adjacent. Every cell is checked while the file is read, before any noise.
 */
public final class UnitCsv {
    /**
     * How the file is read: the options of a row-level CSV read.
     *
     * @param separator      the separator, or null to detect it
     * @param columns        the feature columns (header names, 1-based numbers or ranges), or null for every column but
     *                       the unit's
     * @param excludeColumns feature columns to leave out (as {@code columns}), or null
     * @param commentPrefix  lines starting with it are skipped, or null
     * @param skipLines      lines skipped before the header
     * @param header         whether the first line is a header: with the unit named by the header, AUTO means
     *                       present; with {@code headerNames}, as for a row-level read
     * @param headerNames    names for the file's columns in file order, or null for the header's
     */
    public record Options(Character separator, List<String> columns, List<String> excludeColumns,
                          String commentPrefix, int skipLines, CsvRows.Header header, List<String> headerNames) {
        /** Detected separator, every column but the unit's, no comments, nothing skipped, the header's names. */
        public static final Options DEFAULT = new Options(null, null, null, null, 0);

        /**
         * Options for a file with a header.
         *
         * @param separator      the separator, or null to detect it
         * @param columns        the feature columns, or null for every column but the unit's
         * @param excludeColumns feature columns to leave out, or null
         * @param commentPrefix  the comment prefix, or null
         * @param skipLines      lines skipped before the header
         */
        public Options(Character separator, List<String> columns, List<String> excludeColumns, String commentPrefix,
                       int skipLines) {
            this(separator, columns, excludeColumns, commentPrefix, skipLines, CsvRows.Header.AUTO, null);
        }

        /**
         * Sets these options on a reader's builder.
         *
         * @param b the builder
         * @return {@code b}
         */
        public CsvRows.Builder configure(CsvRows.Builder b) {
            b.header(header == null ? CsvRows.Header.AUTO : header).skipLines(skipLines).commentPrefix(commentPrefix)
                    .headerNames(headerNames).excludeColumns(excludeColumns);
            if (separator != null) {
                b.separator(separator);
            }
            if (columns != null && !columns.isEmpty()) {
                b.columns(columns);
            }
            return b;
        }
    }

    private UnitCsv() {
    }

    /**
     * Reads and groups {@code file} in {@link GroupingMemory#defaults()}.
     *
     * @param file    the file, with a header line (or {@code headerNames})
     * @param options how it is read
     * @param unit    the unit, naming a column
     * @param random  the source of the random selection of a person's rows
     * @return the grouped rows
     * @throws ReleaseSettingException when the unit column is missing or selected as a feature, or the default spill
     *                                 directory cannot hold the spill files
     * @throws InvalidDataException    for a malformed line or cell, an empty id, or no rows
     * @throws SpillException          when the spill files cannot be written or read (a full disk)
     */
    public static UnitStatistics read(Path file, Options options, PrivacyUnit unit, RandomSource random) {
        return read(file, options, unit, random, GroupingMemory.defaults());
    }

    /**
     * Reads and groups {@code file}: in memory while the kept rows fit in {@code memory}, else by an external sort in
     * its spill directory ({@link UnitStatistics}); the spill files are deleted on every error.
     *
     * @param file    the file, with a header line (or {@code headerNames})
     * @param options how it is read
     * @param unit    the unit, naming a column
     * @param random  the source of the random selection of a person's rows
     * @param memory  the memory the grouping may hold, and where it spills beyond it
     * @return the grouped rows
     * @throws ReleaseSettingException when the unit column is missing or selected as a feature, or the spill
     *                                 directory cannot hold the spill files
     * @throws InvalidDataException    for a malformed line or cell, an empty id, or no rows
     * @throws SpillException          when the spill files cannot be written or read (a full disk)
     */
    public static UnitStatistics read(Path file, Options options, PrivacyUnit unit, RandomSource random,
                                      GroupingMemory memory) {
        return read(open(file, options, unit), unit, random, memory);
    }

    /**
     * Groups the rows of a source opened with the unit's column as its id column ({@link #open}), in one pass.
     *
     * @param rows   the rows, with their ids
     * @param unit   the unit
     * @param random the source of the random selection of a person's rows
     * @param memory the memory the grouping may hold, and where it spills beyond it
     * @return the grouped rows
     * @throws ReleaseSettingException when the spill directory cannot hold the spill files
     * @throws InvalidDataException    for a malformed line or cell, an empty id, or no rows
     * @throws SpillException          when the spill files cannot be written or read (a full disk)
     */
    public static UnitStatistics read(CsvRows rows, PrivacyUnit unit, RandomSource random, GroupingMemory memory) {
        // a builder that was not built (a data error) deletes its spill files when closed
        try (UnitStatistics.Builder b = UnitStatistics.builder(unit, rows.columnNames(), rows.describe(), random,
                memory)) {
            rows.forEachRowWithId((id, row, line) -> b.add(id, row, "line " + line));
            return b.build();
        }
    }

    /**
     * Groups the rows of a table read through a schema whose {@link Schema.Id id column} is the unit's, in one pass:
     * the features are the schema's, the id column's text names the person.
     *
     * @param rows   the rows, mapped through the schema
     * @param unit   the unit, naming the schema's id column
     * @param random the source of the random selection of a person's rows
     * @param memory the memory the grouping may hold, and where it spills beyond it
     * @return the grouped rows
     * @throws ReleaseSettingException when the schema's id column is not the unit's ({@link #checkSchema}), or the
     *                                 spill directory cannot hold the spill files
     * @throws InvalidDataException    for a malformed line or cell, an empty id, or no rows
     * @throws SpillException          when the spill files cannot be written or read (a full disk)
     */
    public static UnitStatistics read(SchemaRows rows, PrivacyUnit unit, RandomSource random, GroupingMemory memory) {
        checkSchema(rows.schema(), unit, "the schema of " + rows.describe(), Vocabulary.JAVA);
        try (UnitStatistics.Builder b = UnitStatistics.builder(unit, rows.schema().featureNames(), rows.describe(),
                random, memory)) {
            rows.forEachRowWithId((id, row, line) -> b.add(id, row, "line " + line));
            return b.build();
        }
    }

    /**
     * Checks that a schema and a privacy unit agree, before anything is read: a unit's column must be the column the
     * schema marks {@code "type": "id"}, and a schema with an id column is read only for a release whose unit is that
     * column (a release that protects one row of a table whose rows belong to persons is refused rather than made
     * silently weaker than the schema says).
     *
     * @param schema     the schema
     * @param unit       the release's privacy unit
     * @param what       the schema in messages ("the schema of f.csv")
     * @param vocabulary the words of the settings in messages
     * @throws ReleaseSettingException when they disagree
     */
    public static void checkSchema(Schema schema, PrivacyUnit unit, String what, Vocabulary vocabulary) {
        java.util.Optional<String> id = schema.idColumn();
        if (unit.isRow()) {
            if (id.isPresent()) {
                throw new ReleaseSettingException(what + " marks column '" + id.get() + "' \"type\": \"id\" (the "
                        + "person each row belongs to), but no " + vocabulary.name(Setting.PRIVACY_UNIT) + " is given: "
                        + "a release that protects one row of a table whose rows belong to persons is refused rather "
                        + "than made weaker than the schema says", "protect a person: "
                        + vocabulary.name(Setting.PRIVACY_UNIT) + " " + id.get() + " with "
                        + vocabulary.name(Setting.MAX_ROWS_PER_UNIT) + " M; or mark the column \"ignore\" in the schema "
                        + "to protect one row");
            }
            return;
        }
        if (id.isPresent() && id.get().equals(unit.idColumn())) {
            return;
        }
        Schema.Column named = schema.columns().stream().filter(c -> c.name().equals(unit.idColumn())).findFirst()
                .orElse(null);
        if (id.isPresent()) {
            throw new ReleaseSettingException("the privacy unit column '" + unit.idColumn() + "' is not the column "
                    + what + " marks \"type\": \"id\" ('" + id.get() + "')", "name '" + id.get() + "' as the "
                    + "privacy unit, or mark '" + unit.idColumn() + "' \"type\": \"id\" in the schema instead");
        }
        if (named == null) {
            throw new ReleaseSettingException("the privacy unit column '" + unit.idColumn() + "' is not a column of "
                    + what, "name one of its columns, marked \"type\": \"id\" in the schema");
        }
        throw new ReleaseSettingException("the privacy unit column '" + unit.idColumn() + "' is not marked "
                + "\"type\": \"id\" in " + what + " (it is " + typeOf(named) + "), so it would be read as a "
                + "feature or dropped, not as the person's id", "mark it {\"name\": \"" + unit.idColumn()
                + "\", \"type\": \"id\"} in the schema");
    }

    private static String typeOf(Schema.Column c) {
        return c instanceof Schema.Numeric ? "numeric" : c instanceof Schema.Categorical ? "categorical" : "ignore";
    }

    /**
     * Opens {@code file} with the unit's column as its id column, reading only its first lines (the header holds no
     * row): a missing unit column, or one also selected as a feature, is a usage error before anything is spent.
     *
     * @param file    the file
     * @param options how it is read
     * @param unit    the unit, naming a column
     * @return the source, not read yet
     * @throws ReleaseSettingException when the unit column is missing or selected as a feature
     */
    public static CsvRows open(Path file, Options options, PrivacyUnit unit) {
        return open(CsvRows.builder(file), options, unit);
    }

    /**
     * Opens a CSV source (a file, or a stream such as standard input: {@link CsvRows#fromStream}) with the unit's
     * column as its id column, reading only its first lines, as {@link #open(Path, Options, PrivacyUnit)}.
     *
     * @param source  the source, not configured yet
     * @param options how it is read
     * @param unit    the unit, naming a column
     * @return the source, its rows not read yet
     * @throws ReleaseSettingException when the unit column is missing or selected as a feature
     */
    public static CsvRows open(CsvRows.Builder source, Options options, PrivacyUnit unit) {
        try {
            return options.configure(source).idColumn(unit.idColumn()).build();
        } catch (CsvRows.IdColumnException e) {
            throw new ReleaseSettingException(e.getMessage(), e.hint());
        }
    }

    /**
     * Checks, reading only the first lines, that the unit column is in {@code file}'s columns and that the feature
     * columns exclude it ({@link #open}).
     *
     * @param file    the file
     * @param options how it is read
     * @param unit    the unit
     * @return the feature names
     * @throws ReleaseSettingException when the unit column is missing or selected as a feature
     */
    public static List<String> checkHeader(Path file, Options options, PrivacyUnit unit) {
        return open(file, options, unit).columnNames();
    }

    /**
     * The feature columns of a header whose lines are read elsewhere (a cluster's reader): the selection of
     * {@link #open}, by the same rules and messages, a usage error before anything is spent.
     *
     * @param header  the header's column names
     * @param options the column selection ({@code columns}, {@code excludeColumns}; the rest is the reader's)
     * @param unit    the unit, naming a header column
     * @param file    the input's name in messages
     * @return the indices of the feature columns in {@code header}, in the features' order
     * @throws ReleaseSettingException when the unit column is missing or selected as a feature, or no feature is left
     */
    public static int[] featureColumns(List<String> header, Options options, PrivacyUnit unit, String file) {
        try {
            return CsvRows.featuresBesideId(header, options.columns(), options.excludeColumns(), unit.idColumn(), file);
        } catch (CsvRows.IdColumnException e) {
            throw new ReleaseSettingException(e.getMessage(), e.hint());
        }
    }

    /**
     * A feature cell under the project's cell rules (plain finite decimals; markers of missing values named), for a
     * reader elsewhere (a cluster's) of a table grouped by a unit column.
     *
     * @param cell   the cell's text, trimmed
     * @param name   the input's name in messages
     * @param where  the cell's line ("line 12"), or another place a reader knows
     * @param column the column's name
     * @return the value
     * @throws InvalidDataException for a cell that is not a finite number
     */
    public static double cell(String cell, String name, String where, String column) {
        if (CellText.looksLikeFiniteNumber(cell)) {
            double x = Double.parseDouble(cell);
            if (Double.isFinite(x)) {
                return x;
            }
        }
        String what = CellText.isNonFiniteOrMissingMarker(cell) || cell.isEmpty()
                ? "a missing or non-finite value" : "not a number";
        throw new InvalidDataException(String.format(Locale.ROOT, "%s, %s, column '%s': '%s' is %s", name,
                where, column, CellText.abbreviate(cell), what),
                "give finite numbers in the feature columns (remove or impute missing values), or leave the column out");
    }

}
