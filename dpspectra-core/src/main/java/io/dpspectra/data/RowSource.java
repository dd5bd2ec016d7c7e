package io.dpspectra.data;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * Rows of a known width d, readable in one or more passes and never required to be in memory.
 *
 * <p>A source may carry a declared norm bound ({@link #bounds()}): every row it yields then satisfies
 * it, because the source clips or rejects rows that do not. Private algorithms read their sensitivity
 * from that bound and refuse a source without one; the bound must come from the user or from a private
 * estimate, never from the data (see {@link DataBounds}).
 */
public interface RowSource {

    /**
     * The width d of every row.
     *
     * @return d
     */
    int dimension();

    /**
     * Opens a new pass over the rows. Close the cursor when done.
     *
     * @return a new cursor at the first row
     */
    RowCursor open();

    /**
     * The number of rows if known without a pass.
     *
     * @return the number of rows, or empty
     */
    default OptionalLong knownSize() {
        return OptionalLong.empty();
    }

    /**
     * The bytes one pass reads (the file size; compressed size for gzip), to set against
     * {@link RowCursor#bytesRead()} for progress; −1 when unknown (a stream, or rows in memory).
     *
     * @return the bytes, or −1
     */
    default long sizeInBytes() {
        return -1;
    }

    /**
     * The norm bound every row of this source satisfies, if one was declared.
     *
     * @return the bound, or empty
     */
    default Optional<DataBounds> bounds() {
        return Optional.empty();
    }

    /**
     * A human-readable name (file path, "in-memory rows", ...) used in error messages.
     *
     * @return the name
     */
    default String describe() {
        return getClass().getSimpleName();
    }

    /**
     * Rows scaled down to L2 norm ≤ bound; the bound is recorded as user-given.
     *
     * @param bound the bound, &gt; 0
     * @return the clipped rows
     */
    default ClippedRows clipL2(double bound) {
        return Clipping.l2(bound).clip(this);
    }

    /**
     * Rows that must already have L2 norm ≤ bound; a row above it is an {@link InvalidDataException}.
     *
     * @param bound the bound, &gt; 0
     * @return the checked rows
     */
    default ClippedRows requireL2(double bound) {
        return Clipping.l2(bound).reject(this);
    }
}
