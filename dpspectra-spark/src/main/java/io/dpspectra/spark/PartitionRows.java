package io.dpspectra.spark;

import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import java.util.Iterator;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;

/**
 * The vectors of one Spark partition (or of a whole column streamed to the driver), or its
 * {@link RowChunk}s, as a single-pass {@link RowSource}, so that core's clipping
 * ({@link io.dpspectra.data.ClippedRows}), Gram pass and products read them exactly as they read a file.
 * Each row is copied (chunks a block at a time); a null vector or one of the wrong width is an
 * {@link InvalidDataException} naming the column and the row.
 */
final class PartitionRows implements RowSource {
    private final Iterator<?> vectors;
    private final int d;
    private final String description;
    private boolean opened;

    PartitionRows(Iterator<?> vectors, int d, String description) {
        this.vectors = vectors;
        this.d = d;
        this.description = description;
    }

    @Override
    public int dimension() {
        return d;
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public RowCursor open() {
        if (opened) {
            throw new IllegalStateException(description + " can be read only once");
        }
        opened = true;
        return new RowCursor() {
            private long read;
            /** The chunk being read, and its next row. */
            private RowChunk chunk;
            private int inChunk;
            /** The next element, taken from the iterator to see whether it is a chunk. */
            private Object peeked;
            private boolean hasPeeked;
            private final double[] row = new double[d];

            private boolean hasNextElement() {
                if (!hasPeeked && vectors.hasNext()) {
                    peeked = vectors.next();
                    hasPeeked = true;
                }
                return hasPeeked;
            }

            private Object take() {
                Object o = peeked;
                peeked = null;
                hasPeeked = false;
                return o;
            }

            /** Whether the next row is in a chunk ({@link #chunk} at {@link #inChunk}); false at the end or a vector. */
            private boolean chunkRow() {
                while (chunk == null || inChunk == chunk.rows()) {
                    chunk = null;
                    if (!hasNextElement() || !(peeked instanceof RowChunk)) {
                        return false;
                    }
                    RowChunk c = (RowChunk) take();
                    if (c.rows() > 0 && c.width() != d) {
                        throw new InvalidDataException("rows after row " + read + " of " + description + " have "
                                + c.width() + " values but the input has " + d + " columns");
                    }
                    chunk = c;
                    inChunk = 0;
                }
                return true;
            }

            @Override
            public int nextBlock(double[] block, int maxRows, int width) {
                if ((long) maxRows * width > block.length || width != d) {
                    throw new IllegalArgumentException("a block of " + block.length + " values for " + maxRows
                            + " rows of " + width + " (d = " + d + ")");
                }
                int k = 0;
                while (k < maxRows) {
                    if (chunkRow()) {
                        int take = Math.min(maxRows - k, chunk.rows() - inChunk);
                        System.arraycopy(chunk.values(), inChunk * d, block, k * d, take * d);
                        inChunk += take;
                        k += take;
                        read += take;
                    } else if (next(row)) {
                        System.arraycopy(row, 0, block, k * d, d);
                        k++;
                    } else {
                        break;
                    }
                }
                return k;
            }

            @Override
            public boolean next(double[] into) {
                if (chunkRow()) {
                    System.arraycopy(chunk.values(), inChunk * d, into, 0, d);
                    inChunk++;
                    read++;
                    return true;
                }
                if (!hasNextElement()) {
                    return false;
                }
                Vector v = (Vector) take();
                read++;
                if (v == null) {
                    throw new InvalidDataException(position() + " is null; every row needs a vector of " + d
                            + " values (drop or impute missing rows first)");
                }
                if (v.size() != d) {
                    throw new InvalidDataException(position() + " has " + v.size() + " values but the first row has "
                            + d + "; every vector in the input column needs the same size");
                }
                if (v instanceof SparseVector sparse) {
                    // scattered into zeros, never densified into a new array (a wide sparse row is mostly zeros)
                    java.util.Arrays.fill(into, 0, d, 0.0);
                    int[] indices = sparse.indices();
                    double[] values = sparse.values();
                    for (int i = 0; i < indices.length; i++) {
                        into[indices[i]] = values[i];
                    }
                } else {
                    double[] values = v.toArray();   // a dense vector's own array: copy, never clip it in place
                    System.arraycopy(values, 0, into, 0, d);
                }
                return true;
            }

            @Override
            public String position() {
                return "row " + read + " of " + description;
            }

            @Override
            public long rowsRead() {
                return read;
            }

            @Override
            public void close() {
            }
        };
    }
}
