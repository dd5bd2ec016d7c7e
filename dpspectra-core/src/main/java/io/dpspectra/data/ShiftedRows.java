package io.dpspectra.data;

import io.dpspectra.linalg.Backend;
import java.util.OptionalLong;
import java.util.function.LongConsumer;

/**
 * Rows minus a fixed public vector μ (x ↦ x − μ): centring by a public or privately released mean. A
 * per-row map with a constant that is public (declared, or released by a private mechanism whose
 * cost was accounted), so it costs no further privacy.
 */
public final class ShiftedRows implements RowSource {
    private final RowSource source;
    private final double[] shift;

    private ShiftedRows(RowSource source, double[] shift) {
        this.source = source;
        this.shift = shift;
    }

    /**
     * {@code source} with {@code shift} subtracted from every row. Not modified: shift (copied).
     *
     * @param source the rows
     * @param shift  the vector subtracted, length d, finite
     * @return the shifted rows
     */
    public static ShiftedRows of(RowSource source, double[] shift) {
        if (shift.length != source.dimension()) {
            throw new IllegalArgumentException("shift has length " + shift.length + " but the rows have dimension "
                    + source.dimension());
        }
        for (double v : shift) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("the centre has a NaN or infinite entry: " + v);
            }
        }
        return new ShiftedRows(source, shift.clone());
    }

    /**
     * The vector subtracted from every row.
     *
     * @return a copy of it
     */
    public double[] shift() {
        return shift.clone();
    }

    @Override
    public int dimension() {
        return source.dimension();
    }

    @Override
    public OptionalLong knownSize() {
        return source.knownSize();
    }

    @Override
    public String describe() {
        return source.describe();
    }

    private void subtract(double[] block, int rows, int d) {
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < d; j++) {
                block[r * d + j] -= shift[j];
            }
        }
    }

    @Override
    public RowCursor open() {
        RowCursor c = source.open();
        return new ForwardingRowCursor(c) {
            @Override
            public boolean next(double[] into) {
                if (!c.next(into)) {
                    return false;
                }
                for (int j = 0; j < shift.length; j++) {
                    into[j] -= shift[j];
                }
                return true;
            }

            @Override
            public int nextBlock(double[] block, int maxRows, int d) {
                int k = c.nextBlock(block, maxRows, d);
                subtract(block, k, d);
                return k;
            }

            /** The shift is subtracted on the threads that fold the rows, before {@code transform}. */
            @Override
            public GramPass foldGram(RowTransform transform, Backend backend, int blockRows, LongConsumer progress) {
                RowTransform shifted = ShiftedRows.this::subtract;
                return c.foldGram(shifted.then(transform), backend, blockRows, progress);
            }
        };
    }
}
