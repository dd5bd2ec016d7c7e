package io.dpspectra.data;

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
 *
 * <p>{@link #clampedCells()} counts the numeric cells clamped to their bounds in the last pass that
 * ended: a data-dependent count for the curator's diagnostics, not part of a release.
 */
public final class SchemaRows implements RowSource {
    private final Path path;
    private final Schema schema;
    private final boolean centre;
    private final char separator;
    private final int skipLines;
    private final boolean hasHeader;
    private final AtomicLong lastClamped = new AtomicLong(-1);

    private SchemaRows(Path path, Schema schema, boolean centre, char separator, int skipLines, boolean hasHeader) {
        this.path = path;
        this.schema = schema;
        this.centre = centre;
        this.separator = separator;
        this.skipLines = skipLines;
        this.hasHeader = hasHeader;
    }

    /**
     * Opens {@code path} through {@code schema}; {@code centre} subtracts the schema's public centres.
     *
     * @param separator ',', ';', '\t', ' ' (any run of spaces and tabs), or 0 to detect it from the first
     *                  lines as {@link CsvRows} does
     * @param skipLines lines to skip before the header or the first row (a title line, say)
     * @throws InvalidDataException when the file is empty or its columns are not the schema's
     */
    public static SchemaRows open(Path path, Schema schema, boolean centre, char separator, int skipLines) {
        if (skipLines < 0) {
            throw new IllegalArgumentException("lines to skip must be >= 0, got " + skipLines);
        }
        try (BufferedReader r = reader(path)) {
            for (int i = 0; i < skipLines; i++) {
                r.readLine();
            }
            List<String> sample = new java.util.ArrayList<>();
            for (String line = r.readLine(); line != null && sample.size() < SAMPLE_LINES; line = r.readLine()) {
                sample.add(sample.isEmpty() && !line.isEmpty() && line.charAt(0) == '\uFEFF' ? line.substring(1) : line);
            }
            Layout layout = layout(sample, schema, separator, path.toString(), skipLines);
            return new SchemaRows(path, schema, centre, layout.separator(), skipLines, layout.hasHeader());
        } catch (IOException e) {
            throw new InvalidDataException("cannot read " + path + ": " + e + "; check the path and (for .gz) that "
                    + "it is valid gzip", e);
        }
    }

    /** How a table's text is laid out for a schema: its separator, and whether its first line is a header. */
    public record Layout(char separator, boolean hasHeader) {
    }

    /**
     * The layout of a table from its first lines ({@code sample}, after the {@code skipLines} skipped
     * lines, a byte-order mark removed): the separator ({@code separator}, or detected when 0) and the
     * header (the first line is one iff its cells are the schema's names), checked against the schema as
     * {@link #open} checks a file; {@code name} names the table in messages. For readers of the same text
     * elsewhere (a cluster), so that they lay it out as this class does.
     *
     * @throws InvalidDataException when the sample is empty or its columns are not the schema's
     */
    public static Layout layout(List<String> sample, Schema schema, char separator, String name, int skipLines) {
        String first = sample.isEmpty() ? null : sample.get(0);
        if (first == null || first.isBlank()) {
            throw new InvalidDataException(name + ": no data rows after " + skipLines + " skipped line(s)");
        }
        char sep = separator != 0 ? separator : detectSeparator(sample);
        List<String> cells = new CsvRows.Splitter(sep).splitToList(first, name, skipLines + 1);
        List<Schema.Column> cols = schema.columns();
        boolean header = cells.size() == cols.size();
        for (int j = 0; header && j < cols.size(); j++) {
            header = cells.get(j).equals(cols.get(j).name());
        }
        if (!header && cells.size() == cols.size() && looksLikeHeader(cells, cols)) {
            for (int j = 0; j < cols.size(); j++) {
                if (!cells.get(j).equals(cols.get(j).name())) {
                    throw new InvalidDataException(name + ": column " + (j + 1) + " is \"" + cells.get(j)
                            + "\" in the file's header but \"" + cols.get(j).name() + "\" in the schema; the "
                            + "file's columns do not match the schema (use the schema written for this file)");
                }
            }
        }
        if (cells.size() != cols.size()) {
            throw new InvalidDataException(name + " line " + (skipLines + 1) + " has " + cells.size()
                    + " cells (separator '" + CsvRows.printable(sep) + "') but the schema lists " + cols.size()
                    + " columns; the schema must list every column of the file in order (mark unused ones "
                    + "\"ignore\"), or the separator or the lines to skip are wrong");
        }
        return new Layout(sep, header);
    }

    /** A header line with other names than the schema's: some cell a numeric column could not hold. */
    private static boolean looksLikeHeader(List<String> cells, List<Schema.Column> cols) {
        for (int j = 0; j < cols.size(); j++) {
            if (cols.get(j) instanceof Schema.Numeric && !CsvRows.looksLikeFiniteNumber(cells.get(j))) {
                return true;
            }
        }
        return false;
    }

    /** Lines sampled to detect the separator. */
    private static final int SAMPLE_LINES = 20;

    /** Splits one line into its cells with {@code separator} (as {@link #open} reads them). */
    public static List<String> splitLine(String line, char separator, Path path, long lineNo) {
        return new CsvRows.Splitter(separator).splitToList(line, path.toString(), lineNo);
    }

    /** True if {@code cell} is a plain finite decimal number (what a numeric column accepts). */
    public static boolean isNumber(String cell) {
        return CsvRows.looksLikeFiniteNumber(cell);
    }

    /** The separator {@link CsvRows} would detect from these first lines: ',', '\t', ';' or ' ' (whitespace runs). */
    public static char detectSeparator(List<String> lines) {
        return CsvRows.Builder.detectSeparator(lines);
    }

    private static BufferedReader reader(Path path) throws IOException {
        InputStream in = Files.newInputStream(path);
        if (path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".gz")) {
            in = new GZIPInputStream(in, 1 << 16);
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }

    public Schema schema() {
        return schema;
    }

    public boolean centred() {
        return centre;
    }

    /** The separator used: ',', ';', '\t' or ' ' (runs of spaces and tabs). */
    public char separator() {
        return separator;
    }

    public boolean hasHeader() {
        return hasHeader;
    }

    /** Numeric cells clamped to their declared bounds in the last pass (−1 before any pass ended). */
    public long clampedCells() {
        return lastClamped.get();
    }

    @Override
    public int dimension() {
        return schema.dimension();
    }

    @Override
    public String describe() {
        return path.toString();
    }

    @Override
    public RowCursor open() {
        BufferedReader reader;
        try {
            reader = reader(path);
        } catch (IOException e) {
            throw new InvalidDataException("cannot read " + path + ": " + e, e);
        }
        CsvRows.Splitter splitter = new CsvRows.Splitter(separator);
        String where = path.toString();
        int width = schema.columns().size();
        String[] cells = new String[width];
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
                    throw new InvalidDataException("cannot read " + path + " after line " + line + ": " + e, e);
                }
            }

            @Override
            public boolean next(double[] into) {
                if (ended) {
                    return false;
                }
                if (line == 0) {
                    for (int i = 0; i < skipLines + (hasHeader ? 1 : 0); i++) {
                        readLine();
                    }
                }
                String text = readLine();
                if (text != null && rows == 0 && line == 1 && !text.isEmpty() && text.charAt(0) == '\uFEFF') {
                    text = text.substring(1);
                }
                if (text != null && text.isBlank()) {
                    long blank = line;
                    do {
                        text = readLine();
                    } while (text != null && text.isBlank());
                    if (text != null) {
                        throw new InvalidDataException(path + " line " + blank + " is blank but data follow on line "
                                + line + "; remove blank lines inside the data");
                    }
                }
                if (text == null) {
                    end();
                    return false;
                }
                List<String> c = splitter.splitToList(text, where, line);
                if (c.size() != width) {
                    throw new InvalidDataException(path + " line " + line + " has " + c.size() + " cells but the "
                            + "schema lists " + width + " columns; fix the ragged line");
                }
                c.toArray(cells);
                rowLine = line;
                schema.map(cells, into, centre, clamped, position());
                rows++;
                return true;
            }

            @Override
            public String position() {
                return path + " line " + rowLine;
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
