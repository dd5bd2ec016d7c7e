package io.dpspectra.data;

import io.dpspectra.linalg.Backend;
import io.dpspectra.linalg.Gram;
import io.dpspectra.linalg.Matrix;
import java.util.function.LongConsumer;

/**
 * One streamed pass over a {@link RowSource} that accumulates XᵀX through {@link Gram}: dsyrk over the
 * canonical blocks of rows, summed so that the result depends on the rows and their order only. A source
 * that parses on several threads (a CSV file) folds its rows on those threads instead
 * ({@link RowCursor#foldGram}), with the clipping and centring of the rows handed down to them, and gets
 * the same bits. Rows are pulled a block at a time with {@link RowCursor#nextBlock}, which
 * {@link BinaryRows} fills straight from its read buffer and {@link ClippedRows} clips row by row; a
 * {@link GramStatistic} (XᵀX summed elsewhere, e.g. across a cluster) is returned as it is. This is the
 * one way algorithms that need the d × d second-moment matrix get it.
 *
 * @param gram the full symmetric XᵀX (d × d)
 * @param rows the number of rows read
 */
public record GramPass(Matrix gram, long rows) {

    /**
     * XᵀX of every row of the source; empty data is an {@link InvalidDataException}.
     *
     * @param source the rows
     * @return XᵀX and the number of rows
     */
    public static GramPass of(RowSource source) {
        return of(source, Backend.DEFAULT, Gram.blockRows(source.dimension()), n -> { });
    }

    /**
     * XᵀX of every row of the source, read {@code blockRows} rows at a time, with progress.
     *
     * @param source    the rows
     * @param backend   native BLAS or pure Java
     * @param blockRows rows read at a time (the result does not depend on it)
     * @param progress  called with the number of rows read so far, once per block
     * @return XᵀX and the number of rows
     */
    public static GramPass of(RowSource source, Backend backend, int blockRows, LongConsumer progress) {
        return of(source, backend, blockRows, progress, backend.threads());
    }

    /** As {@link #of(RowSource, Backend, int, LongConsumer)}, reading ahead when a processor more than {@code
     * foldThreads} is there (tests force the read-ahead with 1). */
    static GramPass of(RowSource source, Backend backend, int blockRows, LongConsumer progress, int foldThreads) {
        var statistic = GramStatistic.behind(source);
        if (statistic.isPresent()) {
            return statistic.get().pass();
        }
        int d = source.dimension();
        Gram gram = new Gram(d, backend);
        long n = 0;
        try (RowCursor cursor = source.open()) {
            GramPass folded = cursor.foldGram(RowTransform.IDENTITY, backend, blockRows, progress);
            if (folded != null) {
                return folded;
            }
            // the next block is read, decoded and bounded while this one's dsyrk runs, when a processor is free for it
            try (ReadAhead blocks = ReadAhead.start(cursor, d, blockRows, source.knownSize(), foldThreads)) {
                int filled;
                while ((filled = blocks.next()) > 0) {
                    gram.addBlock(blocks.values(), filled);
                    n += filled;
                    progress.accept(n);
                }
            }
        }
        if (n == 0) {
            throw new InvalidDataException(source.describe() + " has no rows; provide at least one data row");
        }
        return new GramPass(gram.result(), n);
    }
}
