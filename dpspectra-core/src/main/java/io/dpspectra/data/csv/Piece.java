package io.dpspectra.data.csv;

import io.dpspectra.data.RowTransform;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;

/** One piece of the file parsed: its rows and lines, and the first problem found, if any. */
final class Piece {
    double[] values;
    int rows;
    int[] rowLine;
    /** The id column's text of each row, or null without an id column. */
    String[] ids;
    /** Lines in the piece. */
    int lines;
    /** Line (1-based in the piece) of the first non-blank, non-comment line; 0 if none. */
    int firstContent;
    /** First blank line after the last content line; 0 if none. */
    int trailingBlank;
    /** The line of the first problem (rows before it are kept), 0 if none. */
    int problemLine;
    LineProblem problem;
    /** A row the fold's transform refused (rows from it on are dropped), or null. */
    RowTransform.RowProblem rowProblem;

    /**
     * An empty piece with room for {@code capacity} rows of width d: its values array taken from {@code spareValues}
     * when one there is large enough (stale contents are overwritten row by row; only the first {@code rows} rows are
     * read), and an id per row when the table has an id column.
     */
    static Piece withRoom(int capacity, int d, boolean ids, ArrayBlockingQueue<double[]> spareValues) {
        Piece piece = new Piece();
        double[] reuse = spareValues.poll();
        piece.values = reuse != null && reuse.length >= capacity * d ? reuse : new double[capacity * d];
        piece.rowLine = new int[capacity];
        if (ids) {
            piece.ids = new String[capacity];
        }
        return piece;
    }

    /** Makes room for one more row of width d: the row arrays doubled when they are full. */
    void roomForRow(int d) {
        if (rows == rowLine.length) {
            int grown = rowLine.length * 2;
            rowLine = Arrays.copyOf(rowLine, grown);
            if (ids != null) {
                ids = Arrays.copyOf(ids, grown);
            }
            values = Arrays.copyOf(values, grown * d);
        }
    }

    void fail(int line, LineProblem what) {
        problemLine = line;
        problem = what;
    }
}
