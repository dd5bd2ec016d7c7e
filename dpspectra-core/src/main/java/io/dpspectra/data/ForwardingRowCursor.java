package io.dpspectra.data;

import java.util.Objects;

/**
 * A {@link RowCursor} that forwards every call, including the block read, to another cursor. Subclass
 * it to observe or transform a pass (count, clip, report progress) without losing the inner cursor's
 * fast {@link #nextBlock} or its row positions.
 */
public abstract class ForwardingRowCursor implements RowCursor {
    /** The cursor calls are forwarded to. */
    protected final RowCursor inner;

    /**
     * A cursor that forwards every call to {@code inner}.
     *
     * @param inner the cursor to forward to (closed by {@link #close()})
     */
    protected ForwardingRowCursor(RowCursor inner) {
        this.inner = Objects.requireNonNull(inner, "inner");
    }

    @Override
    public boolean next(double[] into) {
        return inner.next(into);
    }

    @Override
    public int nextBlock(double[] block, int maxRows, int d) {
        return inner.nextBlock(block, maxRows, d);
    }

    @Override
    public String position() {
        return inner.position();
    }

    @Override
    public String positionOfRow(long row) {
        return inner.positionOfRow(row);
    }

    @Override
    public long bytesRead() {
        return inner.bytesRead();
    }

    @Override
    public long line() {
        return inner.line();
    }

    @Override
    public long rowsRead() {
        return inner.rowsRead();
    }

    @Override
    public void close() {
        inner.close();
    }
}
