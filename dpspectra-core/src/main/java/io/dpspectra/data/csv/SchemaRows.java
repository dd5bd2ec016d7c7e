package io.dpspectra.data.csv;

import io.dpspectra.data.CellText;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.IoErrors;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.Schema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;

/**
 * The rows of a text table (CSV, tab- or whitespace-separated, optionally gzipped) mapped through a
 * public {@link Schema}: each pass reads the file's cells as text and maps them to the schema's
 * features (clamping, standardisation, one-hot). A per-row map with public constants only, so it costs
 * no privacy.
 *
 * <p>The file's columns must be the schema's columns in order: every row has exactly as many cells
 * as the schema has columns. The first line (after {@code skipLines} skipped lines) is a header iff its
 * cells are the schema's column names, in order; a header with other names is refused, naming the first
 * differing column. Blank lines at the end are allowed; a blank line followed by data is an error.
 * Lines that start with the comment prefix, if one is given, are ignored wherever they are (after the
 * skipped lines).
 *
 * <p>A file is read once per pass; a stream ({@link #fromStream}, e.g. standard input) can be read by one
 * pass only: a caller that needs more passes keeps a copy of the mapped rows (the CLI spills them to a
 * temporary .dpsr, as for a CSV stream).
 *
 * <p>{@link #clampedCells()} counts the numeric cells clamped to their bounds in the last pass that
 * ended: a data-dependent count for the curator's diagnostics, not part of a release.
 */
public final class SchemaRows implements RowSource {
    private final Path path;
    private final String name;
    private final Schema schema;
    private final boolean centre;
    private final char separator;
    private final int skipLines;
    private final String commentPrefix;
    private final boolean hasHeader;
    private final AtomicLong lastClamped = new AtomicLong(-1);
    private BufferedReader stream;

    private SchemaRows(Path path, String name, BufferedReader stream, Schema schema, boolean centre, Inspected format,
                       int skipLines, String commentPrefix) {
        this.path = path;
        this.name = name;
        this.stream = stream;
        this.schema = schema;
        this.centre = centre;
        this.separator = format.separator;
        this.skipLines = skipLines;
        this.commentPrefix = commentPrefix;
        this.hasHeader = format.header;
    }

    /** How a table's text is laid out for a schema: its separator, and whether its first line is a header. */
    public record Inspected(char separator, boolean header) {
    }

    /**
     * Opens {@code path} through {@code schema}; {@code centre} subtracts the schema's public centres.
     *
     * @param separator ',', ';', '\t', ' ' (any run of spaces and tabs), or 0 to detect it from the first
     *                  lines as {@link CsvRows} does
     * @param skipLines lines to skip before the header or the first row (a title line, say)
     * @param path      the table (a name ending in {@code .gz} is inflated)
     * @param schema    the public schema of its columns
     * @param centre    whether to subtract the public centres
     * @return the source
     * @throws InvalidDataException when the file is empty or its columns are not the schema's
     */
    public static SchemaRows open(Path path, Schema schema, boolean centre, char separator, int skipLines) {
        return open(path, schema, centre, separator, skipLines, null);
    }

    /**
     * As {@link #open(Path, Schema, boolean, char, int)}, ignoring lines that start with {@code commentPrefix} (null:
     * none).
     *
     * @param path          the table
     * @param schema        the public schema of its columns
     * @param centre        whether to subtract the public centres
     * @param separator     the separator, or 0 to detect it
     * @param skipLines     lines to skip first
     * @param commentPrefix the comment prefix, or null
     * @return the source
     */
    public static SchemaRows open(Path path, Schema schema, boolean centre, char separator, int skipLines,
                                  String commentPrefix) {
        checkFormat(skipLines, commentPrefix);
        try (BufferedReader r = reader(path)) {
            Inspected f = inspect(r, path.toString(), schema, separator, skipLines, commentPrefix);
            return new SchemaRows(path, path.toString(), null, schema, centre, f, skipLines, commentPrefix);
        } catch (IOException e) {
            throw new InvalidDataException("cannot read " + path + ": " + IoErrors.inWords(e) + "; check the path and (for .gz) that "
                    + "it is valid gzip", e);
        }
    }

    /**
     * Rows of a text stream (e.g. standard input) named {@code name} in messages, through {@code schema}: the
     * first lines are looked at (and kept) to check the columns, and ONE pass can then read the stream.
     *
     * @param name          the stream's name for messages
     * @param in            the text
     * @param schema        the public schema of its columns
     * @param centre        whether to subtract the public centres
     * @param separator     the separator, or 0 to detect it
     * @param skipLines     lines to skip first
     * @param commentPrefix the comment prefix, or null
     * @return the source, to be read once
     */
    public static SchemaRows fromStream(String name, InputStream in, Schema schema, boolean centre, char separator,
                                        int skipLines, String commentPrefix) {
        checkFormat(skipLines, commentPrefix);
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
        try {
            r.mark(MARK_LIMIT);
            Inspected f = inspect(r, name, schema, separator, skipLines, commentPrefix);
            r.reset();
            return new SchemaRows(null, name, r, schema, centre, f, skipLines, commentPrefix);
        } catch (IOException e) {
            throw new InvalidDataException("cannot read " + name + ": " + IoErrors.inWords(e) + " (the first " + SAMPLE_LINES
                    + " lines must fit in " + (MARK_LIMIT >> 20) + " MB)", e);
        }
    }

    /**
     * The layout of a table from its first lines ({@code firstLines}: the start of the table, as
     * {@code skipLines} = 0), found and checked against the schema exactly as {@link #open} finds and checks
     * a file's: the separator (given, or detected when 0) and the header; comment lines are passed over.
     * For readers of the same text elsewhere (a cluster), so that they lay it out as this class does.
     *
     * @param firstLines    the table's first lines
     * @param name          the table's name for messages
     * @param schema        the public schema of its columns
     * @param separator     the separator, or 0 to detect it
     * @param commentPrefix the comment prefix, or null
     * @return the separator and whether the first data line is a header
     * @throws InvalidDataException when there is no data line or the columns are not the schema's
     */
    public static Inspected layout(List<String> firstLines, String name, Schema schema, char separator,
                                   String commentPrefix) {
        checkFormat(0, commentPrefix);
        try {
            return inspect(new BufferedReader(new java.io.StringReader(String.join("\n", firstLines))), name, schema,
                    separator, 0, commentPrefix);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);   // a string reader does not fail
        }
    }

    /**
     * The byte ranges of tables laid out as the one whose first lines are {@code firstLines} (the start of its first
     * file, skipped lines included), each range read on its own (a cluster's task) and mapped line by line through
     * {@code schema} exactly as {@link #open} maps a file: the same layout (found by the same code from the same
     * lines), comment and blank lines, cells, map, messages and line numbers. When the schema marks an id column, each
     * row carries that column's text, trimmed ({@link CsvRanges.Reader#ids}).
     *
     * @param firstLines    the first lines of the first file, from its start
     * @param name          the table's name for messages
     * @param schema        the public schema of its columns
     * @param centre        whether to subtract the public centres
     * @param separator     the separator, or 0 to detect it
     * @param skipLines     lines to skip before the header or the first row, in each file
     * @param commentPrefix the comment prefix, or null
     * @param longerRanges  what to do when a file's lines before the data do not end within its first range
     * @return the ranges' reader, serializable
     * @throws InvalidDataException when there is no data line or the columns are not the schema's
     */
    public static CsvRanges ranges(List<String> firstLines, String name, Schema schema, boolean centre, char separator,
                                   int skipLines, String commentPrefix, String longerRanges) {
        checkFormat(skipLines, commentPrefix);
        Inspected f;
        try {
            f = inspect(new BufferedReader(new java.io.StringReader(String.join("\n", firstLines))), name, schema,
                    separator, skipLines, commentPrefix);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);   // a string reader does not fail
        }
        long preamble = skipLines;
        if (f.header()) {
            // the header is the first line after the skipped ones that is not a comment
            int i = skipLines;
            while (i < firstLines.size() && isComment(firstLines.get(i), commentPrefix)) {
                i++;
            }
            preamble = i + 1L;
        }
        return new CsvRanges(new SchemaPieceParser(name, schema, centre, f.separator(), commentPrefix), preamble,
                java.util.Objects.requireNonNull(longerRanges, "longerRanges"));
    }

    /** A blank line followed by data. */
    static InvalidDataException blankInsideData(String where, long blank, long data) {
        return new InvalidDataException(where + " line " + blank + " is blank but data follow on line " + data
                + "; remove blank lines inside the data");
    }

    /** A line of another width than the schema's. */
    static InvalidDataException ragged(String where, long line, int found, int width) {
        return new InvalidDataException(where + " line " + line + " has " + found + " cells but the schema lists "
                + width + " columns; fix the ragged line");
    }

    /** How far a stream may be read ahead to look at its first lines. */
    private static final int MARK_LIMIT = 1 << 24;

    private static void checkFormat(int skipLines, String commentPrefix) {
        if (skipLines < 0) {
            throw new IllegalArgumentException("lines to skip must be >= 0, got " + skipLines);
        }
        if (commentPrefix != null && commentPrefix.isEmpty()) {
            throw new IllegalArgumentException("the comment prefix must not be empty");
        }
    }

    private static boolean isComment(String line, String commentPrefix) {
        return commentPrefix != null && line.startsWith(commentPrefix);
    }

    private static Inspected inspect(BufferedReader r, String where, Schema schema, char separator, int skipLines,
                                     String commentPrefix) throws IOException {
        for (int i = 0; i < skipLines; i++) {
            r.readLine();
        }
        List<String> sample = new java.util.ArrayList<>();
        long firstLine = -1;
        long lineNo = skipLines;
        for (String line = r.readLine(); line != null && sample.size() < SAMPLE_LINES; line = r.readLine()) {
            lineNo++;
            if (lineNo == 1 && !line.isEmpty() && line.charAt(0) == '\uFEFF') {
                line = line.substring(1);
            }
            if (isComment(line, commentPrefix)) {
                continue;
            }
            if (sample.isEmpty()) {
                firstLine = lineNo;
            }
            sample.add(line);
        }
        String first = sample.isEmpty() ? null : sample.get(0);
        if (first == null || first.isBlank()) {
            throw new InvalidDataException(where + ": no data rows after " + skipLines + " skipped line(s)"
                    + (commentPrefix == null ? "" : " and the comment lines"));
        }
        char sep = separator != 0 ? separator : detectSeparator(sample);
        List<String> cells = new LineSplitter(sep).splitToList(first, where, firstLine);
        List<Schema.Column> cols = schema.columns();
        boolean header = cells.size() == cols.size();
        for (int j = 0; header && j < cols.size(); j++) {
            header = cells.get(j).equals(cols.get(j).name());
        }
        if (!header && cells.size() == cols.size() && looksLikeHeader(cells, cols)) {
            for (int j = 0; j < cols.size(); j++) {
                if (!cells.get(j).equals(cols.get(j).name())) {
                    throw new InvalidDataException(where + ": column " + (j + 1) + " is \"" + cells.get(j)
                            + "\" in the file's header but \"" + cols.get(j).name() + "\" in the schema; the "
                            + "file's columns do not match the schema (use the schema written for this file)");
                }
            }
        }
        if (cells.size() != cols.size()) {
            throw new InvalidDataException(where + " line " + firstLine + " has " + cells.size()
                    + " cells (separator '" + CellText.printable(sep) + "') but the schema lists " + cols.size()
                    + " columns; the schema must list every column of the file in order (mark unused ones "
                    + "\"ignore\"), or the separator or the lines to skip are wrong");
        }
        return new Inspected(sep, header);
    }

    /** A header line with other names than the schema's: some cell a numeric column could not hold. */
    private static boolean looksLikeHeader(List<String> cells, List<Schema.Column> cols) {
        for (int j = 0; j < cols.size(); j++) {
            if (cols.get(j) instanceof Schema.Numeric && !CellText.looksLikeFiniteNumber(cells.get(j))) {
                return true;
            }
        }
        return false;
    }

    /** Lines sampled to detect the separator. */
    private static final int SAMPLE_LINES = 20;

    /**
     * Splits one line into its cells with {@code separator} (as {@link #open} reads them).
     *
     * @param line      the line
     * @param separator the separator
     * @param path      the file, for messages
     * @param lineNo    the line number, for messages
     * @return the cells
     */
    public static List<String> splitLine(String line, char separator, Path path, long lineNo) {
        return new LineSplitter(separator).splitToList(line, path.toString(), lineNo);
    }

    /**
     * True if {@code cell} is a plain finite decimal number (what a numeric column accepts).
     *
     * @param cell a cell's text
     * @return whether it is a number
     */
    public static boolean isNumber(String cell) {
        return CellText.looksLikeFiniteNumber(cell);
    }

    /**
     * The separator {@link CsvRows} would detect from these first lines: ',', '\t', ';' or ' ' (whitespace runs).
     *
     * @param lines the first lines of a table
     * @return the separator
     */
    public static char detectSeparator(List<String> lines) {
        return LineSplitter.detectSeparator(lines);
    }

    private static BufferedReader reader(Path path) throws IOException {
        InputStream in = Files.newInputStream(path);
        if (path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".gz")) {
            in = new GZIPInputStream(in, 1 << 16);
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }

    /**
     * The schema the rows are read through.
     *
     * @return the schema
     */
    public Schema schema() {
        return schema;
    }

    /**
     * Whether the public centres are subtracted.
     *
     * @return true when centred
     */
    public boolean centred() {
        return centre;
    }

    /**
     * The separator used: ',', ';', '\t' or ' ' (runs of spaces and tabs).
     *
     * @return the separator
     */
    public char separator() {
        return separator;
    }

    /**
     * Whether the first line is the schema's header.
     *
     * @return true when there is a header
     */
    public boolean hasHeader() {
        return hasHeader;
    }

    /**
     * The comment prefix, or null when every line is data.
     *
     * @return the prefix, or null
     */
    public String commentPrefix() {
        return commentPrefix;
    }

    /**
     * Numeric cells clamped to their declared bounds in the last pass (−1 before any pass ended).
     *
     * @return the count, or −1
     */
    public long clampedCells() {
        return lastClamped.get();
    }

    @Override
    public int dimension() {
        return schema.dimension();
    }

    @Override
    public String describe() {
        return name;
    }

    @Override
    public RowCursor open() {
        return cursor(new String[schema.columns().size()]);
    }

    /**
     * One pass over the mapped rows, each handed to {@code sink} with the text of the schema's {@link Schema.Id id
     * column} (trimmed) and its line, in file order; errors as {@link #open()}'s passes give them.
     *
     * @param sink takes the rows
     * @return the number of rows
     * @throws IllegalStateException when the schema has no id column
     * @throws InvalidDataException  at the first bad line or cell
     */
    public long forEachRowWithId(CsvRows.RowWithId sink) {
        String idName = schema.idColumn().orElseThrow(() -> new IllegalStateException("the schema of " + name
                + " marks no column \"type\": \"id\""));
        int id = 0;
        while (!schema.columns().get(id).name().equals(idName)) {
            id++;
        }
        String[] cells = new String[schema.columns().size()];
        double[] row = new double[schema.dimension()];
        long n = 0;
        try (RowCursor c = cursor(cells)) {
            while (c.next(row)) {
                sink.accept(cells[id].trim(), row, c.line());
                n++;
            }
        }
        return n;
    }

    /** A pass whose current line's cells are left in {@code cells}. */
    private synchronized RowCursor cursor(String[] cells) {
        BufferedReader reader;
        if (path == null) {
            if (stream == null) {
                throw new IllegalStateException(name + " is a stream and was already read once; keep a copy of the "
                        + "rows for a second pass");
            }
            reader = stream;
            stream = null;
        } else {
            try {
                reader = reader(path);
            } catch (IOException e) {
                throw new InvalidDataException("cannot read " + path + ": " + IoErrors.inWords(e), e);
            }
        }
        LineSplitter splitter = new LineSplitter(separator);
        String where = name;
        int width = schema.columns().size();
        long[] clamped = new long[1];
        return new RowCursor() {
            private long rows;
            private long line;
            private long rowLine;
            private boolean ended;

            private String readLine() {
                try {
                    String s = reader.readLine();
                    if (s != null) {
                        line++;
                    }
                    return s;
                } catch (IOException e) {
                    throw new InvalidDataException("cannot read " + where + " after line " + line + ": "
                            + IoErrors.inWords(e), e);
                }
            }

            /** The next line that is not a comment, or null at the end. */
            private String readDataLine() {
                String s;
                do {
                    s = readLine();
                    if (s != null && line == 1 && !s.isEmpty() && s.charAt(0) == '\uFEFF') {
                        s = s.substring(1);
                    }
                } while (s != null && isComment(s, commentPrefix));
                return s;
            }

            @Override
            public boolean next(double[] into) {
                if (ended) {
                    return false;
                }
                if (line == 0) {
                    for (int i = 0; i < skipLines; i++) {
                        readLine();
                    }
                    if (hasHeader) {
                        readDataLine();
                    }
                }
                String text = readDataLine();
                if (text != null && text.isBlank()) {
                    long blank = line;
                    do {
                        text = readDataLine();
                    } while (text != null && text.isBlank());
                    if (text != null) {
                        throw blankInsideData(where, blank, line);
                    }
                }
                if (text == null) {
                    end();
                    return false;
                }
                List<String> c = splitter.splitToList(text, where, line);
                if (c.size() != width) {
                    throw ragged(where, line, c.size(), width);
                }
                c.toArray(cells);
                rowLine = line;
                schema.map(cells, into, centre, clamped, position());
                rows++;
                return true;
            }

            @Override
            public String position() {
                return where + " line " + rowLine;
            }

            @Override
            public long line() {
                return rows == 0 ? -1 : rowLine;
            }

            @Override
            public long rowsRead() {
                return rows;
            }

            private void end() {
                if (!ended) {
                    ended = true;
                    lastClamped.set(clamped[0]);
                }
            }

            @Override
            public void close() {
                end();
                try {
                    reader.close();
                } catch (IOException e) {
                    // nothing was written
                }
            }
        };
    }
}
