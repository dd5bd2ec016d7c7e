package io.dpspectra.data;

import java.nio.file.Path;

/**
 * Rows in dpspectra's binary format: a small header (magic, version, d, n) followed by n·d
 * little-endian float64 values, row after row. Fast to stream, for large data.
 *
 * <p>TODO(skeleton): implemented in the linalg/binary work package; the API below is fixed.
 */
public final class BinaryRows implements RowSource {

    /** Opens and validates the header of a binary rows file. */
    public static BinaryRows open(Path path) {
        throw new UnsupportedOperationException("TODO(skeleton) " + path);
    }

    /**
     * Writes every row of {@code source} to {@code target} atomically (a temporary file in the same
     * directory, renamed on success; nothing is left behind on failure). Returns the number of rows.
     */
    public static long write(RowSource source, Path target) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }

    @Override
    public int dimension() {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }

    /** The number of rows n recorded in the header. */
    public long size() {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }

    @Override
    public RowCursor open() {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }
}
