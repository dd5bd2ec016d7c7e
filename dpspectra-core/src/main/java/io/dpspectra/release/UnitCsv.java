package io.dpspectra.release;

import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.CellText;
import io.dpspectra.data.csv.LineSplitter;
import io.dpspectra.noise.RandomSource;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * Reads a CSV file (or .csv.gz) whose header names a privacy unit column and groups its rows by it, in memory or,
 * when the kept rows outgrow the {@link GroupingMemory}, by an external sort on disk ({@link UnitStatistics}): the unit column's cells are ids (any text), read for grouping only; the features are
 * every other column (or the ones selected), numbers. Rows of one person need not be adjacent. Every cell is
 * checked while the file is read, before any noise.
 */
public final class UnitCsv {
    /**
     * How the file is read.
     *
     * @param separator      the separator, or null to detect it
     * @param columns        the feature columns by header name, or null for every column but the unit's
     * @param excludeColumns feature columns to leave out by header name, or null
     * @param commentPrefix  lines starting with it are skipped, or null
     * @param skipLines      lines skipped before the header
     */
    public record Options(Character separator, List<String> columns, List<String> excludeColumns,
                          String commentPrefix, int skipLines) {
        /** Detected separator, every column but the unit's, no comments, nothing skipped. */
        public static final Options DEFAULT = new Options(null, null, null, null, 0);
    }

    private UnitCsv() {
    }

    /**
     * Reads and groups {@code file} in {@link GroupingMemory#defaults()}.
     *
     * @param file    the file, with a header line
     * @param options how it is read
     * @param unit    the unit, naming a header column
     * @param random  the source of the random selection of a person's rows
     * @return the grouped rows
     * @throws ReleaseSettingException when the unit column is missing or selected as a feature
     * @throws InvalidDataException    for a malformed line or cell, or no rows
     */
    public static UnitStatistics read(Path file, Options options, PrivacyUnit unit, RandomSource random) {
        return read(file, options, unit, random, GroupingMemory.defaults());
    }

    /**
     * Reads and groups {@code file}: in memory while the kept rows fit in {@code memory}, else by an external sort in
     * its spill directory ({@link UnitStatistics}); the spill files are deleted on every error.
     *
     * @param file    the file, with a header line
     * @param options how it is read
     * @param unit    the unit, naming a header column
     * @param random  the source of the random selection of a person's rows
     * @param memory  the memory the grouping may hold, and where it spills beyond it
     * @return the grouped rows
     * @throws ReleaseSettingException when the unit column is missing or selected as a feature, or the spill
     *                                 directory cannot hold the spill files
     * @throws InvalidDataException    for a malformed line or cell, or no rows
     * @throws SpillException          when the spill files cannot be written or read (a full disk)
     */
    public static UnitStatistics read(Path file, Options options, PrivacyUnit unit, RandomSource random,
                                      GroupingMemory memory) {
        String name = file.toString();
        UnitStatistics.Builder b = null;
        try (BufferedReader in = open(file)) {
            Header h = header(in, options, name, unit);
            String[] names = h.names().toArray(String[]::new);
            int unitIndex = h.unitIndex();
            int[] features = h.features();
            long lineNo = h.line();
            LineSplitter splitter = h.splitter();
            String line;
            List<String> featureNames = new ArrayList<>(features.length);
            for (int f : features) {
                featureNames.add(names[f]);
            }
            b = UnitStatistics.builder(unit, featureNames, name, random, memory);
            double[] row = new double[features.length];
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank() || skipped(line, options.commentPrefix())) {
                    continue;
                }
                List<String> cells = splitter.splitToList(line, name, lineNo);
                if (cells.size() != names.length) {
                    throw new InvalidDataException(String.format(Locale.ROOT, "%s, line %d: %d cells, but the header "
                            + "names %d columns", name, lineNo, cells.size(), names.length),
                            "give every line the header's columns");
                }
                for (int j = 0; j < features.length; j++) {
                    row[j] = cell(cells.get(features[j]).trim(), name, "line " + lineNo, names[features[j]]);
                }
                b.add(cells.get(unitIndex).trim(), row, "line " + lineNo);
            }
            return b.build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name + ": " + e.getMessage(), e);
        } finally {
            if (b != null) {
                b.close(); // a builder that was not built (a data error) deletes its spill files
            }
        }
    }

    /**
     * Checks, reading only the header line, that the unit column is in {@code file}'s header and that the feature
     * columns exclude it: a usage error before anything is spent (the header names columns; it holds no row).
     *
     * @param file    the file
     * @param options how it is read
     * @param unit    the unit
     * @return the feature names
     * @throws ReleaseSettingException when the unit column is missing or selected as a feature
     */
    public static List<String> checkHeader(Path file, Options options, PrivacyUnit unit) {
        String name = file.toString();
        try (BufferedReader in = open(file)) {
            Header h = header(in, options, name, unit);
            List<String> out = new ArrayList<>();
            for (int f : h.features()) {
                out.add(h.names().get(f));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name + ": " + e.getMessage(), e);
        }
    }

    /** The header line of a file: its column names, the unit's and the features' indices, and the line splitter. */
    private record Header(List<String> names, int unitIndex, int[] features, long line, LineSplitter splitter) {
    }

    /** Reads up to and including the header line (after --skip-lines and comments) and checks the columns. */
    private static Header header(BufferedReader in, Options options, String name, PrivacyUnit unit) throws IOException {
        long lineNo = 0;
        for (int i = 0; i < options.skipLines() && in.readLine() != null; i++) {
            lineNo++;
        }
        String line;
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (!skipped(line, options.commentPrefix())) {
                char sep = options.separator() != null ? options.separator()
                        : LineSplitter.detectSeparator(List.of(line));
                LineSplitter splitter = new LineSplitter(sep);
                List<String> names = splitter.splitToList(line, name, lineNo);
                int unitIndex = names.indexOf(unit.idColumn());
                if (unitIndex < 0) {
                    throw missing(unit, name, lineNo, line, names);
                }
                return new Header(names, unitIndex, features(names, unitIndex, options, name, unit), lineNo, splitter);
            }
        }
        throw new InvalidDataException(name + " has no header line", "the first line must name the columns, "
                + "among them the privacy unit column '" + unit.idColumn() + "'");
    }

    /**
     * The feature columns of a header whose lines are read elsewhere (a cluster's reader): the same checks as
     * {@link #checkHeader}, a usage error before anything is spent.
     *
     * @param header  the header's column names
     * @param options the column selection ({@code columns}, {@code excludeColumns}; the rest is the reader's)
     * @param unit    the unit, naming a header column
     * @param file    the input's name in messages
     * @return the indices of the feature columns in {@code header}, in the features' order
     * @throws ReleaseSettingException when the unit column is missing or selected as a feature, or no feature is left
     */
    public static int[] featureColumns(List<String> header, Options options, PrivacyUnit unit, String file) {
        int unitIndex = header.indexOf(unit.idColumn());
        if (unitIndex < 0) {
            throw missing(unit, file, 1, String.join(",", header), header);
        }
        return features(header, unitIndex, options, file, unit);
    }

    /**
     * A feature cell under the project's cell rules (plain finite decimals; markers of missing values named), for
     * every reader of a file grouped by a unit column.
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

    private static ReleaseSettingException missing(PrivacyUnit unit, String name, long lineNo, String header,
                                                   List<String> names) {
        return new ReleaseSettingException("the privacy unit column '" + unit.idColumn() + "' is not in the "
                + "header of " + name + " (line " + lineNo + ": " + CellText.abbreviate(header) + ")",
                "name one of its columns: " + String.join(", ", names));
    }

    private static boolean skipped(String line, String commentPrefix) {
        return line.isBlank() || commentPrefix != null && line.startsWith(commentPrefix);
    }

    private static int[] features(List<String> names, int unitIndex, Options options, String file, PrivacyUnit unit) {
        List<Integer> out = new ArrayList<>();
        if (options.columns() != null) {
            for (String c : options.columns()) {
                int i = names.indexOf(c);
                if (i < 0) {
                    throw new ReleaseSettingException("column '" + c + "' is not in the header of " + file,
                            "name one of its columns: " + String.join(", ", names));
                }
                out.add(i);
            }
        } else {
            for (int i = 0; i < names.size(); i++) {
                if (i != unitIndex) {
                    out.add(i);
                }
            }
        }
        if (options.excludeColumns() != null) {
            for (String c : options.excludeColumns()) {
                if (names.indexOf(c) < 0) {
                    throw new ReleaseSettingException("column '" + c + "' is not in the header of " + file,
                            "name one of its columns: " + String.join(", ", names));
                }
                out.remove(Integer.valueOf(names.indexOf(c)));
            }
        }
        if (out.contains(unitIndex)) {
            throw new ReleaseSettingException("the privacy unit column '" + unit.idColumn() + "' is also selected as "
                    + "a feature: it identifies the person and is used for grouping only", "leave it out of the "
                    + "feature columns");
        }
        if (out.isEmpty()) {
            throw new ReleaseSettingException(file + " has no feature column besides the privacy unit column '"
                    + unit.idColumn() + "'", "give at least one numeric column");
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static BufferedReader open(Path file) throws IOException {
        InputStream s = Files.newInputStream(file);
        if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".gz")) {
            s = new GZIPInputStream(s, 1 << 16);
        }
        return new BufferedReader(new InputStreamReader(s, StandardCharsets.UTF_8), 1 << 16);
    }
}
