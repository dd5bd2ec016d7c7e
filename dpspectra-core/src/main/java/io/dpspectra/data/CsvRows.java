package io.dpspectra.data;

import io.dpspectra.linalg.Backend;
import io.dpspectra.linalg.Gram;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
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
import java.util.function.LongConsumer;
import java.util.function.LongFunction;
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

    private static final String COLUMNS_REMEDY = "clean the file or select other columns with --columns";
    /** Lines looked at to detect the separator. */
    private static final int SAMPLE_LINES = 20;

    private final Path path;
    private final String name;
    private final InputStream stream;
    private final byte separator;
    private final boolean separatorDetected;
    private final byte[] comment;
    private final long preambleLines;
    private final boolean hasHeader;
    private final int fileColumns;
    private final int[] selected;
    /** For each file column, its position among the selected columns, or −1. */
    private final int[] slot;
    private final List<String> selectedNames;
    private final List<String> fileNames;
    private boolean streamOpened;

    private CsvRows(Builder b, InputStream stream, byte separator, boolean separatorDetected, long preambleLines,
            boolean hasHeader, int fileColumns, int[] selected, List<String> selectedNames, List<String> fileNames) {
        this.path = b.path;
        this.name = b.name;
        this.stream = stream;
        this.separator = separator;
        this.separatorDetected = separatorDetected;
        this.comment = b.commentPrefix == null ? null : b.commentPrefix.getBytes(StandardCharsets.UTF_8);
        this.preambleLines = preambleLines;
        this.hasHeader = hasHeader;
        this.fileColumns = fileColumns;
        this.selected = selected;
        this.slot = new int[fileColumns];
        Arrays.fill(slot, -1);
        for (int i = 0; i < selected.length; i++) {
            slot[selected[i]] = i;
        }
        this.selectedNames = selectedNames;
        this.fileNames = fileNames;
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
            Piece p = rows.parsePiece(data, data.length, spare);
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
                        + printable(separator) + "; use ',', ';', '\\t' or ' '");
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
         * Reads the first lines to fix the separator, width and header; errors name the file.
         *
         * @return the source
         * @throws InvalidDataException when the first lines cannot be read as a table, or a selected column does not
         *                              exist
         */
        public CsvRows build() {
            Sample sample;
            InputStream replay = null;
            try {
                if (stream != null) {
                    sample = Sample.read(stream, skipLines, commentPrefix);
                    replay = new SequenceInputStream(new ByteArrayInputStream(sample.head), stream);
                } else {
                    try (InputStream in = openStream(path)) {
                        sample = Sample.read(in, skipLines, commentPrefix);
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
            char sep = detected ? detectSeparator(sample.contentLines()) : separator;
            Splitter splitter = new Splitter(sep);
            long firstLine = sample.firstContentLine();
            List<String> cells = splitter.splitToList(first, name, firstLine);
            int width = cells.size();
            if (headerNames != null && headerNames.size() != width) {
                throw new IllegalArgumentException(name + ": --header-names gives " + headerNames.size()
                        + " names but the file has " + width + " columns (line " + firstLine + ": "
                        + abbreviate(first) + "); give one name per column");
            }
            int[] sel = resolveIndicesWithoutNames(columnIndices, columnTokens, width);
            if (sel == null && headerNames != null) {
                sel = resolveTokens(columnTokens, headerNames, width, "--columns");
            }
            boolean header = switch (this.header) {
                case PRESENT -> true;
                case ABSENT -> false;
                case AUTO -> sel == null || anyNonNumeric(cells, sel);
            };
            if (sel == null && this.header == Header.AUTO
                    && !anyNonNumeric(cells, allColumns(width))) {
                throw new IllegalArgumentException(name + ": columns " + columnTokens + " are selected by"
                        + " name, but the first line " + abbreviate(first) + " looks like data, not a"
                        + " header; select columns by 1-based number, pass --header present, or name the"
                        + " columns with --header-names");
            }
            List<String> nameList = headerNames != null ? headerNames : header ? List.copyOf(cells) : null;
            if (sel == null) {
                if (nameList == null && this.header == Header.AUTO) {
                    throw new IllegalArgumentException(name + ": columns " + columnTokens + " are selected by"
                            + " name, but the first line " + abbreviate(first) + " looks like data, not a"
                            + " header; select columns by 1-based number, pass --header present, or name the"
                            + " columns with --header-names");
                }
                if (nameList == null) {
                    throw new IllegalArgumentException(name + ": columns " + columnTokens
                            + " name header columns, but the file has no header (its first line is "
                            + abbreviate(first) + "); select columns by 1-based number, or name the columns"
                            + " with --header-names");
                }
                sel = resolveTokens(columnTokens, nameList, width, "--columns");
            }
            if (excludeTokens != null) {
                int[] excluded = resolveIndicesWithoutNames(null, excludeTokens, width);
                if (excluded == null) {
                    if (nameList == null) {
                        throw new IllegalArgumentException(name + ": --exclude-columns " + excludeTokens
                                + " names header columns, but the file has no header; exclude columns by"
                                + " 1-based number, or name the columns with --header-names");
                    }
                    excluded = resolveTokens(excludeTokens, nameList, width, "--exclude-columns");
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
                        + abbreviate(first) + "); provide at least one row of numbers, or pass "
                        + "--header absent if the first line is data");
            }
            long preamble = header ? firstLine : skipLines;
            return new CsvRows(this, replay, (byte) sep, detected, preamble, header, width, sel,
                    List.copyOf(names), fileNames);
        }

        /**
         * Indices when the selection needs no header (numbers and ranges of numbers); null when it uses
         * names (or selects all with AUTO).
         */
        private int[] resolveIndicesWithoutNames(int[] indices, List<String> tokens, int width) {
            if (indices != null) {
                int[] sel = indices.clone();
                for (int j : sel) {
                    if (j < 0 || j >= width) {
                        throw new IllegalArgumentException(name + ": column index " + j + " is out of range; the"
                                + " file has " + width + " columns (0-based indices 0.." + (width - 1) + ")");
                    }
                }
                checkDistinct(sel);
                return sel;
            }
            if (tokens == null) {
                return allColumns(width);
            }
            if (header == Header.PRESENT) {
                return null;
            }
            List<Integer> sel = new ArrayList<>();
            for (String token : tokens) {
                String t = token.trim();
                int[] range = numericRange(t);
                if (range == null) {
                    if (header == Header.ABSENT && headerNames == null) {
                        throw new IllegalArgumentException(name + ": column \"" + t + "\" is not a column number"
                                + " and the file has no header (--header absent); select columns by 1-based"
                                + " number, e.g. --columns 1,3, or name the columns with --header-names");
                    }
                    return null;
                }
                for (int c = range[0]; c <= range[1]; c++) {
                    sel.add(checkRange(c, t, width));
                }
            }
            int[] out = sel.stream().mapToInt(Integer::intValue).toArray();
            checkDistinct(out);
            return out;
        }

        /** {from, to} (1-based, inclusive) for "5" or "1-617"; null if not numeric; 0 is refused. */
        private static int[] numericRange(String t) {
            int dash = t.indexOf('-', 1);
            String lo = dash < 0 ? t : t.substring(0, dash).trim();
            String hi = dash < 0 ? t : t.substring(dash + 1).trim();
            Integer a = parseColumnNumber(lo);
            Integer b = parseColumnNumber(hi);
            if (a == null || b == null) {
                return null;
            }
            if (a > b) {
                throw new IllegalArgumentException("column range " + t + " runs backwards; write it low-high, e.g. "
                        + b + "-" + a);
            }
            return new int[] {a, b};
        }

        private int[] resolveTokens(List<String> tokens, List<String> headerCells, int width, String option) {
            Map<String, Integer> byName = new HashMap<>();
            for (int j = headerCells.size() - 1; j >= 0; j--) {
                byName.put(headerCells.get(j), j);
            }
            List<Integer> sel = new ArrayList<>();
            for (String token : tokens) {
                String t = token.trim();
                Integer j = byName.get(t);
                if (j != null) {
                    if (headerCells.lastIndexOf(t) != j) {
                        throw new IllegalArgumentException(name + ": " + option + " " + t + " is ambiguous: columns "
                                + (j + 1) + " and " + (headerCells.lastIndexOf(t) + 1) + " are both named \"" + t
                                + "\"; select by 1-based number instead");
                    }
                    sel.add(j);
                    continue;
                }
                int[] range = numericRange(t);
                if (range == null) {
                    // a range of names: any dash may be the one between them ("capital-gain-hours-per-week")
                    Integer lo = null;
                    Integer hi = null;
                    for (int dash = t.indexOf('-', 1); dash > 0 && (lo == null || hi == null);
                            dash = t.indexOf('-', dash + 1)) {
                        lo = byName.get(t.substring(0, dash).trim());
                        hi = byName.get(t.substring(dash + 1).trim());
                    }
                    if (lo == null || hi == null) {
                        throw new IllegalArgumentException(name + ": no column named \"" + t + "\"; the header"
                                + " has " + abbreviate(headerCells.toString(), 300) + "; select columns by these"
                                + " names or by 1-based number (" + option + ")");
                    }
                    if (lo > hi) {
                        throw new IllegalArgumentException("column range " + t + " runs backwards; write it "
                                + "first-last in file order");
                    }
                    range = new int[] {lo + 1, hi + 1};
                }
                for (int c = range[0]; c <= range[1]; c++) {
                    sel.add(checkRange(c, t, width));
                }
            }
            int[] out = sel.stream().mapToInt(Integer::intValue).toArray();
            checkDistinct(out);
            return out;
        }

        private int checkRange(int oneBased, String token, int width) {
            if (oneBased > width) {
                throw new IllegalArgumentException(name + ": column " + token + " is out of range; the file has "
                        + width + " columns (numbered 1.." + width + ")");
            }
            return oneBased - 1;
        }

        private void checkDistinct(int[] sel) {
            int[] sorted = sel.clone();
            Arrays.sort(sorted);
            for (int i = 1; i < sorted.length; i++) {
                if (sorted[i] == sorted[i - 1]) {
                    throw new IllegalArgumentException(name + ": column " + (sorted[i] + 1)
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

        /**
         * The first of ',', tab, ';' and whitespace runs that splits every sampled line into the same
         * number (≥ 2) of cells; failing that, the one that splits the most lines into ≥ 2 cells (the
         * reading then names the ragged line); ',' for a single column.
         */
        static char detectSeparator(List<String> lines) {
            char[] candidates = {',', '\t', ';', ' '};
            char best = ',';
            int bestMulti = 0;
            for (char c : candidates) {
                Splitter s = new Splitter(c);
                int count = -1;
                boolean consistent = true;
                int multi = 0;
                for (String line : lines) {
                    if (line.isBlank()) {
                        continue;
                    }
                    int n;
                    try {
                        n = s.count(line);
                    } catch (LineSyntaxException e) {
                        consistent = false;
                        continue;
                    }
                    if (n >= 2) {
                        multi++;
                    }
                    if (count < 0) {
                        count = n;
                    } else if (n != count) {
                        consistent = false;
                    }
                }
                if (consistent && count >= 2) {
                    return c;
                }
                if (multi > bestMulti) {
                    bestMulti = multi;
                    best = c;
                }
            }
            return best;
        }
    }

    /** The first lines of the input, decoded; line i of the list is line i + 1 of the file. */
    private static final class Sample {
        final byte[] head;
        final List<String> lines = new ArrayList<>();
        final int skipLines;
        final String commentPrefix;
        final boolean complete;

        private Sample(byte[] head, int skipLines, String commentPrefix, boolean complete) {
            this.head = head;
            this.skipLines = skipLines;
            this.commentPrefix = commentPrefix;
            this.complete = complete;
        }

        /** Reads whole lines until skipLines + SAMPLE_LINES + 1 lines past the comments, or the end. */
        static Sample read(InputStream in, int skipLines, String commentPrefix) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            byte[] buf = new byte[1 << 16];
            long wanted = (long) skipLines + SAMPLE_LINES + 1;
            long breaks = 0;
            boolean eof = false;
            while (breaks < wanted) {
                int n = in.read(buf);
                if (n < 0) {
                    eof = true;
                    break;
                }
                head.write(buf, 0, n);
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        breaks++;
                    }
                }
                if (breaks >= wanted && commentPrefix != null) {
                    // comment lines do not count towards the sample
                    wanted += countComments(head.toByteArray(), commentPrefix);
                    if (wanted > 100_000) {
                        break;
                    }
                }
            }
            byte[] bytes = head.toByteArray();
            Sample s = new Sample(bytes, skipLines, commentPrefix, eof);
            int start = bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB
                    && (bytes[2] & 0xff) == 0xBF ? 3 : 0;
            int lineStart = start;
            for (int i = start; i <= bytes.length; i++) {
                if (i == bytes.length || bytes[i] == '\n') {
                    if (i == bytes.length && (lineStart == i || !eof)) {
                        break; // no partial last line unless the input ended there
                    }
                    int end = i > lineStart && bytes[i - 1] == '\r' ? i - 1 : i;
                    s.lines.add(new String(bytes, lineStart, end - lineStart, StandardCharsets.UTF_8));
                    lineStart = i + 1;
                }
            }
            return s;
        }

        private static int countComments(byte[] bytes, String prefix) {
            int n = 0;
            for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
                if (line.strip().startsWith(prefix)) {
                    n++;
                }
            }
            return n;
        }

        private boolean isComment(String line) {
            return commentPrefix != null && line.strip().startsWith(commentPrefix);
        }

        String firstContent() {
            int i = firstContentIndex();
            return i < 0 ? null : lines.get(i);
        }

        long firstContentLine() {
            return firstContentIndex() + 1L;
        }

        int firstContentIndex() {
            for (int i = skipLines; i < lines.size(); i++) {
                if (!isComment(lines.get(i))) {
                    return i;
                }
            }
            return -1;
        }

        List<String> contentLines() {
            List<String> out = new ArrayList<>();
            int i = firstContentIndex();
            for (; i >= 0 && i < lines.size() && out.size() < SAMPLE_LINES; i++) {
                if (!isComment(lines.get(i))) {
                    out.add(lines.get(i));
                }
            }
            return out;
        }

        boolean hasContentAfterFirst() {
            if (!complete) {
                return true;
            }
            for (int i = firstContentIndex() + 1; i < lines.size(); i++) {
                if (!lines.get(i).isBlank() && !isComment(lines.get(i))) {
                    return true;
                }
            }
            return false;
        }
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
        return new Cursor(raw, counted);
    }

    /** One piece of the file parsed: its rows and lines, and the first problem found, if any. */
    private static final class Piece {
        double[] values;
        int rows;
        int[] rowLine;
        /** Lines in the piece. */
        int lines;
        /** Line (1-based in the piece) of the first non-blank, non-comment line; 0 if none. */
        int firstContent;
        /** First blank line after the last content line; 0 if none. */
        int trailingBlank;
        /** The line of the first problem (rows before it are kept), 0 if none. */
        int problemLine;
        LongFunction<InvalidDataException> problem;
        /** A row the fold's transform refused (rows from it on are dropped), or null. */
        RowTransform.RowProblem rowProblem;

        void fail(int line, LongFunction<InvalidDataException> what) {
            problemLine = line;
            problem = what;
        }
    }

    /**
     * Parses a piece; its rows go into an array taken from {@code spareValues} when one there is large
     * enough (stale contents are overwritten row by row; only the first {@code rows} rows are read).
     */
    private Piece parsePiece(byte[] b, int length, ArrayBlockingQueue<double[]> spareValues) {
        int d = selected.length;
        Piece piece = new Piece();
        int capacity = Math.max(16, length / Math.max(1, 8 * fileColumns));
        double[] reuse = spareValues.poll();
        piece.values = reuse != null && reuse.length >= capacity * d ? reuse : new double[capacity * d];
        piece.rowLine = new int[capacity];
        boolean ws = separator == ' ';
        byte sep = separator;
        CsvNumbers numbers = new CsvNumbers();
        int pos = 0;
        int line = 0;
        while (pos < length) {
            line++;
            int lineStart = pos;
            int q = pos;
            while (q < length && (b[q] == ' ' || b[q] == '\t' || b[q] == '\r')) {
                q++;
            }
            if (q == length || b[q] == '\n') {
                if (piece.trailingBlank == 0) {
                    piece.trailingBlank = line;
                }
                pos = q + 1;
                continue;
            }
            if (comment != null && startsWith(b, q, length, comment)) {
                pos = lineEnd(b, q, length) + 1;
                continue;
            }
            if (piece.firstContent == 0) {
                piece.firstContent = line;
            }
            if (piece.trailingBlank != 0) {
                int blank = piece.trailingBlank;
                int data = line;
                piece.fail(line, base -> blankInsideData(base + blank, base + data));
                break;
            }
            if (piece.rows == piece.rowLine.length) {
                int grown = piece.rowLine.length * 2;
                piece.rowLine = Arrays.copyOf(piece.rowLine, grown);
                piece.values = Arrays.copyOf(piece.values, grown * d);
            }
            int rowBase = piece.rows * d;
            int col = 0;
            int p = q;
            boolean slow = false;
            while (true) {
                if (!ws) {
                    while (p < length && (b[p] == ' ' || b[p] == '\t') && b[p] != sep) {
                        p++;
                    }
                }
                if (p < length && b[p] == '"') {
                    slow = true;
                    break;
                }
                int cs = p;
                int s = col < fileColumns ? slot[col] : -1;
                double v = Double.NaN;
                if (s >= 0) {
                    // one pass over the cell: the number, then the separator or line end right after it
                    v = numbers.scan(b, p, length);
                    int after = numbers.end;
                    if (!Double.isNaN(v) && (after == length || b[after] == '\n'
                            || (ws ? b[after] == ' ' || b[after] == '\t' || b[after] == '\r' : b[after] == sep))) {
                        p = after;
                    } else {
                        v = Double.NaN; // anything else (blanks or \r after it, text): the cell as a whole below
                    }
                }
                if (p == cs || Double.isNaN(v)) {
                    p = cs;
                    if (ws) {
                        while (p < length && b[p] != ' ' && b[p] != '\t' && b[p] != '\n' && b[p] != '\r') {
                            p++;
                        }
                    } else {
                        while (p < length && b[p] != sep && b[p] != '\n') {
                            p++;
                        }
                    }
                    if (s >= 0) {
                        int ce = trimEnd(b, cs, p);
                        v = numbers.scan(b, cs, ce);
                        if (numbers.end != ce) {
                            v = Double.NaN;
                        }
                    }
                }
                if (s >= 0) {
                    if (Double.isNaN(v) || Double.isInfinite(v)) {
                        int ce = trimEnd(b, cs, p);
                        String cell = new String(b, cs, ce - cs, StandardCharsets.UTF_8);
                        int column = col;
                        int at = line;
                        piece.fail(line, base -> cellProblem(base + at, column, cell));
                        return piece;
                    }
                    piece.values[rowBase + s] = v;
                }
                col++;
                if (col > fileColumns) {
                    break;
                }
                if (ws) {
                    while (p < length && (b[p] == ' ' || b[p] == '\t' || b[p] == '\r')) {
                        p++;
                    }
                }
                if (p >= length || b[p] == '\n') {
                    break;
                }
                if (!ws) {
                    p++; // the separator
                }
            }
            int end = lineEnd(b, p, length);
            if (slow) {
                int contentEnd = end > lineStart && b[end - 1] == '\r' ? end - 1 : end;
                String text = new String(b, lineStart, contentEnd - lineStart, StandardCharsets.UTF_8);
                int at = line;
                LongFunction<InvalidDataException> problem = parseSlowly(text, piece.values, rowBase);
                if (problem != null) {
                    piece.fail(line, base -> problem.apply(base + at));
                    return piece;
                }
            } else if (col != fileColumns) {
                int found = col;
                int at = line;
                piece.fail(line, base -> ragged(base + at, found));
                return piece;
            }
            piece.rowLine[piece.rows++] = line;
            piece.trailingBlank = 0;
            pos = end + 1;
        }
        piece.lines = line;
        return piece;
    }

    /** A line with a quoted cell, read through the String splitter; returns the problem, or null. */
    private LongFunction<InvalidDataException> parseSlowly(String text, double[] values, int rowBase) {
        Splitter splitter = new Splitter((char) separator);
        int[] starts = new int[fileColumns + 1];
        int[] ends = new int[fileColumns + 1];
        int found;
        try {
            found = splitter.split(text, starts, ends);
        } catch (LineSyntaxException e) {
            return line -> new InvalidDataException(name + " line " + line + ": " + e.getMessage());
        }
        if (found != fileColumns) {
            return line -> ragged(line, found);
        }
        for (int i = 0; i < selected.length; i++) {
            int j = selected[i];
            String cell = Splitter.unquote(text, starts[j], ends[j]);
            byte[] bytes = cell.getBytes(StandardCharsets.UTF_8);
            double v = CsvNumbers.parse(bytes, 0, bytes.length);
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                return line -> cellProblem(line, j, cell);
            }
            values[rowBase + i] = v;
        }
        return null;
    }

    /** The end of the cell b[start, end) without its trailing blanks and carriage return. */
    private static int trimEnd(byte[] b, int start, int end) {
        int e = end;
        while (e > start && (b[e - 1] == ' ' || b[e - 1] == '\t' || b[e - 1] == '\r')) {
            e--;
        }
        return e;
    }

    private static int lineEnd(byte[] b, int from, int length) {
        int p = from;
        while (p < length && b[p] != '\n') {
            p++;
        }
        return p;
    }

    private static boolean startsWith(byte[] b, int at, int length, byte[] prefix) {
        if (at + prefix.length > length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (b[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private InvalidDataException blankInsideData(long blankLine, long dataLine) {
        return new InvalidDataException(name + " line " + blankLine + " is blank but data follows on line "
                + dataLine + "; remove blank lines inside the data (only trailing blank lines are allowed)");
    }

    private InvalidDataException ragged(long line, int found) {
        String cells = found > fileColumns ? (found + " or more cells") : (found + " cells");
        return new InvalidDataException(name + " line " + line + " has " + cells + " but "
                + (hasHeader ? "the header has " : "the first line has ") + fileColumns
                + " (separator " + separatorName() + (separatorDetected ? ", detected" : "")
                + "); fix the ragged line, check the separator (--separator), or drop lines before the table"
                + " (--skip-lines)");
    }

    /** The error for a selected cell that is not a finite plain decimal. */
    private InvalidDataException cellProblem(long line, int column, String rawCell) {
        String cell = rawCell.trim();
        String what;
        if (cell.isEmpty()) {
            what = "is empty (a missing value)";
        } else if (looksLikeFiniteNumber(cell)) {
            what = "overflows to infinity (beyond ±1.8e308)";
        } else {
            String lower = cell.toLowerCase(Locale.ROOT);
            if (lower.matches("[+-]?nan")) {
                what = "is NaN (not a number)";
            } else if (lower.matches("[+-]?(inf|infinity)")) {
                what = "is infinite";
            } else if (lower.equals("na") || lower.equals("n/a") || lower.equals("null") || lower.equals("none")) {
                what = "is a missing-value marker";
            } else {
                what = "is not a number";
            }
        }
        return new InvalidDataException(name + " line " + line + ", " + describeColumn(column) + ": value \""
                + abbreviate(cell) + "\" " + what + "; every selected cell must be a finite number: "
                + COLUMNS_REMEDY);
    }

    /** One pass: parsed pieces taken in file order from the pipeline. */
    private final class Cursor implements RowCursor {
        private final InputStream raw;
        private final CsvPipeline.CountingInputStream counted;
        /** Started by the first read: row by row, or folding XᵀX ({@link #foldGram}). */
        private CsvPipeline<Piece> pipeline;
        /**
         * Row arrays of pieces already consumed (folded, or copied out row by row), for later pieces to
         * parse into, so that a pass allocates a few arrays rather than one per piece.
         */
        private final ArrayBlockingQueue<double[]> spareValues = new ArrayBlockingQueue<>(16);
        private final int d = selected.length;
        private Piece piece;
        private int rowInPiece;
        /** Physical line number just before the current piece. */
        private long pieceBase = preambleLines;
        private long nextBase = preambleLines;
        private long pendingBlank;
        private long lastRowLine;
        private long rows;
        private boolean finished;
        private boolean closed;
        /** File line of each row of the last block (rows blockFirstRow, blockFirstRow + 1, ...). */
        private long[] blockLines = new long[0];
        private long blockFirstRow = 1;
        private int blockCount;

        Cursor(InputStream raw, CsvPipeline.CountingInputStream counted) {
            this.raw = raw;
            this.counted = counted;
        }

        /** Makes a row available in {@link #piece}, or returns false at the end; throws at a problem. */
        private boolean advance() {
            if (closed) {
                throw new IllegalStateException("cursor over " + name + " is closed; open a new pass");
            }
            if (pipeline == null) {
                pipeline = new CsvPipeline<>(raw, counted, preambleLines,
                        (bytes, length) -> parsePiece(bytes, length, spareValues));
            }
            while (!finished) {
                if (piece != null && rowInPiece < piece.rows) {
                    return true;
                }
                if (piece != null && piece.problem != null) {
                    finished = true;
                    throw piece.problem.apply(pieceBase);
                }
                if (!takePiece()) {
                    return false;
                }
            }
            return false;
        }

        /**
         * Takes the next piece in file order into {@link #piece}; false at the end; throws at a blank line
         * inside the data.
         */
        private boolean takePiece() {
            if (piece != null && piece.values != null) {
                spareValues.offer(piece.values); // this thread is done with its rows
            }
            piece = pipeline.next(e -> new InvalidDataException("cannot read " + name + " after line "
                    + nextBase + ": " + IoErrors.inWords(e) + "; check that the file is complete and (for .gz) not "
                    + "truncated", e));
            rowInPiece = 0;
            if (piece == null) {
                finished = true;
                return false;
            }
            pieceBase = nextBase;
            nextBase += piece.lines;
            if (pendingBlank > 0 && piece.firstContent > 0) {
                finished = true;
                throw blankInsideData(pendingBlank, pieceBase + piece.firstContent);
            }
            if (piece.trailingBlank > 0 && piece.problem == null) {
                if (pendingBlank == 0 || piece.firstContent > 0) {
                    pendingBlank = pieceBase + piece.trailingBlank;
                }
            }
            return true;
        }

        /**
         * The whole pass folded on the parser threads: each piece is parsed, its rows transformed and
         * added at their row numbers to one {@link Gram} (canonical blocks, summed in an order-free way,
         * so the result is the bits of the row-by-row pass whatever the thread timing). This thread only
         * takes the pieces in order, to count rows and lines and to report the first problem in the file.
         * Declined (null) once rows were read, or when the sum and the threads' scratch would take more
         * than an eighth of the heap.
         */
        @Override
        public GramPass foldGram(RowTransform transform, Backend backend, int blockRows, LongConsumer progress) {
            // the sum (26 bytes per entry of the lower triangle) and, per parser thread, a d x d scratch and a
            // packed triangle
            long bytes = (long) d * (d + 1) / 2 * 26 + (long) Runtime.getRuntime().availableProcessors() * d * d * 12;
            if (closed || pipeline != null || bytes > Runtime.getRuntime().maxMemory() / 8) {
                return null;
            }
            Gram gram = new Gram(d, backend);
            pipeline = new CsvPipeline<>(raw, counted, preambleLines, (bytes2, length) -> {
                Piece p = parsePiece(bytes2, length, spareValues);
                try {
                    transform.apply(p.values, p.rows, d);
                } catch (RowTransform.RowProblem e) {
                    p.rows = e.index();
                    p.rowProblem = e;
                }
                return p;
            }, (p, firstRow) -> {
                gram.addAt(firstRow, p.values, 0, p.rows);
                spareValues.offer(p.values);
                p.values = null;
            }, p -> p.rows);
            while (takePiece()) {
                if (piece.rowProblem != null) {
                    finished = true;
                    int at = piece.rowProblem.index();
                    long row = rows + at + 1;
                    throw piece.rowProblem.at("row " + row + " (" + name + " line " + (pieceBase + piece.rowLine[at])
                            + ")");
                }
                rows += piece.rows;
                if (piece.rows > 0) {
                    lastRowLine = pieceBase + piece.rowLine[piece.rows - 1];
                }
                if (piece.problem != null) {
                    finished = true;
                    throw piece.problem.apply(pieceBase);
                }
                progress.accept(rows);
            }
            if (rows == 0) {
                throw new InvalidDataException(name + " has no rows; provide at least one data row");
            }
            return new GramPass(gram.result(), rows);
        }

        @Override
        public boolean next(double[] into) {
            if (into.length < d) {
                throw new IllegalArgumentException("row buffer has length " + into.length + " but " + name
                        + " has " + d + " selected columns; pass a buffer of length dimension()");
            }
            if (!advance()) {
                return false;
            }
            System.arraycopy(piece.values, rowInPiece * d, into, 0, d);
            lastRowLine = pieceBase + piece.rowLine[rowInPiece];
            rowInPiece++;
            rows++;
            return true;
        }

        @Override
        public int nextBlock(double[] block, int maxRows, int width) {
            if ((long) maxRows * width > block.length) {
                throw new IllegalArgumentException("block has length " + block.length + ", too small for "
                        + maxRows + " rows of width " + width);
            }
            if (blockLines.length < maxRows) {
                blockLines = new long[maxRows];
            }
            blockFirstRow = rows + 1;
            int k = 0;
            blockCount = 0;
            while (k < maxRows && advance()) {
                int take = Math.min(maxRows - k, piece.rows - rowInPiece);
                System.arraycopy(piece.values, rowInPiece * d, block, k * d, take * d);
                for (int i = 0; i < take; i++) {
                    blockLines[k + i] = pieceBase + piece.rowLine[rowInPiece + i];
                }
                rowInPiece += take;
                k += take;
                rows += take;
                lastRowLine = blockLines[k - 1];
                blockCount = k;
            }
            return k;
        }

        @Override
        public String position() {
            return name + " line " + lastRowLine;
        }

        @Override
        public long line() {
            return rows == 0 ? -1 : lastRowLine;
        }

        @Override
        public String positionOfRow(long row) {
            long i = row - blockFirstRow;
            if (row == rows) {
                return position();
            }
            return i >= 0 && i < blockCount ? name + " line " + blockLines[(int) i] : name + " row " + row;
        }

        @Override
        public long rowsRead() {
            return rows;
        }

        @Override
        public long bytesRead() {
            return pipeline == null ? 0 : pipeline.bytesRead();
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                if (pipeline != null) {
                    pipeline.close();
                } else {
                    try {
                        raw.close();
                    } catch (IOException ignored) { // NOPMD: nothing was read, nothing to report
                    }
                }
            }
        }
    }

    private String describeColumn(int fileColumn) {
        String n = fileNames.get(fileColumn);
        if (hasHeader) {
            return "column " + (fileColumn + 1) + " \"" + n + "\"";
        }
        return "column " + (fileColumn + 1);
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

    /** A column number written as digits (≥ 1), or null if {@code t} is not digits; 0 is refused. */
    private static Integer parseColumnNumber(String t) {
        if (t.isEmpty() || t.length() > 9) {
            return null;
        }
        for (int i = 0; i < t.length(); i++) {
            if (!isDigit(t.charAt(i))) {
                return null;
            }
        }
        int v = Integer.parseInt(t);
        if (v == 0) {
            throw new IllegalArgumentException("column numbers are 1-based: 0 names no column; the first column"
                    + " is 1 (e.g. --columns 1-3)");
        }
        return v;
    }

    static String abbreviate(String s) {
        return abbreviate(s, 60);
    }

    static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
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

        List<String> splitToList(String text, String source, long line) {
            int[] s = new int[text.length() + 2];
            int[] e = new int[text.length() + 2];
            int n;
            try {
                n = split(text, s, e);
            } catch (LineSyntaxException ex) {
                throw new InvalidDataException(source + " line " + line + ": " + ex.getMessage());
            }
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
        /** The number of cells of {@code text}. */
        int count(String text) {
            int[] s = new int[text.length() + 2];
            return split(text, s, new int[s.length]);
        }

        int split(String text, int[] starts, int[] ends) {
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
                            throw new LineSyntaxException("a quoted cell starting at"
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
                        throw new LineSyntaxException("unexpected text after the"
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

    /** A line that cannot be split into cells (unclosed quote, text after a quote); the message says why. */
    static final class LineSyntaxException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LineSyntaxException(String message) {
            super(message);
        }
    }
}
