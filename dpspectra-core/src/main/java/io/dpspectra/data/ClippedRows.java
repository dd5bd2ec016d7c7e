package io.dpspectra.data;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link RowSource} whose rows satisfy a user-given norm bound, by clipping or by rejection. It
 * counts the rows it clipped in the last completed pass ({@link #clippedRows()}); algorithms report
 * that count in their diagnostics. (The count is data-dependent: it is for the data owner, and is not
 * part of a private release.)
 */
public final class ClippedRows implements RowSource {
    private final RowSource source;
    private final Clipping clipping;
    private final DataBounds.Policy policy;
    private final AtomicLong lastClipped = new AtomicLong(-1);
    private final AtomicLong lastRows = new AtomicLong(-1);

    ClippedRows(RowSource source, Clipping clipping, DataBounds.Policy policy) {
        this.source = source;
        this.clipping = clipping;
        this.policy = policy;
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
        return Optional.of(new DataBounds(clipping.norm(), clipping.bound(), DataBounds.Origin.USER_GIVEN, policy));
    }

    @Override
    public String describe() {
        return source.describe();
    }

    /** Rows clipped in the last completed pass, or −1 before any pass completed. */
    public long clippedRows() {
        return lastClipped.get();
    }

    /** Rows read in the last completed pass, or −1 before any pass completed. */
    public long rowsInLastPass() {
        return lastRows.get();
    }

    @Override
    public RowCursor open() {
        RowCursor inner = source.open();
        return new RowCursor() {
            private long clipped;
            private boolean done;

            @Override
            public boolean next(double[] into) {
                if (!inner.next(into)) {
                    if (!done) {
                        done = true;
                        lastClipped.set(clipped);
                        lastRows.set(inner.rowsRead());
                    }
                    return false;
                }
                if (policy == DataBounds.Policy.CLIP) {
                    if (clipping.clipInPlace(into)) {
                        clipped++;
                    }
                } else {
                    double m = clipping.measure(into);
                    if (m > clipping.bound()) {
                        throw new InvalidDataException(inner.position() + " has " + clipping.describeNorm() + " "
                                + m + " > bound " + clipping.bound()
                                + "; clip rows instead (--clip-norm) or raise the bound");
                    }
                }
                return true;
            }

            @Override
            public String position() {
                return inner.position();
            }

            @Override
            public long rowsRead() {
                return inner.rowsRead();
            }

            @Override
            public void close() {
                inner.close();
            }
        };
    }
}
