package io.dpspectra.spark;

import java.io.Serializable;
import java.util.Objects;

/**
 * Rows read together from a partition's input, row-major in one array (a reader's piece, about a megabyte of
 * text), as a job's reader hands them to {@link SparkStatistics#ofChunks}: persisted as they are (8 bytes a value,
 * no object per row), and read by the passes a block at a time. The last chunk of a partition carries what its
 * reader found besides rows ({@code note}: its lines, its first problem), which the driver inspects after the
 * first pass and before any noise is drawn.
 *
 * @param values the rows, {@code rows × d} values
 * @param rows   the number of rows
 * @param note   what the reader found in the partition, on its last chunk only (null on the others)
 */
public record RowChunk(double[] values, int rows, Serializable note) implements Serializable {
    /**
     * Checks the counts.
     *
     * @param values the rows, {@code rows × d} values
     * @param rows   the number of rows
     * @param note   what the reader found, or null
     */
    public RowChunk {
        Objects.requireNonNull(values, "values");
        if (rows < 0 || (rows == 0 ? values.length != 0 : values.length % rows != 0)) {
            throw new IllegalArgumentException(values.length + " values for " + rows + " rows");
        }
    }

    /**
     * The width of the rows (0 for a chunk without rows).
     *
     * @return d
     */
    public int width() {
        return rows == 0 ? 0 : values.length / rows;
    }
}
