package io.dpspectra.linalg;

import java.util.Locale;

/**
 * A dense array that cannot exist: a rows × cols matrix (or buffer) with more entries than one Java array
 * can hold (2³¹ − 9), e.g. a d × d matrix for d ≥ 46,341. Thrown instead of an integer overflow, before
 * anything is allocated; the fix is an algorithm that never forms it (a streaming one needs O(dk)).
 */
public final class MatrixTooLargeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The largest length of a double[] the JVM allocates. */
    public static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

    /** The rows of the array that cannot exist. */
    private final long rows;
    /** The columns of the array that cannot exist. */
    private final long cols;

    /**
     * An array of {@code rows} × {@code cols} entries that cannot exist.
     *
     * @param what what the array is, for the message (e.g. "the d x d matrix XᵀX")
     * @param rows its rows
     * @param cols its columns
     */
    public MatrixTooLargeException(String what, long rows, long cols) {
        super(String.format(Locale.ROOT, "%s of %d x %d = %.3g entries (%.1f GB) is larger than one Java array can "
                + "hold (%d entries)", what, rows, cols, (double) rows * cols, 8.0 * rows * cols / 1e9, MAX_ARRAY_LENGTH));
        this.rows = rows;
        this.cols = cols;
    }

    /**
     * The rows of the array that cannot exist.
     *
     * @return the rows
     */
    public long rows() {
        return rows;
    }

    /**
     * The columns of the array that cannot exist.
     *
     * @return the columns
     */
    public long cols() {
        return cols;
    }

    /**
     * The length rows·cols of a dense array, checked: a {@link MatrixTooLargeException} naming {@code what}
     * when it exceeds {@link #MAX_ARRAY_LENGTH}; never an overflowed int.
     *
     * @param what what the array is, for the message
     * @param rows its rows, ≥ 0
     * @param cols its columns, ≥ 0
     * @return rows·cols
     * @throws MatrixTooLargeException when rows·cols &gt; {@link #MAX_ARRAY_LENGTH}
     */
    public static int checkedLength(String what, long rows, long cols) {
        if (rows < 0 || cols < 0) {
            throw new IllegalArgumentException(what + ": dimensions must be >= 0, got " + rows + " x " + cols);
        }
        if (rows != 0 && cols > MAX_ARRAY_LENGTH / rows) {
            throw new MatrixTooLargeException(what, rows, cols);
        }
        return (int) (rows * cols);
    }
}
