package io.dpspectra.spark;

import java.io.Serializable;
import java.util.Objects;

/**
 * Rows read together from a partition's input, row-major in one array (a reader's piece, about a megabyte of
 * text), as a job's reader hands them to {@link SparkStatistics#ofChunks}: persisted as they are (8 bytes a value,
 * no object per row), and read by the passes a block at a time. The last chunk of a partition carries what its
 * reader found besides rows (its note: its lines, its first problem), which the driver inspects after the first
 * pass and before any noise is drawn. A plain class with a no-argument constructor, so that any serializer Spark is
 * configured with (Java's or Kryo) can write it when the persisted rows spill to disk.
 */
public final class RowChunk implements Serializable {
    private static final long serialVersionUID = 1L;

    private double[] values;
    private int rows;
    private Serializable note;
    private String[] ids;

    /** For serializers that build the object field by field. */
    private RowChunk() {
    }

    /**
     * A chunk of rows.
     *
     * @param values the rows, {@code rows × d} values (not copied)
     * @param rows   the number of rows
     * @param note   what the reader found in the partition, on its last chunk only (null on the others)
     */
    public RowChunk(double[] values, int rows, Serializable note) {
        Objects.requireNonNull(values, "values");
        if (rows < 0 || (rows == 0 ? values.length != 0 : values.length % rows != 0)) {
            throw new IllegalArgumentException(values.length + " values for " + rows + " rows");
        }
        this.values = values;
        this.rows = rows;
        this.note = note;
    }

    /**
     * A chunk of rows, each with the id of its person (rows grouped by a privacy unit column).
     *
     * @param values the rows, {@code rows × d} values (not copied)
     * @param rows   the number of rows
     * @param note   what the reader found in the partition, on its last chunk only (null on the others)
     * @param ids    each row's id (not copied), or null
     */
    public RowChunk(double[] values, int rows, Serializable note, String[] ids) {
        this(values, rows, note);
        if (ids != null && ids.length != rows) {
            throw new IllegalArgumentException(ids.length + " ids for " + rows + " rows");
        }
        this.ids = ids;
    }

    /**
     * The rows' ids, when the reader reads a privacy unit column (the array itself: do not change it).
     *
     * @return one id per row, or null
     */
    public String[] ids() {
        return ids;
    }

    /**
     * The rows, row-major (the array itself: do not change it).
     *
     * @return {@code rows × d} values
     */
    public double[] values() {
        return values;
    }

    /**
     * The number of rows.
     *
     * @return the rows
     */
    public int rows() {
        return rows;
    }

    /**
     * What the reader found in the partition, on the partition's last chunk.
     *
     * @return the note, or null
     */
    public Serializable note() {
        return note;
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
