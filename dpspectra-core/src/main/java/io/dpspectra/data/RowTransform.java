package io.dpspectra.data;

import java.util.Objects;

/**
 * A map applied to a block of rows in place, row by row, with no state shared between rows other than
 * thread-safe counters, so that it may run on whichever thread produced the rows: the clipping of
 * {@link ClippedRows} and the shift of {@link ShiftedRows}, handed down to a source that folds XᵀX on
 * its parser threads ({@link RowCursor#foldGram}).
 */
@FunctionalInterface
public interface RowTransform {
    /** Leaves the rows as they are. */
    RowTransform IDENTITY = (block, rows, d) -> { };

    /**
     * Transforms rows [0, rows) of {@code block} (row-major, width d) in place. Modified: block.
     *
     * @param block the rows, row-major
     * @param rows  the number of rows
     * @param d     the row width
     * @throws RowProblem when a row cannot be transformed (names the row within the block)
     */
    void apply(double[] block, int rows, int d);

    /**
     * This transform, then {@code next}.
     *
     * @param next the transform applied after this one
     * @return the composition
     */
    default RowTransform then(RowTransform next) {
        Objects.requireNonNull(next, "next");
        if (next == IDENTITY) {
            return this;
        }
        if (this == IDENTITY) {
            return next;
        }
        return (block, rows, d) -> {
            apply(block, rows, d);
            next.apply(block, rows, d);
        };
    }

    /**
     * A row that cannot be transformed: its 0-based index within the block, and the end of the message,
     * which follows the row's position ("row 17 (data.csv line 19)") in the {@link InvalidDataException}
     * of {@link #at}.
     */
    final class RowProblem extends RuntimeException {
        private static final long serialVersionUID = 1L;
        /** The row's 0-based index within its block. */
        private final int index;

        /**
         * A problem with row {@code index} of a block.
         *
         * @param index         the row's 0-based index within the block
         * @param afterPosition the message's end, which follows the row's position
         * @param cause         the underlying error, or null
         */
        public RowProblem(int index, String afterPosition, Throwable cause) {
            super(afterPosition, cause);
            this.index = index;
        }

        /**
         * The row's 0-based index within the block it was found in.
         *
         * @return the index
         */
        public int index() {
            return index;
        }

        /**
         * The problem as the error to throw, given the row's position in the pass.
         *
         * @param position the row's position, e.g. "row 17 (data.csv line 19)"
         * @return the error
         */
        public InvalidDataException at(String position) {
            return new InvalidDataException(position + getMessage(), getCause());
        }
    }
}
