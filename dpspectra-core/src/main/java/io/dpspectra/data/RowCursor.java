package io.dpspectra.data;

/** One pass over a {@link RowSource}. */
public interface RowCursor extends AutoCloseable {

    /**
     * Copies the next row into {@code into} (length d) and returns true, or returns false at the end.
     * Modified: into.
     *
     * @throws InvalidDataException when the row is malformed (names the location)
     */
    boolean next(double[] into);

    /** Where the last row returned came from, e.g. "data.csv line 17" or "row 16". */
    String position();

    /** Number of rows returned so far in this pass. */
    long rowsRead();

    @Override
    void close();
}
