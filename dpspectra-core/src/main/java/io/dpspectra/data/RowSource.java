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

    /** The width d of every row. */
    int dimension();

    /** Opens a new pass over the rows. Close the cursor when done. */
    RowCursor open();

    /** The number of rows if known without a pass. */
    default OptionalLong knownSize() {
        return OptionalLong.empty();
    }

    /**
     * The bytes one pass reads (the file size; compressed size for gzip), to set against
     * {@link RowCursor#bytesRead()} for progress; −1 when unknown (a stream, or rows in memory).
     */
    default long sizeInBytes() {
        return -1;
    }

    /** The norm bound every row of this source satisfies, if one was declared. */
    default Optional<DataBounds> bounds() {
        return Optional.empty();
    }

    /** A human-readable name (file path, "in-memory rows", ...) used in error messages. */
    default String describe() {
        return getClass().getSimpleName();
    }

    /** Rows scaled down to L2 norm ≤ bound; the bound is recorded as user-given. */
    default ClippedRows clipL2(double bound) {
        return Clipping.l2(bound).clip(this);
    }

    /** Rows that must already have L2 norm ≤ bound; a row above it is an {@link InvalidDataException}. */
    default ClippedRows requireL2(double bound) {
        return Clipping.l2(bound).reject(this);
    }
}
