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
                    finish();
                    return false;
                }
                enforce(into, inner.position());
                return true;
            }

            @Override
            public int nextBlock(double[] block, int maxRows, int d) {
                long before = inner.rowsRead();
                int k = inner.nextBlock(block, maxRows, d);
                if (k == 0) {
                    finish();
                    return 0;
                }
                double[] row = new double[d];
                for (int i = 0; i < k; i++) {
                    System.arraycopy(block, i * d, row, 0, d);
                    if (enforce(row, describe() + " row " + (before + i + 1))) {
                        System.arraycopy(row, 0, block, i * d, d);
                    }
                }
                return k;
            }

            private void finish() {
                if (!done) {
                    done = true;
                    lastClipped.set(clipped);
                    lastRows.set(inner.rowsRead());
                }
            }

            /** Clips or checks one row; true when it was changed. */
            private boolean enforce(double[] row, String where) {
                if (policy == DataBounds.Policy.CLIP) {
                    if (clipping.clipInPlace(row)) {
                        clipped++;
                        return true;
                    }
                    return false;
                }
                double m = clipping.measure(row);
                if (m > clipping.bound()) {
                    throw new InvalidDataException(where + " has " + clipping.describeNorm() + " "
                            + m + " > bound " + clipping.bound()
                            + "; clip rows instead (--clip-norm) or raise the bound");
                }
                return false;
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
