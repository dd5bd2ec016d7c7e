package io.dpspectra.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Rows streamed from a CSV file (comma-separated, optional header), one pass per {@link #open()}.
 * Strict: a non-numeric, NaN, infinite or missing cell, or a row with the wrong number of cells, is an
 * {@link InvalidDataException} naming the file, line and column.
 *
 * <p>The file is never held in memory: every {@link #open()} re-reads it from disk (through gzip when
 * the name ends in {@code .gz}), so the source can be passed over as many times as an algorithm needs.
 * {@link Builder#build()} reads only the first line or two, to fix the header and the width d.
 *
 * <p>Format: one record per line; cells separated by the separator (default {@code ','}); a cell may
 * be wrapped in double quotes (a doubled quote {@code ""} inside stands for one quote; a quoted cell
 * may not span lines); whitespace around a cell is ignored; a UTF-8 byte-order mark is skipped. With
 * separator {@code ' '} any run of spaces and tabs separates cells. Blank lines at the end of the file
 * are allowed; a blank line followed by more data is an error (it usually means a truncated or
 * concatenated file). Numbers are decimal ({@code 1}, {@code -2.5}, {@code 3e-4}); hexadecimal and
 * Java suffixes such as {@code 1d} are rejected.
 *
 * <p>Cost: one sequential read of the file per pass, O(d) memory.
 */
public final class CsvRows implements RowSource {

    /** Whether the first line is a header. */
    public enum Header { AUTO, PRESENT, ABSENT }

    private static final String COLUMNS_REMEDY = "clean the file or select other columns with --columns";

    private final Path path;
    private final char separator;
    private final boolean hasHeader;
    private final int fileColumns;
    private final int[] selected;
    private final List<String> selectedNames;
    private final List<String> fileNames;

    private CsvRows(Path path, char separator, boolean hasHeader, int fileColumns, int[] selected,
            List<String> selectedNames, List<String> fileNames) {
        this.path = path;
        this.separator = separator;
        this.hasHeader = hasHeader;
        this.fileColumns = fileColumns;
        this.selected = selected;
        this.selectedNames = selectedNames;
        this.fileNames = fileNames;
    }

    /** Opens {@code path} with header detection and all columns. */
    public static CsvRows open(Path path) {
        return builder(path).build();
    }

    public static Builder builder(Path path) {
        return new Builder(path);
    }

    /** Options for reading a CSV file. */
    public static final class Builder {
        private final Path path;
        private Header header = Header.AUTO;
        private List<String> columnTokens;
        private int[] columnIndices;
        private char separator = ',';

        private Builder(Path path) {
            if (path == null) {
                throw new IllegalArgumentException("path must not be null; pass the CSV file to read");
            }
            this.path = path;
        }

        /** AUTO (default): the first line is a header if any of its (selected) cells is not a number. */
        public Builder header(Header header) {
            if (header == null) {
                throw new IllegalArgumentException("header must be AUTO, PRESENT or ABSENT, got null");
            }
            this.header = header;
            return this;
        }

        /**
         * Keep only these columns, in this order, by header name or by 1-based index written as a
         * number ("1" is the first column of the file). A token that equals a header name is taken as
         * that name, even if it looks like a number.
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

        /** Keep only these columns, in this order, by 0-based index into the file's cells (Java API). */
        public Builder columnIndices(int... zeroBasedIndices) {
            if (zeroBasedIndices == null || zeroBasedIndices.length == 0) {
                throw new IllegalArgumentException("columnIndices must list at least one 0-based index, got none");
            }
            this.columnIndices = zeroBasedIndices.clone();
            this.columnTokens = null;
            return this;
        }

        /**
         * The field separator (default ','). {@code ' '} means "any run of spaces or tabs"; a quote or a
         * line break cannot be a separator.
         */
        public Builder separator(char separator) {
            if (separator == '"' || separator == '\n' || separator == '\r') {
                throw new IllegalArgumentException("separator must not be a quote or line break, got "
                        + printable(separator) + "; use ',', ';', '\\t' or ' '");
            }
            this.separator = separator;
            return this;
        }

        /** Reads the first line(s) to fix the width and header; errors name the file. */
        public CsvRows build() {
            Splitter splitter = new Splitter(separator);
            try (BufferedReader reader = openReader(path)) {
                String first = reader.readLine();
                int lineNo = 1;
                if (first != null && !first.isEmpty() && first.charAt(0) == '\uFEFF') {
                    first = first.substring(1);
                }
                if (first == null || first.isBlank()) {
                    throw new InvalidDataException(path + ": no data rows (the file is empty"
                            + (first == null ? "" : " or starts with a blank line")
                            + "); provide a file with at least one row of numbers");
                }
                List<String> cells = splitter.splitToList(first, path, lineNo);
                int width = cells.size();
                int[] sel = resolveIndicesWithoutNames(width);
                boolean header = switch (this.header) {
                    case PRESENT -> true;
                    case ABSENT -> false;
                    case AUTO -> sel == null || anyNonNumeric(cells, sel);
                };
                List<String> fileNames;
                if (header) {
                    fileNames = List.copyOf(cells);
                } else {
                    List<String> gen = new ArrayList<>(width);
                    for (int j = 0; j < width; j++) {
                        gen.add("x" + (j + 1));
                    }
                    fileNames = Collections.unmodifiableList(gen);
                }
                if (sel == null) {
                    if (this.header == Header.AUTO && !anyNonNumeric(cells, allColumns(width))) {
                        throw new IllegalArgumentException(path + ": columns " + columnTokens + " are selected by"
                                + " name, but the first line " + abbreviate(first) + " looks like data, not a"
                                + " header; select columns by 1-based number, or pass --header present");
                    }
                    if (!header) {
                        throw new IllegalArgumentException(path + ": columns " + columnTokens
                                + " name header columns, but the file has no header (its first line is "
                                + abbreviate(first) + "); select columns by 1-based number instead");
                    }
                    sel = resolveWithNames(cells);
                }
                List<String> names = new ArrayList<>(sel.length);
                if (header) {
                    for (int j : sel) {
                        names.add(fileNames.get(j));
                    }
                } else {
                    for (int j = 0; j < sel.length; j++) {
                        names.add("x" + (j + 1));
                    }
                }
                if (header) {
                    String second = reader.readLine();
                    lineNo++;
                    while (second != null && second.isBlank()) {
                        second = reader.readLine();
                        lineNo++;
                    }
                    if (second == null) {
                        throw new InvalidDataException(path + ": no data rows (only a header line "
                                + abbreviate(first) + "); provide at least one row of numbers, or pass "
                                + "--header absent if the first line is data");
                    }
                }
                return new CsvRows(path, separator, header, width, sel, List.copyOf(names), fileNames);
            } catch (IOException e) {
                throw new InvalidDataException("cannot read " + path + ": " + e
                        + "; check that the file exists, is readable and (for .gz) is valid gzip", e);
            }
        }

        /** Indices when the selection needs no header; null when it uses names (or selects all with AUTO). */
        private int[] resolveIndicesWithoutNames(int width) {
            if (columnIndices != null) {
                int[] sel = columnIndices.clone();
                for (int j : sel) {
                    if (j < 0 || j >= width) {
                        throw new IllegalArgumentException(path + ": column index " + j + " is out of range; the"
                                + " file has " + width + " columns (0-based indices 0.." + (width - 1) + ")");
                    }
                }
                checkDistinct(sel);
                return sel;
            }
            if (columnTokens == null) {
                return allColumns(width);
            }
            if (header == Header.PRESENT) {
                return null;
            }
            int[] sel = new int[columnTokens.size()];
            for (int i = 0; i < sel.length; i++) {
                String t = columnTokens.get(i).trim();
                Integer oneBased = parsePositiveInt(t);
                if (oneBased == null) {
                    if (header == Header.ABSENT) {
                        throw new IllegalArgumentException(path + ": column \"" + t + "\" is not a column number"
                                + " and the file has no header (--header absent); select columns by 1-based"
                                + " number, e.g. --columns 1,3");
                    }
                    return null;
                }
                sel[i] = checkRange(oneBased, t, width);
            }
            checkDistinct(sel);
            return sel;
        }

        private int[] resolveWithNames(List<String> headerCells) {
            Map<String, Integer> byName = new HashMap<>();
            for (int j = headerCells.size() - 1; j >= 0; j--) {
                byName.put(headerCells.get(j), j);
            }
            int[] sel = new int[columnTokens.size()];
            for (int i = 0; i < sel.length; i++) {
                String t = columnTokens.get(i).trim();
                Integer j = byName.get(t);
                if (j == null) {
                    Integer oneBased = parsePositiveInt(t);
                    if (oneBased == null) {
                        throw new IllegalArgumentException(path + ": no column named \"" + t + "\"; the header"
                                + " has " + headerCells + "; select columns by these names or by 1-based number");
                    }
                    j = checkRange(oneBased, t, headerCells.size());
                }
                sel[i] = j;
            }
            checkDistinct(sel);
            return sel;
        }

        private int checkRange(int oneBased, String token, int width) {
            if (oneBased > width) {
                throw new IllegalArgumentException(path + ": column " + token + " is out of range; the file has "
                        + width + " columns (numbered 1.." + width + ")");
            }
            return oneBased - 1;
        }

        private void checkDistinct(int[] sel) {
            int[] sorted = sel.clone();
            Arrays.sort(sorted);
            for (int i = 1; i < sorted.length; i++) {
                if (sorted[i] == sorted[i - 1]) {
                    throw new IllegalArgumentException(path + ": column " + (sorted[i] + 1)
                            + " is selected twice; list each column once");
                }
            }
        }

        /**
         * True if a selected cell is text that cannot be a (possibly bad) data value: empty cells and
         * NaN/infinity/NA markers are not taken as evidence of a header, so a first data row with a
         * missing value is reported as bad data instead of being silently skipped as a header.
         */
        private static boolean anyNonNumeric(List<String> cells, int[] sel) {
            for (int j : sel) {
                String c = cells.get(j).trim();
                if (!c.isEmpty() && !looksLikeFiniteNumber(c) && !isNonFiniteOrMissingMarker(c)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The header names of the selected columns (generated as "x1".."xd" when there is no header). */
    public List<String> columnNames() {
        return selectedNames;
    }

    /** True if the first line was read as a header. */
    public boolean hasHeader() {
        return hasHeader;
    }

    /** The file this source reads. */
    public Path path() {
        return path;
    }

    @Override
    public int dimension() {
        return selected.length;
    }

    @Override
    public String describe() {
        return path.toString();
    }

    @Override
    public RowCursor open() {
        BufferedReader reader;
        try {
            reader = openReader(path);
        } catch (IOException e) {
            throw new InvalidDataException("cannot read " + path + ": " + e
                    + "; check that the file still exists and is readable", e);
        }
        return new Cursor(reader);
    }

    private final class Cursor implements RowCursor {
        private final BufferedReader reader;
        private final Splitter splitter = new Splitter(separator);
        private final int[] starts = new int[fileColumns + 1];
        private final int[] ends = new int[fileColumns + 1];
        private long line;
        private long lastRowLine;
        private long rows;
        private boolean finished;
        private boolean closed;
        /** File line of each row of the last block (rows blockFirstRow, blockFirstRow + 1, ...). */
        private long[] blockLines = new long[0];
        private long blockFirstRow = 1;
        private int blockCount;

        Cursor(BufferedReader reader) {
            this.reader = reader;
        }

        @Override
        public boolean next(double[] into) {
            if (closed) {
                throw new IllegalStateException("cursor over " + path + " is closed; open a new pass");
            }
            if (finished) {
                return false;
            }
            if (into.length < selected.length) {
                throw new IllegalArgumentException("row buffer has length " + into.length + " but " + path
                        + " has " + selected.length + " selected columns; pass a buffer of length dimension()");
            }
            String text = readLine();
            if (line == 1 && text != null && !text.isEmpty() && text.charAt(0) == '\uFEFF') {
                text = text.substring(1);
            }
            if (line == 1 && hasHeader) {
                text = readLine();
            }
            if (text != null && text.isBlank()) {
                long blankLine = line;
                do {
                    text = readLine();
                } while (text != null && text.isBlank());
                if (text != null) {
                    throw new InvalidDataException(path + " line " + blankLine + " is blank but data follows on line "
                            + line + "; remove blank lines inside the data (only trailing blank lines are allowed)");
                }
            }
            if (text == null) {
                finished = true;
                return false;
            }
            int found = splitter.split(text, starts, ends, path, line);
            if (found != fileColumns) {
                throw new InvalidDataException(path + " line " + line + " has " + cellCount(found) + " but "
                        + (hasHeader ? "the header has " : "the first line has ") + fileColumns
                        + " (separator '" + printable(separator) + "'); fix the ragged line, or check the"
                        + " separator (--separator)");
            }
            for (int i = 0; i < selected.length; i++) {
                int j = selected[i];
                into[i] = parseCell(text, starts[j], ends[j], j);
            }
            rows++;
            lastRowLine = line;
            return true;
        }

        private String cellCount(int found) {
            return found > fileColumns ? (found + " or more cells") : (found + " cells");
        }

        private double parseCell(String text, int start, int end, int column) {
            String cell = Splitter.unquote(text, start, end);
            if (cell.isEmpty()) {
                throw cellError(column, cell, "is empty (a missing value)");
            }
            if (looksLikeFiniteNumber(cell)) {
                double v;
                try {
                    v = Double.parseDouble(cell);
                } catch (NumberFormatException e) {
                    throw cellError(column, cell, "is not a number");
                }
                if (Double.isInfinite(v)) {
                    throw cellError(column, cell, "overflows to infinity (beyond ±1.8e308)");
                }
                return v;
            }
            String lower = cell.toLowerCase(java.util.Locale.ROOT);
            if (lower.matches("[+-]?nan")) {
                throw cellError(column, cell, "is NaN (not a number)");
            }
            if (lower.matches("[+-]?(inf|infinity)")) {
                throw cellError(column, cell, "is infinite");
            }
            if (lower.equals("na") || lower.equals("n/a") || lower.equals("null") || lower.equals("none")) {
                throw cellError(column, cell, "is a missing-value marker");
            }
            throw cellError(column, cell, "is not a number");
        }

        private InvalidDataException cellError(int column, String cell, String what) {
            return new InvalidDataException(path + " line " + line + ", " + describeColumn(column) + ": value \""
                    + abbreviate(cell) + "\" " + what + "; every selected cell must be a finite number: "
                    + COLUMNS_REMEDY);
        }

        private String readLine() {
            try {
                String s = reader.readLine();
                if (s != null) {
                    line++;
                }
                return s;
            } catch (IOException e) {
                throw new InvalidDataException("cannot read " + path + " after line " + line + ": " + e
                        + "; check that the file is complete and (for .gz) not truncated", e);
            }
        }

        @Override
        public String position() {
            return path + " line " + lastRowLine;
        }

        /** Reads row by row (parsing dominates), remembering each row's line for {@link #positionOfRow}. */
        @Override
        public int nextBlock(double[] block, int maxRows, int d) {
            if ((long) maxRows * d > block.length) {
                throw new IllegalArgumentException("block has length " + block.length + ", too small for " + maxRows
                        + " rows of width " + d);
            }
            if (blockLines.length < maxRows) {
                blockLines = new long[maxRows];
            }
            double[] row = new double[d];
            blockFirstRow = rows + 1;
            int k = 0;
            while (k < maxRows && next(row)) {
                System.arraycopy(row, 0, block, k * d, d);
                blockLines[k++] = lastRowLine;
            }
            blockCount = k;
            return k;
        }

        @Override
        public String positionOfRow(long row) {
            long i = row - blockFirstRow;
            if (row == rows) {
                return position();
            }
            return i >= 0 && i < blockCount ? path + " line " + blockLines[(int) i] : path + " row " + row;
        }

        @Override
        public long rowsRead() {
            return rows;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                try {
                    reader.close();
                } catch (IOException e) {
                    // nothing was written; a failed close of a reader loses nothing
                }
            }
        }
    }

    private String describeColumn(int fileColumn) {
        String name = fileNames.get(fileColumn);
        if (hasHeader) {
            return "column " + (fileColumn + 1) + " \"" + name + "\" (0-based index " + fileColumn + ")";
        }
        return "column " + (fileColumn + 1) + " (0-based index " + fileColumn + ")";
    }

    private static BufferedReader openReader(Path path) throws IOException {
        InputStream in = Files.newInputStream(path);
        try {
            if (path.getFileName() != null && path.getFileName().toString().toLowerCase(java.util.Locale.ROOT)
                    .endsWith(".gz")) {
                in = new GZIPInputStream(in, 1 << 16);
            }
        } catch (IOException e) {
            in.close();
            throw e;
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }

    /** Plain decimal: optional sign, digits with at most one point, optional exponent. */
    static boolean looksLikeFiniteNumber(String s) {
        int n = s.length();
        int i = 0;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int digits = 0;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
            digits++;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return false;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int exp = 0;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                exp++;
            }
            if (exp == 0) {
                return false;
            }
        }
        return i == n;
    }

    private static int[] allColumns(int width) {
        int[] all = new int[width];
        for (int j = 0; j < width; j++) {
            all[j] = j;
        }
        return all;
    }

    static boolean isNonFiniteOrMissingMarker(String cell) {
        String lower = cell.toLowerCase(java.util.Locale.ROOT);
        return lower.matches("[+-]?(nan|inf|infinity)") || lower.equals("na") || lower.equals("n/a")
                || lower.equals("null") || lower.equals("none");
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static Integer parsePositiveInt(String t) {
        if (t.isEmpty() || t.length() > 9) {
            return null;
        }
        for (int i = 0; i < t.length(); i++) {
            if (!isDigit(t.charAt(i))) {
                return null;
            }
        }
        int v = Integer.parseInt(t);
        return v >= 1 ? v : null;
    }

    static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }

    static String printable(char c) {
        return switch (c) {
            case '\t' -> "\\t";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            default -> String.valueOf(c);
        };
    }

    /** Splits one line into cells, recording [start, end) of each raw cell (quotes kept, whitespace trimmed). */
    static final class Splitter {
        private final char sep;
        private final boolean whitespace;

        Splitter(char sep) {
            this.sep = sep;
            this.whitespace = sep == ' ';
        }

        List<String> splitToList(String text, Path path, long line) {
            int[] s = new int[text.length() + 2];
            int[] e = new int[text.length() + 2];
            int n = split(text, s, e, path, line);
            List<String> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(unquote(text, s[i], e[i]));
            }
            return out;
        }

        /**
         * Records up to starts.length cells; returns the number of cells found, or starts.length when
         * there are more (callers size the arrays one larger than the expected count).
         */
        int split(String text, int[] starts, int[] ends, Path path, long line) {
            int n = text.length();
            int count = 0;
            int i = 0;
            if (whitespace) {
                while (i < n && isBlank(text.charAt(i))) {
                    i++;
                }
                if (i == n) {
                    return 0;
                }
            }
            while (true) {
                // skip leading whitespace of the cell
                while (i < n && isBlank(text.charAt(i)) && !(text.charAt(i) == sep)) {
                    i++;
                }
                int start = i;
                int end;
                if (i < n && text.charAt(i) == '"') {
                    i++;
                    while (true) {
                        if (i >= n) {
                            throw new InvalidDataException(path + " line " + line + ": a quoted cell starting at"
                                    + " character " + (start + 1) + " is not closed; close the quote (quoted"
                                    + " cells may not span lines)");
                        }
                        if (text.charAt(i) == '"') {
                            if (i + 1 < n && text.charAt(i + 1) == '"') {
                                i += 2;
                                continue;
                            }
                            i++;
                            break;
                        }
                        i++;
                    }
                    end = i;
                    while (i < n && isBlank(text.charAt(i)) && text.charAt(i) != sep && !whitespace) {
                        i++;
                    }
                    if (i < n && !isSeparatorAt(text, i)) {
                        throw new InvalidDataException(path + " line " + line + ": unexpected text after the"
                                + " closing quote at character " + i + "; put the whole cell inside the quotes");
                    }
                } else {
                    while (i < n && !isSeparatorAt(text, i)) {
                        i++;
                    }
                    end = i;
                    while (end > start && isBlank(text.charAt(end - 1))) {
                        end--;
                    }
                }
                if (count < starts.length) {
                    starts[count] = start;
                    ends[count] = end;
                }
                count++;
                if (count >= starts.length) {
                    return starts.length;
                }
                if (i >= n) {
                    return count;
                }
                // consume the separator
                if (whitespace) {
                    while (i < n && isBlank(text.charAt(i))) {
                        i++;
                    }
                    if (i == n) {
                        return count;
                    }
                } else {
                    i++;
                }
            }
        }

        private boolean isSeparatorAt(String text, int i) {
            char c = text.charAt(i);
            return whitespace ? isBlank(c) : c == sep;
        }

        private static boolean isBlank(char c) {
            return c == ' ' || c == '\t';
        }

        /** The cell text without its surrounding quotes, with doubled quotes undone. */
        static String unquote(String text, int start, int end) {
            if (end - start >= 2 && text.charAt(start) == '"' && text.charAt(end - 1) == '"') {
                String inner = text.substring(start + 1, end - 1);
                return (inner.indexOf('"') >= 0 ? inner.replace("\"\"", "\"") : inner).trim();
            }
            return text.substring(start, end);
        }
    }
}
