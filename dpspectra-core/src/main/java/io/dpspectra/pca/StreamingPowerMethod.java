package io.dpspectra.pca;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.GramStatistic;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.MatrixTooLargeException;
import io.dpspectra.linalg.RowBlocks;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.result.PrivateSubspace;
import java.util.Arrays;

/**
 * The streaming power method (SPM): the top-k principal subspace of the second moment E[zzᵀ] of a
 * stream z_1..z_n in one pass and O(d·p) memory, as the noisy power method with A_ℓ = Σ_{i in block ℓ}
 * z_iz_iᵀ: step ℓ reads the next T = ⌊n/L⌋ rows and computes Y_ℓ = Σ z_i(z_iᵀX_{ℓ−1}) block-wise, never
 * forming z zᵀ or A_ℓ; X_ℓ = QR(Y_ℓ). Rows after L·T are not read. Each Y_ℓ is summed in canonical blocks of
 * its T rows ({@link GramStatistic#rangeProduct}), so that a statistic whose rows lie elsewhere (a cluster's)
 * computes the same Y_ℓ bit for bit where they lie, one pass over step ℓ's rows
 * ({@link GramStatistic.RangeProducts}), and the result is the same.
 *
 * <p>Privacy: none; the output reveals the data.
 *
 * <p>Guarantee (Cor. 3.4, spiked model N(0, UΛ²Uᵀ + σ²I) with p = k + Ω(k)): ‖(I − X_LX_Lᵀ)U‖ ≤ ε with
 * probability 9/10 once n = Θ((σ⁶ + 1)kd/(ε²λ_k⁶)) (λ₁ = 1). Block size p ≥ k is supported; p = 2k is
 * what the corollary assumes.
 *
 * <p>Reference: papers/noisy-power-method.txt Fig. 2 (Mitliagkas, Caramanis &amp; Jain 2013), Thm 3.2,
 * Cor. 3.3/3.4; spec stochastic-and-power-methods.md §3.2 and §8 #29 (T = ⌊n/L⌋ where the paper writes
 * ⌊m/L⌋; a sum instead of a mean, which QR makes irrelevant).
 *
 * <p>Cost: one pass, 4·L·T·d·p flops plus O(L·d·p²) for QR; memory O(d·p) plus one canonical block of
 * rows (256 × d) and the read buffer (blockRows × d).
 */
public final class StreamingPowerMethod {
    private final int k;
    private final int p;
    private final int iterations;
    private final int blockRows;
    private final RandomSource random;
    private final Matrix truth;
    private final boolean trace;

    private StreamingPowerMethod(Builder b) {
        this.k = b.k;
        this.p = b.blockSizeOrK();
        this.iterations = b.iterations;
        this.blockRows = b.blockRows;
        this.random = b.random;
        this.truth = b.truth;
        this.trace = b.trace;
    }

    /**
     * A builder; {@code components} is required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. */
    public static final class Builder extends PowerMethodOptions<Builder> {
        private int blockRows = -1;
        private boolean trace;

        @Override
        Builder self() {
            return this;
        }

        /**
         * Rows read from the source at a time (default {@link RowBlocks#DEFAULT_BLOCK_ROWS}, one canonical block,
         * which copies none); the result does not depend on it.
         *
         * @param blockRows the rows per block, ≥ 1
         * @return this builder
         */
        public Builder blockRows(int blockRows) {
            this.blockRows = DpPreconditions.checkAtLeast("blockRows", blockRows, 1);
            return this;
        }

        /**
         * Records the per-iteration trace even without a truth.
         *
         * @param trace whether to record the trace
         * @return this builder
         */
        public Builder trace(boolean trace) {
            this.trace = trace;
            return this;
        }

        /**
         * The method with this configuration.
         *
         * @return a new method
         */
        public StreamingPowerMethod build() {
            checkShared();
            return new StreamingPowerMethod(this);
        }
    }

    /**
     * Runs Fig. 2 on the first n rows of {@code rows} (n = {@link RowSource#knownSize()}).
     *
     * @param rows the rows, of known size n ≥ L
     * @return X_L, its ordered top-k and the trace (no guarantee)
     */
    public PowerMethodResult run(RowSource rows) {
        long n = rows.knownSize().orElseThrow(() -> new IllegalArgumentException("the streaming power method needs"
                + " the number of rows n to set T = floor(n/L), but " + rows.describe() + " does not know its size;"
                + " call run(rows, n)"));
        return run(rows, n);
    }

    /**
     * Runs Fig. 2 on the first n rows of {@code rows}, in one pass.
     *
     * @param rows the rows
     * @param n    the number of rows to use, ≥ L
     * @return X_L, its ordered top-k and the trace (no guarantee)
     */
    public PowerMethodResult run(RowSource rows, long n) {
        int d = rows.dimension();
        PowerIterations.checkShape(d, k, p);
        if (n < iterations) {
            throw new IllegalArgumentException("the streaming power method needs n >= L rows (T = floor(n/L) >= 1),"
                    + " got n = " + n + " < L = " + iterations + "; use fewer iterations or more rows");
        }
        long t = n / iterations;
        var distributed = GramStatistic.rangeProducts(rows);
        if (distributed.isPresent()) {
            // rows summed where they lie (a cluster): step l is one pass over the rows of its range
            return PowerIterations.run(d, p, k, iterations, null,
                    (l, x) -> distributed.get().times(x, (l - 1) * t, l * t), random, truth, trace, null);
        }
        int b = (int) Math.min(blockRows > 0 ? blockRows : RowBlocks.DEFAULT_BLOCK_ROWS, t);
        double[] block = new double[MatrixTooLargeException.checkedLength("the row buffer", b, d)];
        try (RowCursor cursor = rows.open()) {
            return PowerIterations.run(d, p, k, iterations, null, (l, x) -> {
                Matrix y = GramStatistic.rangeProduct(cursor, t, x, block);
                if (y == null) {
                    throw new InvalidDataException(rows.describe() + " ended after " + cursor.rowsRead()
                            + " rows, but n = " + n + " rows were announced (iteration " + l + " of " + iterations
                            + " needs rows " + ((l - 1) * t + 1) + ".." + (l * t) + ")");
                }
                return y;
            }, random, truth, trace, null);
        }
    }

    /**
     * Runs on {@code rows} with n rows, as a non-private {@link PrivateSubspace} (no guarantee).
     *
     * @param rows the rows
     * @param n    the number of rows to use, ≥ L
     * @return the top-k basis (no guarantee)
     */
    public PrivateSubspace fit(RowSource rows, long n) {
        PowerMethodResult r = run(rows, n);
        Diagnostics diag = Diagnostics.builder()
                .put("private", false)
                .put("warning", "the streaming power method is NOT differentially private")
                .put("iterations", iterations)
                .put("blockSize", p)
                .put("rowsPerIteration", n / iterations)
                .put("rowsUsed", (n / iterations) * iterations)
                .put("passes", 1)
                .put("singularValuesOfLastProduct", Arrays.copyOf(r.singularValues(), k))
                .build();
        return new PrivateSubspace("streaming-power", r.components(), null, null, diag);
    }
}
