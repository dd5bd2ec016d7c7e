package io.dpspectra.data;

import java.nio.file.Path;
import java.util.List;

/**
 * Rows streamed from a CSV file (comma-separated, optional header), one pass per {@link #open()}.
 * Strict: a non-numeric, NaN, infinite or missing cell, or a row with the wrong number of cells, is an
 * {@link InvalidDataException} naming the file, line and column.
 *
 * <p>TODO(skeleton): implemented in the data work package; the API below is fixed.
 */
public final class CsvRows implements RowSource {

    /** Whether the first line is a header. */
    public enum Header { AUTO, PRESENT, ABSENT }

    /** Opens {@code path} with header detection and all columns. */
    public static CsvRows open(Path path) {
        return builder(path).build();
    }

    public static Builder builder(Path path) {
        return new Builder(path);
    }

    /** Options for reading a CSV file. */
    public static final class Builder {
        private final Path path;

        private Builder(Path path) {
            this.path = path;
        }

        /** AUTO (default): the first line is a header if any of its cells is not a number. */
        public Builder header(Header header) {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }

        /** Keep only these columns, by header name or by 1-based index written as a number. */
        public Builder columns(List<String> columns) {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }

        /** The field separator (default ','). */
        public Builder separator(char separator) {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }

        /** Reads the first line(s) to fix the width and header; errors name the file. */
        public CsvRows build() {
            throw new UnsupportedOperationException("TODO(skeleton) " + path);
        }
    }

    /** The header names of the selected columns (generated as "x1".."xd" when there is no header). */
    public List<String> columnNames() {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }

    @Override
    public int dimension() {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }

    @Override
    public RowCursor open() {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }
}
