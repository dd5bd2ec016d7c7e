package io.dpspectra.pca;

import io.dpspectra.linalg.MatrixTooLargeException;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A stream of PSD sample matrices A_1, …, A_n (the inputs of [DS], papers/kdp-pca-adaptive-noise.txt,
 * which allows general A_i with E[A_i] = Σ). {@link #ofRows} adapts rows x_i as A_i = x_i x_iᵀ, the common
 * case, without forming any d × d matrix; other implementations may yield low-rank or dense samples.
 *
 * <p>Privacy unit of the algorithms that read an AiSource: one A_i; the bound on it ({@link #traceBound()},
 * ‖A_i‖ ≤ Tr A_i for PSD A_i) is declared by the source and must not come from the data.
 *
 * <p>Reference: spec stochastic-and-power-methods.md §0 (SampleMatrix).
 */
public interface AiSource {
    /**
     * The dimension d of every sample.
     *
     * @return d
     */
    int dimension();

    /**
     * n if known without a pass.
     *
     * @return n, or empty
     */
    OptionalLong knownSize();

    /**
     * A declared bound on Tr(A_i) (= ‖x_i‖² for rows), or NaN if none was declared.
     *
     * @return the bound, or NaN
     */
    double traceBound();

    /**
     * Opens a pass.
     *
     * @return a new cursor at the first sample
     */
    Cursor open();

    /** One pass over the samples. */
    interface Cursor extends AutoCloseable {
        /**
         * The next sample (valid until the next call), or null at the end.
         *
         * @return the sample, or null
         */
        SampleMatrix next();

        @Override
        void close();
    }

    /**
     * Rows as rank-one samples x xᵀ; the trace bound is the square of the rows' declared L2 bound.
     *
     * @param rows the rows
     * @return the samples x xᵀ
     */
    static AiSource ofRows(RowSource rows) {
        Objects.requireNonNull(rows, "rows");
        double l2 = rows.bounds().map(b -> b.norm() == io.dpspectra.data.DataBounds.Norm.L2 ? b.bound() : Double.NaN)
                .orElse(Double.NaN);
        return new AiSource() {
            @Override
            public int dimension() {
                return rows.dimension();
            }

            @Override
            public OptionalLong knownSize() {
                return rows.knownSize();
            }

            @Override
            public double traceBound() {
                return l2 * l2;
            }

            @Override
            public Cursor open() {
                RowCursor c = rows.open();
                int d = rows.dimension();
                int blockRows = Math.max(1, Math.min(4096, (1 << 16) / Math.max(1, d)));
                double[] block = new double[MatrixTooLargeException.checkedLength("the row buffer", blockRows, d)];
                double[] x = new double[d];
                SampleMatrix sample = SampleMatrix.rankOne(x);
                return new Cursor() {
                    int filled;
                    int pos;

                    @Override
                    public SampleMatrix next() {
                        if (pos == filled) {
                            filled = c.nextBlock(block, blockRows, d);
                            pos = 0;
                            if (filled == 0) {
                                return null;
                            }
                        }
                        System.arraycopy(block, pos * d, x, 0, d);
                        pos++;
                        return sample;
                    }

                    @Override
                    public void close() {
                        c.close();
                    }
                };
            }
        };
    }
}
