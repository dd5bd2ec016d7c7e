package io.dpspectra.data.csv;

import io.dpspectra.data.CellText;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.IoErrors;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.zip.GZIPInputStream;


/**
 * Rows streamed from a CSV file or from standard input (cells separated by commas, semicolons, tabs or
 * runs of whitespace; optional header), one pass per {@link #open()}. Strict: a non-numeric, NaN,
 * infinite or missing cell, or a row with the wrong number of cells, is an {@link InvalidDataException}
 * naming the file, line and column.
 *
 * <p>The file is never held in memory: every {@link #open()} re-reads it from disk (through gzip when
 * the name ends in {@code .gz}), so the source can be passed over as many times as an algorithm needs.
 * Standard input ({@link Builder#fromStream}) can be passed over once. {@link Builder#build()} reads only
 * the first lines, to fix the separator, the header and the width d.
 *
 * <p>Format: one record per line; the first {@link Builder#skipLines} lines are dropped; lines starting
 * with the {@link Builder#commentPrefix} are ignored; cells are separated by the separator (detected
 * from the first lines unless given: ',', tab, ';' or runs of whitespace, in that order of preference);
 * a cell may be wrapped in double quotes (a doubled quote {@code ""} inside stands for one quote; a
 * quoted cell may not span lines); whitespace around a cell is ignored; a UTF-8 byte-order mark is
 * skipped. With separator {@code ' '} any run of spaces and tabs separates cells. Blank lines at the end
 * of the file are allowed; a blank line followed by more data is an error (it usually means a truncated
 * or concatenated file). Numbers are plain decimals ({@code 1}, {@code -2.5}, {@code 3e-4}), parsed
 * from the bytes to exactly the double {@link Double#parseDouble} gives ({@link CsvNumbers});
 * hexadecimal and Java suffixes such as {@code 1d} are rejected.
 *
 * <p>Cost: one sequential read of the file per pass, parsed in parallel on every core in pieces cut at
 * line ends ({@link CsvPipeline}; rows still come out in file order, and the first bad line is the one
 * reported); memory a few 1 MB pieces, independent of the number of rows. A Gram pass
 * ({@link GramPass}) does not take the rows one by one: the parser threads fold their pieces into partial
 * XᵀX themselves, with the bits of the row-by-row pass ({@link RowCursor#foldGram}).
 */
public final class CsvRows implements RowSource {

    /** Whether the first line (after skipped lines and comments) is a header. */
    public enum Header {
        /** A header if any of the first line's (selected) cells is not a number. */
        AUTO,
        /** The first line is a header. */
        PRESENT,
        /** The first line is data. */
        ABSENT
    }


    private final Path path;
    private final String name;
    private final InputStream stream;
    private final byte separator;
    private final boolean separatorDetected;
    private final long preambleLines;
    private final boolean hasHeader;
    private final int[] selected;
    private final List<String> selectedNames;
    private final List<String> fileNames;
    /** The id column's 0-based index in the file, or −1 for none. */
    private final int idColumn;
    /** Parses the pieces of every pass. */
    private final CsvPieceParser parser;
    private boolean streamOpened;

    private CsvRows(Builder b, InputStream stream, byte separator, boolean separatorDetected, long preambleLines,
            boolean hasHeader, int fileColumns, int[] selected, List<String> selectedNames, List<String> fileNames,
            int idColumn) {
        this.path = b.path;
        this.name = b.name;
        this.stream = stream;
        this.separator = separator;
        this.separatorDetected = separatorDetected;
        this.preambleLines = preambleLines;
        this.hasHeader = hasHeader;
        this.selected = selected;
        this.selectedNames = selectedNames;
        this.fileNames = fileNames;
        this.idColumn = idColumn;
        byte[] comment = b.commentPrefix == null ? null : b.commentPrefix.getBytes(StandardCharsets.UTF_8);
        this.parser = new CsvPieceParser(name, separator, separatorDetected, comment, hasHeader, fileColumns,
                selected, fileNames, idColumn);
    }


    /**
     * Opens {@code path} with separator and header detection and all columns.
     *
     * @param path the CSV file (a name ending in {@code .gz} is inflated)
     * @return the source
     * @throws InvalidDataException when the first lines cannot be read as a table (the message names the file)
     */
    public static CsvRows open(Path path) {
        return builder(path).build();
    }

    /**
     * A builder for {@code path}, with the defaults its setters state.
     *
     * @param path the CSV file (a name ending in {@code .gz} is inflated)
     * @return a new builder
     */
    public static Builder builder(Path path) {
        if (path == null) {
            throw new IllegalArgumentException("path must not be null; pass the CSV file to read");
        }
        return new Builder(path, path.toString(), null);
    }

    /**
     * Rows read from a stream (e.g. standard input) named {@code name} in messages; the resulting source
     * can be {@link #open() opened} once. A name ending in {@code .gz} is not inflated: pass an inflated
     * stream.
     *
     * @param name the stream's name for messages, e.g. "standard input"
     * @param in   the stream
     * @return a new builder
     */
    public static Builder fromStream(String name, InputStream in) {
        if (in == null || name == null) {
            throw new IllegalArgumentException("stream and name must not be null");
        }
        return new Builder(null, name, in);
    }

    /**
     * Parses a small generated CSV (twelve pieces of eight rows of numbers written as {@code generate}
     * writes them), so that a just-in-time compiler that counts calls compiles the byte parser before a
     * large file arrives rather than while both parser threads interpret its first piece. For a launcher's
     * start-up (the CLI calls it on its warm-up thread when the input is a large text file); it reads and
     * writes nothing else and has no effect on any result. Through the launcher, whose JIT flags compile
     * this package's code after a few calls, fit on a 198 MB CSV 0.43 -> 0.42 s wall
     * (docs/benchmarks/csv.md).
     */
    public static void warmUpParser() {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < 8; r++) {
            for (int c = 0; c < 12; c++) {
                double v = Math.scalb((r % 2 == 0 ? 1 : -1) * (1 + r * 12 + c) * 0.7182818284590452, -c);
                sb.append(c == 0 ? "" : ",").append(v);
            }
            sb.append('\n');
        }
        byte[] data = sb.toString().getBytes(StandardCharsets.US_ASCII);
        CsvRows rows = fromStream("warm-up", new ByteArrayInputStream(data)).header(Header.ABSENT).build();
        ArrayBlockingQueue<double[]> spare = new ArrayBlockingQueue<>(1);
        for (int i = 0; i < 12; i++) {
            Piece p = rows.parser.parsePiece(data, data.length, spare);
            spare.offer(p.values);
        }
    }


    /** Options for reading a CSV file. */
    public static final class Builder {
        private final Path path;
        private final String name;
        private final InputStream stream;
        private Header header = Header.AUTO;
        private List<String> columnTokens;
        private int[] columnIndices;
        private List<String> excludeTokens;
        private Character separator;
        private int skipLines;
        private String commentPrefix;
        private List<String> headerNames;
        private String idColumn;

        private Builder(Path path, String name, InputStream stream) {
            this.path = path;
            this.name = name;
            this.stream = stream;
        }

        /**
         * AUTO (default): the first line is a header if any of its (selected) cells is not a number.
         *
         * @param header whether the first line is a header
         * @return this builder
         */
        public Builder header(Header header) {
            if (header == null) {
                throw new IllegalArgumentException("header must be AUTO, PRESENT or ABSENT, got null");
            }
            this.header = header;
            return this;
        }

        /**
         * Keep only these columns, in this order, by header name, by 1-based index written as a number
         * ("1" is the first column of the file), or by a range of either ("1-617", "f1-f617"). A token
         * that equals a header name is taken as that name, even if it looks like a number or a range.
         *
         * @param columns the columns to keep
         * @return this builder
         */
        public Builder columns(List<String> columns) {
            if (columns == null || columns.isEmpty()) {
                throw new IllegalArgumentException("columns must name at least one column, got " + columns
                        + "; pass header names or 1-based column numbers, e.g. --columns 1,3,age");
            }
            this.columnTokens = List.copyOf(columns);
            this.columnIndices = null;
            return this;
        }

        /**
         * Keep only these columns, in this order, by 0-based index into the file's cells (Java API).
         *
         * @param zeroBasedIndices the columns to keep
         * @return this builder
         */
        public Builder columnIndices(int... zeroBasedIndices) {
            if (zeroBasedIndices == null || zeroBasedIndices.length == 0) {
                throw new IllegalArgumentException("columnIndices must list at least one 0-based index, got none");
            }
            this.columnIndices = zeroBasedIndices.clone();
            this.columnTokens = null;
            return this;
        }

        /**
         * Drop these columns (names, 1-based numbers or ranges, as for {@link #columns}) from the selection.
         *
         * @param columns the columns to drop
         * @return this builder
         */
        public Builder excludeColumns(List<String> columns) {
            this.excludeTokens = columns == null || columns.isEmpty() ? null : List.copyOf(columns);
            return this;
        }

        /**
         * The field separator (default: detected from the first lines). {@code ' '} means "any run of
         * spaces or tabs"; a quote or a line break cannot be a separator.
         *
         * @param separator the separator
         * @return this builder
         */
        public Builder separator(char separator) {
            if (separator == '"' || separator == '\n' || separator == '\r' || separator > 127) {
                throw new IllegalArgumentException("separator must not be a quote, a line break or non-ASCII, got "
                        + CellText.printable(separator) + "; use ',', ';', '\\t' or ' '");
            }
            this.separator = separator;
            return this;
        }

        /**
         * Drop the first {@code lines} lines of the file (before the header, if any).
         *
         * @param lines the number of lines, ≥ 0
         * @return this builder
         */
        public Builder skipLines(int lines) {
            if (lines < 0) {
                throw new IllegalArgumentException("--skip-lines must be >= 0, got " + lines);
            }
            this.skipLines = lines;
            return this;
        }

        /**
         * Ignore lines whose first non-blank characters are {@code prefix} (e.g. "#"); null for none.
         *
         * @param prefix the comment prefix, or null
         * @return this builder
         */
        public Builder commentPrefix(String prefix) {
            if (prefix != null && (prefix.isBlank() || prefix.indexOf('\n') >= 0)) {
                throw new IllegalArgumentException("--comment-prefix must be visible text such as '#', got '"
                        + prefix + "'");
            }
            this.commentPrefix = prefix;
            return this;
        }

        /**
         * Names for the file's columns, in file order (for a file without a header, or to rename). A
         * header line, if the file has one, is still skipped.
         *
         * @param names one name per column of the file
         * @return this builder
         */
        public Builder headerNames(List<String> names) {
            this.headerNames = names == null ? null : List.copyOf(names);
            return this;
        }

        /**
         * One text column, by name (the header's, or {@link #headerNames}'), read with each row for grouping only and
         * never a feature: the id of the row's person (a privacy unit). Every other column is a feature unless
         * {@link #columns} selects some, which must then leave it out ({@link #excludeColumns} may name it). The
         * column is named, so a header is taken as present unless {@link #headerNames} names the columns; each row's
         * id is its cell's text, unquoted and trimmed ({@link CsvRows#forEachRowWithId}).
         *
         * @param name the column's name, or null for none
         * @return this builder
         */
        public Builder idColumn(String name) {
            if (name != null && name.isBlank()) {
                throw new IllegalArgumentException("the id column needs a name, got '" + name + "'");
            }
            this.idColumn = name;
            return this;
        }

        /**
         * Reads the first lines to fix the separator, width and header; errors name the file.
         *
         * @return the source
         * @throws InvalidDataException when the first lines cannot be read as a table, or a selected column does not
         *                              exist
         * @throws IdColumnException    when the {@link #idColumn} is not among the columns, is selected as a
         *                              feature, or leaves no feature
         */
        public CsvRows build() {
            ColumnSelection columns = new ColumnSelection(name, header, headerNames);
            CsvSample sample;
            InputStream replay = null;
            try {
                if (stream != null) {
                    sample = CsvSample.read(stream, skipLines, commentPrefix);
                    replay = new SequenceInputStream(new ByteArrayInputStream(sample.head), stream);
                } else {
                    try (InputStream in = openStream(path)) {
                        sample = CsvSample.read(in, skipLines, commentPrefix);
                    }
                }
            } catch (IOException e) {
                throw new InvalidDataException("cannot read " + name + ": " + IoErrors.inWords(e)
                        + "; check that the file exists, is readable and (for .gz) is valid gzip", e);
            }
            String first = sample.firstContent();
            if (first == null || first.isBlank()) {
                String why = first != null ? " or starts with a blank line"
                        : skipLines > 0 ? " after the " + skipLines + " skipped lines (--skip-lines)" : "";
                throw new InvalidDataException(name + ": no data rows (the file is empty" + why
                        + "); provide a file with at least one row of numbers");
            }
            boolean detected = separator == null;
            char sep = detected ? LineSplitter.detectSeparator(sample.contentLines()) : separator;
            LineSplitter splitter = new LineSplitter(sep);
            long firstLine = sample.firstContentLine();
            List<String> cells = splitter.splitToList(first, name, firstLine);
            int width = cells.size();
            if (headerNames != null && headerNames.size() != width) {
                throw new IllegalArgumentException(name + ": --header-names gives " + headerNames.size()
                        + " names but the file has " + width + " columns (line " + firstLine + ": "
                        + CellText.abbreviate(first) + "); give one name per column");
            }
            int[] sel;
            boolean header;
            List<String> nameList;
            int id = -1;
            if (idColumn != null) {
                // the id column is named, so the columns have names: the header's (a header is then present), or
                // --header-names'
                if (headerNames == null && this.header == Header.ABSENT) {
                    throw new IdColumnException("the privacy unit column '" + idColumn + "' names a column of the "
                            + "header, but " + name + " has no header (--header absent)", "give the file a header "
                            + "line, or name its columns with --header-names");
                }
                nameList = headerNames != null ? headerNames : List.copyOf(cells);
                id = columns.idColumn(idColumn, nameList, headerNames == null ? "the header of " + name + " (line "
                        + firstLine + ": " + CellText.abbreviate(first) + ")" : "--header-names");
                sel = columns.featuresBesideId(columnTokens, columnIndices, excludeTokens, nameList, width, id,
                        idColumn);
                header = headerNames == null || switch (this.header) {
                    case PRESENT -> true;
                    case ABSENT -> false;
                    case AUTO -> anyNonNumeric(cells, sel);
                };
            } else {
                sel = columns.resolveIndicesWithoutNames(columnIndices, columnTokens, width);
                if (sel == null && headerNames != null) {
                    sel = columns.resolveTokens(columnTokens, headerNames, width, "--columns");
                }
                header = switch (this.header) {
                    case PRESENT -> true;
                    case ABSENT -> false;
                    case AUTO -> sel == null || anyNonNumeric(cells, sel);
                };
                if (sel == null && this.header == Header.AUTO
                        && !anyNonNumeric(cells, ColumnSelection.allColumns(width))) {
                    throw new IllegalArgumentException(name + ": columns " + columnTokens + " are selected by"
                            + " name, but the first line " + CellText.abbreviate(first) + " looks like data, not a"
                            + " header; select columns by 1-based number, pass --header present, or name the"
                            + " columns with --header-names");
                }
                nameList = headerNames != null ? headerNames : header ? List.copyOf(cells) : null;
                if (sel == null) {
                    if (nameList == null && this.header == Header.AUTO) {
                        throw new IllegalArgumentException(name + ": columns " + columnTokens + " are selected by"
                                + " name, but the first line " + CellText.abbreviate(first) + " looks like data, not a"
                                + " header; select columns by 1-based number, pass --header present, or name the"
                                + " columns with --header-names");
                    }
                    if (nameList == null) {
                        throw new IllegalArgumentException(name + ": columns " + columnTokens
                                + " name header columns, but the file has no header (its first line is "
                                + CellText.abbreviate(first) + "); select columns by 1-based number, or name the columns"
                                + " with --header-names");
                    }
                    sel = columns.resolveTokens(columnTokens, nameList, width, "--columns");
                }
                if (excludeTokens != null) {
                    int[] excluded = columns.resolveIndicesWithoutNames(null, excludeTokens, width);
                    if (excluded == null) {
                        if (nameList == null) {
                            throw new IllegalArgumentException(name + ": --exclude-columns " + excludeTokens
                                    + " names header columns, but the file has no header; exclude columns by"
                                    + " 1-based number, or name the columns with --header-names");
                        }
                        excluded = columns.resolveTokens(excludeTokens, nameList, width, "--exclude-columns");
                    }
                    Set<Integer> drop = new LinkedHashSet<>();
                    for (int j : excluded) {
                        drop.add(j);
                    }
                    sel = Arrays.stream(sel).filter(j -> !drop.contains(j)).toArray();
                    if (sel.length == 0) {
                        throw new IllegalArgumentException(name + ": --exclude-columns " + excludeTokens
                                + " leaves no column to read; exclude fewer columns");
                    }
                }
            }
            List<String> fileNames;
            if (nameList != null) {
                fileNames = nameList;
            } else {
                List<String> gen = new ArrayList<>(width);
                for (int j = 0; j < width; j++) {
                    gen.add("x" + (j + 1));
                }
                fileNames = Collections.unmodifiableList(gen);
            }
            List<String> names = new ArrayList<>(sel.length);
            Map<String, Integer> firstWithName = new HashMap<>();
            for (int i = 0; i < sel.length; i++) {
                String n = nameList != null ? nameList.get(sel[i]) : "x" + (i + 1);
                Integer other = firstWithName.putIfAbsent(n, sel[i]);
                if (other != null) {
                    String message = name + ": columns " + (other + 1) + " and " + (sel[i] + 1) + " are both named \""
                            + n + "\"" + (headerNames != null ? " in --header-names" : " in the header (line " + firstLine
                            + ")") + "; a release names its features, so each needs its own name: rename one"
                            + (headerNames != null ? "" : ", name the columns with --header-names,")
                            + " or leave one out with --exclude-columns";
                    throw headerNames != null ? new IllegalArgumentException(message) : new InvalidDataException(message);
                }
                names.add(n);
            }
            if (header && !sample.hasContentAfterFirst()) {
                throw new InvalidDataException(name + ": no data rows (only a header line "
                        + CellText.abbreviate(first) + "); provide at least one row of numbers, or pass "
                        + "--header absent if the first line is data");
            }
            long preamble = header ? firstLine : skipLines;
            return new CsvRows(this, replay, (byte) sep, detected, preamble, header, width, sel,
                    List.copyOf(names), fileNames, id);
        }


        /**
         * True if a selected cell is text that cannot be a (possibly bad) data value: empty cells and
         * NaN/infinity/NA markers are not taken as evidence of a header, so a first data row with a
         * missing value is reported as bad data instead of being silently skipped as a header.
         */
        private static boolean anyNonNumeric(List<String> cells, int[] sel) {
            for (int j : sel) {
                String c = cells.get(j).trim();
                if (!c.isEmpty() && !CellText.looksLikeFiniteNumber(c) && !CellText.isNonFiniteOrMissingMarker(c)) {
                    return true;
                }
            }
            return false;
        }
    }


    /**
     * A refused {@link Builder#idColumn}: not among the file's columns, also selected as a feature, or the only
     * column; a setting's error (the file's header is public), found before any row is read.
     */
    public static final class IdColumnException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        /** How to fix it. */
        private final String hint;

        /**
         * A refusal.
         *
         * @param message what is wrong, naming the column and the file
         * @param hint    how to fix it
         */
        public IdColumnException(String message, String hint) {
            super(message);
            this.hint = hint;
        }

        /**
         * How to fix it.
         *
         * @return the hint
         */
        public String hint() {
            return hint;
        }
    }

    /** Takes each row of a pass with its id ({@link #forEachRowWithId}). */
    @FunctionalInterface
    public interface RowWithId {
        /**
         * One row.
         *
         * @param id   the id column's text (unquoted, trimmed; possibly empty)
         * @param row  the row's features, in {@link #columnNames()} order; reused for the next row, so copy it to
         *             keep it
         * @param line the row's line in the file (1-based, counting every line)
         */
        void accept(String id, double[] row, long line);
    }

    /**
     * One pass over the rows, each handed to {@code sink} with its {@link Builder#idColumn id} and line, in file
     * order; errors as {@link #open()}'s passes give them (a bad cell, a ragged or blank line inside the data).
     *
     * @param sink takes the rows
     * @return the number of rows
     * @throws IllegalStateException when the source has no id column
     * @throws InvalidDataException  at the first bad line
     */
    public long forEachRowWithId(RowWithId sink) {
        if (idColumn < 0) {
            throw new IllegalStateException(name + " was opened without an id column; set one with idColumn");
        }
        double[] row = new double[selected.length];
        long n = 0;
        try (CsvCursor c = (CsvCursor) open()) {
            while (c.next(row)) {
                sink.accept(c.id(), row, c.line());
                n++;
            }
        }
        return n;
    }

    /**
     * The feature columns beside an id column of a table whose header was read elsewhere (a cluster's reader): the
     * selection {@link Builder#idColumn} makes, by the same rules and messages.
     *
     * @param header   the header's column names
     * @param columns  the feature columns (names, 1-based numbers or ranges), or null for every column but the id's
     * @param exclude  columns to leave out, or null
     * @param idColumn the id column's name
     * @param name     the table's name in messages
     * @return 0-based indices of the features in {@code header}, in the features' order
     * @throws IdColumnException        when the id column is missing, selected, or the only column
     * @throws IllegalArgumentException when a selected column does not exist
     */
    public static int[] featuresBesideId(List<String> header, List<String> columns, List<String> exclude,
            String idColumn, String name) {
        ColumnSelection c = new ColumnSelection(name, Header.PRESENT, null);
        int id = c.idColumn(idColumn, header, "the header of " + name + " (line 1: "
                + CellText.abbreviate(String.join(",", header)) + ")");
        return c.featuresBesideId(columns == null || columns.isEmpty() ? null : columns, null,
                exclude == null || exclude.isEmpty() ? null : exclude, header, header.size(), id, idColumn);
    }

    /**
     * The id column's name ({@link Builder#idColumn}), or null when there is none.
     *
     * @return the name, or null
     */
    public String idColumnName() {
        return idColumn < 0 ? null : fileNames.get(idColumn);
    }

    /**
     * The header names of the selected columns (generated as "x1".."xd" when there is no header).
     *
     * @return d names
     */
    public List<String> columnNames() {
        return selectedNames;
    }

    /**
     * The names of all the file's columns (header, --header-names, or generated "x1".."xw").
     *
     * @return one name per column of the file
     */
    public List<String> fileColumnNames() {
        return fileNames;
    }

    /**
     * The selected columns as 0-based indices into the file's cells, in the order read.
     *
     * @return a new array of d indices
     */
    public int[] selectedColumns() {
        return selected.clone();
    }

    /**
     * True if the first line was read as a header.
     *
     * @return whether there is a header
     */
    public boolean hasHeader() {
        return hasHeader;
    }

    /**
     * The separator: ',', ';', '\t', or ' ' for runs of whitespace.
     *
     * @return the separator
     */
    public char separator() {
        return (char) separator;
    }

    /**
     * True if the separator was detected from the first lines rather than given.
     *
     * @return whether it was detected
     */
    public boolean separatorDetected() {
        return separatorDetected;
    }

    /**
     * A name for the separator in messages: "comma", "tab", "semicolon", "whitespace" or the character.
     *
     * @return the separator's name
     */
    public String separatorName() {
        return switch (separator) {
            case ',' -> "comma";
            case '\t' -> "tab";
            case ';' -> "semicolon";
            case ' ' -> "whitespace";
            default -> "'" + (char) separator + "'";
        };
    }

    /**
     * The file this source reads, or null for a stream.
     *
     * @return the path, or null
     */
    public Path path() {
        return path;
    }

    @Override
    public int dimension() {
        return selected.length;
    }

    @Override
    public String describe() {
        return name;
    }

    @Override
    public long sizeInBytes() {
        if (path == null) {
            return -1;
        }
        try {
            return Files.size(path);
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public RowCursor open() {
        InputStream raw;
        CsvPipeline.CountingInputStream counted;
        if (stream != null) {
            synchronized (this) {
                if (streamOpened) {
                    throw new IllegalStateException(name + " is a stream and can be read only once; save it to a"
                            + " file (or a .dpsr with 'dpspectra convert') for algorithms that make several passes");
                }
                streamOpened = true;
            }
            counted = new CsvPipeline.CountingInputStream(stream);
            raw = counted;
        } else {
            try {
                counted = new CsvPipeline.CountingInputStream(Files.newInputStream(path));
                raw = isGzip(path) ? new GZIPInputStream(counted, 1 << 16) : counted;
            } catch (IOException e) {
                throw new InvalidDataException("cannot read " + name + ": " + IoErrors.inWords(e)
                        + "; check that the file still exists and is readable", e);
            }
        }
        return new CsvCursor(name, parser, preambleLines, raw, counted);
    }

    /** The reader of byte ranges of files laid out as this one ({@link CsvRanges#of}). */
    CsvRanges ranges(String longerRanges) {
        return new CsvRanges(parser, preambleLines, longerRanges);
    }

    private static boolean isGzip(Path path) {
        return path.getFileName() != null
                && path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".gz");
    }

    private static InputStream openStream(Path path) throws IOException {
        InputStream in = Files.newInputStream(path);
        try {
            if (isGzip(path)) {
                in = new GZIPInputStream(in, 1 << 16);
            }
        } catch (IOException e) {
            in.close();
            throw e;
        }
        return in;
    }
}
