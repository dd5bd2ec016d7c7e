package io.dpspectra.data;

/**
 * A cursor that refuses non-finite cells (a NaN or an infinity) and can leave that check to a consumer that refuses
 * them anyway: the L2 clip of a block ({@link Clipping#clipRowsInPlace}), whose sums of squares are NaN or infinite
 * for such a row and which then throws. The consumer reads the block unchecked, and on a refusal asks the cursor to
 * check it, so that the error is the cursor's own, naming the first non-finite cell's row and column: the same error,
 * on the same pass, as when the cursor checks each block itself. This saves the check's pass over every value.
 */
interface FiniteCheckLater {
    /**
     * As {@link RowCursor#nextBlock}, into the rows of {@code block} from row {@code fromRow} on, without refusing
     * non-finite cells (so that a consumer can take a large block in small pieces, each while it is in cache).
     *
     * @param block   receives the rows
     * @param fromRow the row of {@code block} that receives the first row read
     * @param maxRows the most rows to copy
     * @param d       the row width
     * @return the number of rows copied
     */
    int nextBlockUnchecked(double[] block, int fromRow, int maxRows, int d);

    /**
     * Refuses a non-finite cell among the rows just read by {@link #nextBlockUnchecked}, with the error that
     * {@link RowCursor#nextBlock} would have raised; returns when every cell is finite.
     *
     * @param block   the block as read (finite cells may since have been changed, non-finite ones not)
     * @param fromRow the row of {@code block} that received the first row read
     * @param count   the rows read into it
     * @throws InvalidDataException naming the row and column of the first non-finite cell
     */
    void checkFinite(double[] block, int fromRow, int count);
}
