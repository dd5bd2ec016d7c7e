package io.dpspectra.data.csv;

import io.dpspectra.data.CellText;
import io.dpspectra.data.InvalidDataException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * The byte parser of {@link CsvRows}: turns one piece of the file (whole lines) into rows of the selected
 * columns, numbers read by {@link CsvNumbers}, and names the first problem in the piece (a bad cell, a ragged
 * line, a blank line inside the data) with its line number relative to the piece. Stateless apart from the
 * file's format, so the parser threads share one instance.
 */
final class CsvPieceParser implements PieceParser {
    private static final long serialVersionUID = 1L;
    private static final String COLUMNS_REMEDY = "clean the file or select other columns with --columns";

    private final String name;
    private final byte separator;
    private final boolean separatorDetected;
    private final byte[] comment;
    private final boolean hasHeader;
    private final int fileColumns;
    private final int[] selected;
    /** For each file column, its position among the selected columns, or −1. */
    private final int[] slot;
    private final List<String> fileNames;
    /** The id column (its cell's text is kept with each row, {@link Piece#ids}), or −1. */
    private final int idColumn;

    /**
     * @param name              the file or stream, for messages
     * @param separator         the separator (' ' for runs of whitespace)
     * @param separatorDetected whether the separator was detected rather than given (for messages)
     * @param comment           the comment prefix's bytes, or null
     * @param hasHeader         whether the first line was a header (for messages)
     * @param fileColumns       the number of cells of every line
     * @param selected          the kept columns, 0-based file indices in the order read
     * @param fileNames         the names of all the file's columns
     * @param idColumn          the id column, whose text is kept with each row, or −1
     */
    CsvPieceParser(String name, byte separator, boolean separatorDetected, byte[] comment, boolean hasHeader,
            int fileColumns, int[] selected, List<String> fileNames, int idColumn) {
        this.name = name;
        this.separator = separator;
        this.separatorDetected = separatorDetected;
        this.comment = comment;
        this.hasHeader = hasHeader;
        this.fileColumns = fileColumns;
        this.selected = selected;
        this.slot = new int[fileColumns];
        Arrays.fill(slot, -1);
        for (int i = 0; i < selected.length; i++) {
            slot[selected[i]] = i;
        }
        this.fileNames = new java.util.ArrayList<>(fileNames); // serializable, whatever list was given
        this.idColumn = idColumn;
    }

    /** The same format, naming {@code other} in messages (another file of the same layout). */
    @Override
    public CsvPieceParser named(String other) {
        return new CsvPieceParser(other, separator, separatorDetected, comment, hasHeader, fileColumns, selected,
                fileNames, idColumn);
    }

    @Override
    public String idColumnName() {
        return idColumn < 0 ? null : fileNames.get(idColumn);
    }

    /** The number of selected columns d. */
    @Override
    public int dimension() {
        return selected.length;
    }

    /** A name for the separator in messages: "comma", "tab", "semicolon", "whitespace" or the character. */
    String separatorName() {
        return switch (separator) {
            case ',' -> "comma";
            case '\t' -> "tab";
            case ';' -> "semicolon";
            case ' ' -> "whitespace";
            default -> "'" + (char) separator + "'";
        };
    }

    /**
     * Parses a piece; its rows go into an array taken from {@code spareValues} when one there is large
     * enough (stale contents are overwritten row by row; only the first {@code rows} rows are read).
     */
    @Override
    public Piece parsePiece(byte[] b, int length, ArrayBlockingQueue<double[]> spareValues) {
        int d = selected.length;
        int capacity = Math.max(16, length / Math.max(1, 8 * fileColumns));
        Piece piece = Piece.withRoom(capacity, d, idColumn >= 0, spareValues);
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
            piece.roomForRow(d);
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
                    } else if (col == idColumn) {
                        piece.ids[piece.rows] = new String(b, cs, trimEnd(b, cs, p) - cs, StandardCharsets.UTF_8).trim();
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
                LineProblem problem = parseSlowly(text, piece.values, rowBase, piece.ids, piece.rows);
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
    private LineProblem parseSlowly(String text, double[] values, int rowBase, String[] ids, int row) {
        LineSplitter splitter = new LineSplitter((char) separator);
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
            String cell = LineSplitter.unquote(text, starts[j], ends[j]);
            byte[] bytes = cell.getBytes(StandardCharsets.UTF_8);
            double v = CsvNumbers.parse(bytes, 0, bytes.length);
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                return line -> cellProblem(line, j, cell);
            }
            values[rowBase + i] = v;
        }
        if (idColumn >= 0) {
            ids[row] = LineSplitter.unquote(text, starts[idColumn], ends[idColumn]).trim();
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

    @Override
    public InvalidDataException blankInsideData(long blankLine, long dataLine) {
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
        } else if (CellText.looksLikeFiniteNumber(cell)) {
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
                + CellText.abbreviate(cell) + "\" " + what + "; every selected cell must be a finite number: "
                + COLUMNS_REMEDY);
    }

    private String describeColumn(int fileColumn) {
        String n = fileNames.get(fileColumn);
        if (hasHeader) {
            return "column " + (fileColumn + 1) + " \"" + n + "\"";
        }
        return "column " + (fileColumn + 1);
    }
}
