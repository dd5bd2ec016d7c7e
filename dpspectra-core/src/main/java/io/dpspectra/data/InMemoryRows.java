package io.dpspectra.data;

import io.dpspectra.linalg.Matrix;
import java.util.OptionalLong;

/** Rows held in memory (copied on construction; every row checked for width and finiteness). */
public final class InMemoryRows implements RowSource {
    private final double[][] rows;
    private final int d;

    private InMemoryRows(double[][] rows, int d) {
        this.rows = rows;
        this.d = d;
    }

    /**
     * Copies the rows; all must have one width d ≥ 1 and finite entries. Errors name the 1-based row
     * and column and the value.
     *
     * @param rows the rows (copied)
     * @return the source
     * @throws InvalidDataException for an empty, ragged or non-finite input
     */
    public static InMemoryRows of(double[][] rows) {
        if (rows == null || rows.length == 0) {
            throw new InvalidDataException("no data rows: the data set is empty; provide at least one row");
        }
        if (rows[0] == null || rows[0].length == 0) {
            throw new InvalidDataException("row 1 has no columns; provide at least one column");
        }
        int d = rows[0].length;
        double[][] copy = new double[rows.length][];
        for (int i = 0; i < rows.length; i++) {
            if (rows[i] == null) {
                throw new InvalidDataException("row " + (i + 1) + " is null; every row needs " + d + " values");
            }
            if (rows[i].length != d) {
                throw new InvalidDataException("row " + (i + 1) + " has " + rows[i].length
                        + " values but row 1 has " + d + "; every row needs the same number of columns");
            }
            for (int j = 0; j < d; j++) {
                double v = rows[i][j];
                if (!Double.isFinite(v)) {
                    throw new InvalidDataException("row " + (i + 1) + " column " + (j + 1) + " is "
                            + (Double.isNaN(v) ? "NaN" : v) + " (rows and columns numbered from 1); remove or"
                            + " impute non-finite values first");
                }
            }
            copy[i] = rows[i].clone();
        }
        return new InMemoryRows(copy, d);
    }

    /**
     * The rows of a matrix (n × d).
     *
     * @param m the rows, n × d (copied)
     * @return the source
     */
    public static InMemoryRows of(Matrix m) {
        return of(m.toRowArrays());
    }

    /**
     * Reads a whole source into memory (one pass).
     *
     * @param source the rows
     * @return a copy in memory
     */
    public static InMemoryRows copyOf(RowSource source) {
        java.util.List<double[]> list = new java.util.ArrayList<>();
        try (RowCursor c = source.open()) {
            double[] buf = new double[source.dimension()];
            while (c.next(buf)) {
                list.add(buf.clone());
            }
        }
        return of(list.toArray(new double[0][]));
    }

    @Override
    public int dimension() {
        return d;
    }

    /**
     * The number of rows n.
     *
     * @return n
     */
    public int size() {
        return rows.length;
    }

    /**
     * A copy of row i (0-based).
     *
     * @param i the row, 0 ≤ i &lt; n
     * @return a new array of length d
     */
    public double[] row(int i) {
        return rows[i].clone();
    }

    /**
     * The rows as an n × d matrix (a copy).
     *
     * @return a new n × d matrix
     */
    public Matrix toMatrix() {
        return Matrix.fromRows(rows);
    }

    @Override
    public OptionalLong knownSize() {
        return OptionalLong.of(rows.length);
    }

    @Override
    public String describe() {
        return "in-memory rows (" + rows.length + " x " + d + ")";
    }

    @Override
    public RowCursor open() {
        return new RowCursor() {
            private int next;

            @Override
            public boolean next(double[] into) {
                if (next >= rows.length) {
                    return false;
                }
                System.arraycopy(rows[next++], 0, into, 0, d);
                return true;
            }

            @Override
            public String position() {
                return "row " + next;
            }

            @Override
            public long rowsRead() {
                return next;
            }

            @Override
            public void close() {
            }
        };
    }
}
