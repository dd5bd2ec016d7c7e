package io.dpspectra.data;

import io.dpspectra.linalg.Backend;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * A {@link RowSource} whose rows satisfy a user-given norm bound, by clipping or by rejection. It
 * counts the rows it clipped in the last pass that ended ({@link #clippedRows()}); algorithms report
 * that count in their diagnostics. (The count is data-dependent: it is for the data owner, and is not
 * part of a private release.)
 *
 * <p>Each pass counts in its own cursor, so the count of one pass is exact even if other passes run
 * at the same time; the source records the count of whichever pass ended last. A pass ends when its
 * cursor reaches the end of the rows or is closed, whichever comes first.
 *
 * <p>Policy {@link DataBounds.Policy#REJECT}: a row above the bound is an {@link InvalidDataException}
 * naming the row's 1-based index (and its file line where the source has lines), its norm and the
 * bound. Such an error discloses that one row exceeded the bound; validate data before a private
 * release (see {@link InvalidDataException}).
 */
public final class ClippedRows implements RowSource {
    private final RowSource source;
    private final Clipping clipping;
    private final DataBounds.Policy policy;
    private final DataBounds.Origin origin;
    private final AtomicLong lastClipped = new AtomicLong(-1);
    private final AtomicLong lastRows = new AtomicLong(-1);

    ClippedRows(RowSource source, Clipping clipping, DataBounds.Policy policy) {
        this(source, clipping, policy, DataBounds.Origin.USER_GIVEN);
    }

    ClippedRows(RowSource source, Clipping clipping, DataBounds.Policy policy, DataBounds.Origin origin) {
        if (source == null) {
            throw new IllegalArgumentException("source must not be null; pass the rows to bound");
        }
        this.source = source;
        this.clipping = clipping;
        this.policy = policy;
        this.origin = origin;
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
    public Optional<DataBounds> bounds() {
        return Optional.of(new DataBounds(clipping.norm(), clipping.bound(), origin, policy));
    }

    @Override
    public String describe() {
        return source.describe();
    }

    /** The source whose rows are bounded. */
    RowSource source() {
        return source;
    }

    /**
     * The norm bound applied.
     *
     * @return the norm and its bound
     */
    public Clipping clipping() {
        return clipping;
    }

    /**
     * Whether rows above the bound are clipped or rejected.
     *
     * @return clip or reject
     */
    public DataBounds.Policy policy() {
        return policy;
    }

    /**
     * Rows clipped in the last pass that ended, or −1 before any pass ended (always 0 for REJECT).
     *
     * @return the count, or −1
     */
    public long clippedRows() {
        return lastClipped.get();
    }

    /**
     * Rows read in the last pass that ended, or −1 before any pass ended.
     *
     * @return the count, or −1
     */
    public long rowsInLastPass() {
        return lastRows.get();
    }

    /**
     * Clips or checks the row in a[off .. off+d): true if it was clipped; a row that cannot be bounded is
     * a {@link RowTransform.RowProblem} at {@code index}.
     */
    private boolean enforce(double[] a, int off, int d, int index) {
        if (policy == DataBounds.Policy.CLIP) {
            try {
                return clipping.clipInPlace(a, off, d);
            } catch (InvalidDataException e) {
                throw new RowTransform.RowProblem(index, ": " + e.getMessage(), e);
            }
        }
        double m = clipping.measure(a, off, d);
        if (!Double.isFinite(m) && !io.dpspectra.linalg.Vectors.isFinite(a, off, d)) {
            throw new RowTransform.RowProblem(index, " has a NaN or infinite entry, so its " + clipping.describeNorm()
                    + " is undefined; remove or impute non-finite values", null);
        }
        if (m > clipping.bound()) { // a finite row whose norm overflows is above every bound
            throw new RowTransform.RowProblem(index, " has " + clipping.describeNorm() + " "
                    + (Double.isFinite(m) ? String.valueOf(m) : "above " + Double.MAX_VALUE) + " > bound "
                    + clipping.bound() + "; use --clip-norm to clip rows onto the bound instead, or raise the bound"
                    + " (choose it from domain knowledge, never from the data)", null);
        }
        return false;
    }

    /**
     * Clips the rows [from, from + rows) of a block all at once ({@link Clipping#clipRowsInPlace}, the same bits as row by
     * row) and returns how many were scaled; or −1, having done nothing that changes the outcome, when the rows
     * must be taken one by one instead: under {@link DataBounds.Policy#REJECT}, or when a row cannot be clipped
     * (then the caller's row-by-row pass finds that row and names it; the rows clipped already are left as they
     * are by clipping them again).
     */
    private int enforceRows(double[] block, int from, int rows, int d) {
        if (policy != DataBounds.Policy.CLIP) {
            return -1;
        }
        try {
            return clipping.clipRowsInPlace(block, from, rows, d);
        } catch (InvalidDataException e) {
            return -1;
        }
    }

    @Override
    public RowCursor open() {
        if (GramStatistic.behind(this).isPresent()) {
            // the statistic's rows are already bounded by this bound or a tighter one: clipping them again is
            // the identity in exact arithmetic, and skipping it keeps their bits (no second rounding)
            return source.open();
        }
        RowCursor inner = source.open();
        return new ForwardingRowCursor(inner) {
            private long clipped;
            private boolean done;

            private void finish() {
                if (!done) {
                    done = true;
                    lastClipped.set(clipped);
                    lastRows.set(inner.rowsRead());
                }
            }

            @Override
            public boolean next(double[] into) {
                if (!inner.next(into)) {
                    finish();
                    return false;
                }
                enforce(into, 0, into.length, inner.rowsRead());
                return true;
            }

            @Override
            public int nextBlock(double[] block, int maxRows, int d) {
                long before = inner.rowsRead();
                // the L2 clip of a block refuses a non-finite cell itself: the reader's own check waits for that
                if (inner instanceof FiniteCheckLater later && policy == DataBounds.Policy.CLIP
                        && clipping.norm() == DataBounds.Norm.L2) {
                    return clipWhileReading(later, block, maxRows, d);
                }
                int got = inner.nextBlock(block, maxRows, d);
                if (got == 0 && maxRows > 0) {
                    finish();
                }
                int fast = enforceRows(block, 0, got, d);
                if (fast >= 0) {
                    clipped += fast;
                    return got;
                }
                for (int i = 0; i < got; i++) {
                    enforce(block, i * d, d, before + i + 1);
                }
                return got;
            }

            /**
             * Reads the block in pieces of about 32 KB (at least four rows), each clipped as soon as it is copied (while it is in cache), the
             * reader's finiteness check left to the clip; a piece the clip refuses is checked by the reader, which
             * names its first non-finite cell as it would have on reading it.
             */
            private int clipWhileReading(FiniteCheckLater reader, double[] block, int maxRows, int d) {
                if (d != dimension() || (long) maxRows * d > block.length) { // before any row is read, as nextBlock
                    throw new IllegalArgumentException("block of length " + block.length + " for " + maxRows
                            + " rows of width " + d + " does not fit rows of width " + dimension());
                }
                int piece = Math.max(4, 4096 / d);   // at least four rows, for the clip to take four side by side
                int got = 0;
                while (got < maxRows) {
                    int m = reader.nextBlockUnchecked(block, got, Math.min(piece, maxRows - got), d);
                    if (m == 0) {
                        break;
                    }
                    int fast = enforceRows(block, got, m, d);
                    if (fast < 0) {
                        reader.checkFinite(block, got, m);
                        long first = inner.rowsRead() - m;
                        for (int i = 0; i < m; i++) {
                            enforce(block, (got + i) * d, d, first + i + 1);
                        }
                    } else {
                        clipped += fast;
                    }
                    got += m;
                }
                if (got == 0 && maxRows > 0) {
                    finish();
                }
                return got;
            }

            /** The bound is enforced on the threads that fold the rows, before {@code transform}. */
            @Override
            public GramPass foldGram(RowTransform transform, Backend backend, int blockRows, LongConsumer progress) {
                LongAdder clippedHere = new LongAdder();
                RowTransform bound = (block, rows, d) -> {
                    int fast = ClippedRows.this.enforceRows(block, 0, rows, d);
                    if (fast >= 0) {
                        clippedHere.add(fast);
                        return;
                    }
                    int changed = 0;
                    for (int i = 0; i < rows; i++) {
                        if (ClippedRows.this.enforce(block, i * d, d, i)) {
                            changed++;
                        }
                    }
                    clippedHere.add(changed);
                };
                GramPass pass = inner.foldGram(bound.then(transform), backend, blockRows, progress);
                if (pass != null) {
                    clipped = clippedHere.sum();
                    finish();
                }
                return pass;
            }

            /** Clips or checks the row in a[off .. off+d); {@code row} is its 1-based index in this pass. */
            private void enforce(double[] a, int off, int d, long row) {
                try {
                    if (ClippedRows.this.enforce(a, off, d, 0)) {
                        clipped++;
                    }
                } catch (RowTransform.RowProblem e) {
                    throw e.at(where(row));
                }
            }

            private String where(long row) {
                String rowName = "row " + row;
                String pos = inner.positionOfRow(row);
                return pos.equals(rowName) ? rowName : rowName + " (" + pos + ")";
            }

            @Override
            public void close() {
                finish();
                inner.close();
            }
        };
    }
}
