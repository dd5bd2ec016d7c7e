package io.dpspectra.data;

import io.dpspectra.linalg.Backend;
import java.util.function.LongConsumer;

/**
 * One pass over a {@link RowSource}. A cursor is used by one thread at a time, but not always by the thread that
 * opened it: a pass that folds blocks of rows reads them on a second thread ({@link ReadAhead}), with every call
 * ordered after the one before it (so a cursor needs no locking, but must not depend on the calling thread).
 */
public interface RowCursor extends AutoCloseable {

    /**
     * Copies the next row into {@code into} (length d) and returns true, or returns false at the end.
     * Modified: into.
     *
     * @param into receives the row, length d
     * @return false at the end of the pass
     * @throws InvalidDataException when the row is malformed (names the location)
     */
    boolean next(double[] into);

    /**
     * Copies up to {@code maxRows} next rows of width {@code d}, row-major, into {@code block}
     * (length ≥ maxRows·d) and
     * returns how many were copied; 0 means the end. Sources that can fill a block directly (e.g.
     * {@link BinaryRows}) override this; the default calls {@link #next(double[])} per row.
     * Modified: block.
     *
     * @param block   receives the rows
     * @param maxRows the most rows to copy
     * @param d       the row width
     * @return the number of rows copied
     * @throws InvalidDataException when a row is malformed (names the location)
     */
    default int nextBlock(double[] block, int maxRows, int d) {
        if ((long) maxRows * d > block.length) {
            throw new IllegalArgumentException("block has length " + block.length + ", too small for " + maxRows
                    + " rows of width " + d);
        }
        if (maxRows <= 0) {
            return 0;
        }
        double[] row = new double[d];
        int k = 0;
        while (k < maxRows && next(row)) {
            System.arraycopy(row, 0, block, k * d, d);
            k++;
        }
        return k;
    }

    /**
     * Where the last row returned came from, e.g. "data.csv line 17" or "row 16".
     *
     * @return the position
     */
    String position();

    /**
     * Where row number {@code row} (1-based, in this pass) came from, for the rows of the last block or
     * row returned, e.g. "data.csv line 17"; used to name a bad row found after a block was read. The
     * default names the row by its index.
     *
     * @param row the row number, 1-based
     * @return its position
     */
    default String positionOfRow(long row) {
        return row == rowsRead() ? position() : "row " + row;
    }

    /**
     * Bytes of the input read so far in this pass (compressed bytes for a gzip file), for progress by
     * bytes; −1 when the source does not count bytes.
     *
     * @return the bytes read, or −1
     */
    default long bytesRead() {
        return -1;
    }

    /**
     * Reads the rest of this pass into XᵀX on the threads that produce the rows, each block of rows
     * passed through {@code transform} first, if this cursor can (a parallel CSV pass); returns null,
     * having read nothing, when it cannot, and the caller then reads blocks with {@link #nextBlock}. A
     * cursor that changes rows must not forward this call as it is: it forwards it with its own change
     * composed before {@code transform}, or leaves the default. The result must not depend on thread
     * timing: the same input gives the bit-identical XᵀX on every run.
     *
     * @param blockRows rows per dsyrk call, as {@link GramPass} reads blocks
     * @param progress called on the calling thread with the rows folded so far, as the pass advances
     * @param transform applied to each block of rows before it is folded
     * @param backend the BLAS to use
     * @return XᵀX of the rest of the pass and its row count, or null
     * @throws InvalidDataException when a row is malformed or {@code transform} refuses it (names the row)
     */
    default GramPass foldGram(RowTransform transform, Backend backend, int blockRows, LongConsumer progress) {
        return null;
    }

    /**
     * The line of the text file that the last row returned came from (1-based, counting every line of the
     * file: skipped lines, comments and the header too), so that a caller can find the rest of that line.
     *
     * @return the line, or −1 when the rows do not come from lines of a text file (or no row was returned yet)
     */
    default long line() {
        return -1;
    }

    /**
     * Number of rows returned so far in this pass.
     *
     * @return the count
     */
    long rowsRead();

    @Override
    void close();
}
