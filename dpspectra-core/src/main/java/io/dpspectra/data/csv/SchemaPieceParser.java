package io.dpspectra.data.csv;

import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.Schema;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * A piece of a table's lines mapped through a {@link Schema}, line by line as {@link SchemaRows} reads them: a line
 * that starts with the comment prefix is passed over, a blank line is allowed at the end only, each other line is
 * split into the schema's columns ({@link LineSplitter}) and mapped by the schema ({@link Schema#map}); the text of
 * the schema's id column, trimmed, is kept with each row when the schema has one. Problems carry the messages of
 * {@link SchemaRows}, made with the file's line numbers once they are known ({@link LineProblem}).
 */
final class SchemaPieceParser implements PieceParser {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final Schema schema;
    private final boolean centre;
    private final char separator;
    private final String commentPrefix;
    /** The schema's id column (0-based), or −1. */
    private final int idColumn;

    SchemaPieceParser(String name, Schema schema, boolean centre, char separator, String commentPrefix) {
        this.name = name;
        this.schema = schema;
        this.centre = centre;
        this.separator = separator;
        this.commentPrefix = commentPrefix;
        int id = -1;
        String idName = schema.idColumn().orElse(null);
        List<Schema.Column> cols = schema.columns();
        for (int j = 0; idName != null && j < cols.size(); j++) {
            if (cols.get(j).name().equals(idName)) {
                id = j;
            }
        }
        this.idColumn = id;
    }

    @Override
    public SchemaPieceParser named(String other) {
        return new SchemaPieceParser(other, schema, centre, separator, commentPrefix);
    }

    @Override
    public int dimension() {
        return schema.dimension();
    }

    @Override
    public String idColumnName() {
        return idColumn < 0 ? null : schema.columns().get(idColumn).name();
    }

    @Override
    public InvalidDataException blankInsideData(long blankLine, long dataLine) {
        return SchemaRows.blankInsideData(name, blankLine, dataLine);
    }

    @Override
    public Piece parsePiece(byte[] b, int length, ArrayBlockingQueue<double[]> spareValues) {
        int d = schema.dimension();
        int width = schema.columns().size();
        int capacity = Math.max(16, length / Math.max(1, 4 * width));
        Piece piece = Piece.withRoom(capacity, d, idColumn >= 0, spareValues);
        LineSplitter splitter = new LineSplitter(separator);
        String[] cells = new String[width];
        double[] row = new double[d];
        long[] clamped = new long[1];
        int pos = 0;
        int line = 0;
        while (pos < length) {
            line++;
            int end = pos;
            while (end < length && b[end] != '\n') {
                end++;
            }
            int contentEnd = end > pos && b[end - 1] == '\r' ? end - 1 : end;
            String text = new String(b, pos, contentEnd - pos, StandardCharsets.UTF_8);
            pos = end + 1;
            if (commentPrefix != null && text.startsWith(commentPrefix)) {
                continue;
            }
            if (text.isBlank()) {
                if (piece.trailingBlank == 0) {
                    piece.trailingBlank = line;
                }
                continue;
            }
            if (piece.firstContent == 0) {
                piece.firstContent = line;
            }
            int at = line;
            if (piece.trailingBlank != 0) {
                int blank = piece.trailingBlank;
                piece.fail(line, base -> blankInsideData(base + blank, base + at));
                return piece;
            }
            List<String> c;
            try {
                c = splitter.splitToList(text, name, line);
            } catch (InvalidDataException e) {
                // the same split again, with the file's line number
                String where = name;
                char sep = separator;
                piece.fail(line, base -> problem(() -> new LineSplitter(sep).splitToList(text, where, base + at)));
                return piece;
            }
            if (c.size() != width) {
                int found = c.size();
                String where = name;
                piece.fail(line, base -> SchemaRows.ragged(where, base + at, found, width));
                return piece;
            }
            c.toArray(cells);
            try {
                schema.map(cells, row, centre, clamped, name + " line " + line);
            } catch (InvalidDataException e) {
                // the same map again, with the file's line number
                String[] failed = cells.clone();
                Schema s = schema;
                boolean centred = centre;
                String where = name;
                piece.fail(line, base -> problem(() -> s.map(failed, new double[s.dimension()], centred, new long[1],
                        where + " line " + (base + at))));
                return piece;
            }
            piece.roomForRow(d);
            System.arraycopy(row, 0, piece.values, piece.rows * d, d);
            if (piece.ids != null) {
                piece.ids[piece.rows] = cells[idColumn].trim();
            }
            piece.rowLine[piece.rows++] = line;
            piece.trailingBlank = 0;
        }
        piece.lines = line;
        return piece;
    }

    /** The exception {@code again} throws (it failed once: it fails again, deterministic in its cells). */
    private static InvalidDataException problem(Runnable again) {
        try {
            again.run();
        } catch (InvalidDataException e) {
            return e;
        }
        throw new IllegalStateException("a line that failed to parse parsed the second time");
    }

    /** A runnable that may throw (the split returns a value). */
    @FunctionalInterface
    private interface Runnable {
        void run();
    }
}
