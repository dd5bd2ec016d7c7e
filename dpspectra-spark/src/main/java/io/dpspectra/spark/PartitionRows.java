package io.dpspectra.spark;

import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import java.util.Iterator;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;

/**
 * The vectors of one Spark partition (or of a whole column streamed to the driver) as a single-pass
 * {@link RowSource}, so that core's clipping ({@link io.dpspectra.data.ClippedRows}), Gram pass and
 * products read them exactly as they read a file. Each vector is copied; a null vector or one of the
 * wrong width is an {@link InvalidDataException} naming the column and the row.
 */
final class PartitionRows implements RowSource {
    private final Iterator<Vector> vectors;
    private final int d;
    private final String description;
    private boolean opened;

    PartitionRows(Iterator<Vector> vectors, int d, String description) {
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

            @Override
            public boolean next(double[] into) {
                if (!vectors.hasNext()) {
                    return false;
                }
                Vector v = vectors.next();
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
