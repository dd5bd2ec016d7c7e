package io.dpspectra.data.csv;

import io.dpspectra.data.RowTransform;
import io.dpspectra.linalg.Backend;
import io.dpspectra.linalg.Gram;
import io.dpspectra.linalg.Matrix;
import java.io.InputStream;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * XᵀX of a CSV pass folded on the parser threads: each thread parses its piece, applies the row transform
 * (clipping, centring) to the piece's rows, and adds them at their row numbers to one {@link Gram}
 * (canonical blocks, summed in an order-free way), so the result is the bits of the row-by-row pass whatever
 * the thread timing. The reading thread ({@link CsvCursor#foldGram}) only takes the pieces in file order, to
 * count rows and lines and to report the first problem in the file.
 */
final class CsvGramFold {
    private final int d;
    private final Gram gram;

    /**
     * @param d       the number of selected columns
     * @param backend the linear-algebra backend of the Gram kernel
     */
    CsvGramFold(int d, Backend backend) {
        this.d = d;
        this.gram = new Gram(d, backend);
    }

    /**
     * Whether the fold may run: the sum (26 bytes per entry of the lower triangle) and, per parser thread, a
     * d × d scratch and a packed triangle must take at most an eighth of the heap.
     *
     * @param d the number of selected columns
     * @return true if the fold fits
     */
    static boolean fits(int d) {
        long bytes = (long) d * (d + 1) / 2 * 26 + (long) Runtime.getRuntime().availableProcessors() * d * d * 12;
        return bytes <= Runtime.getRuntime().maxMemory() / 8;
    }

    /**
     * Starts the pass: the pipeline parses each piece, transforms its rows and folds them into the sum on
     * the parser threads; the pieces it hands back in order carry only their row and line counts and their
     * problem, if any. A row the transform refuses ends the piece there ({@link Piece#rowProblem}).
     *
     * @param raw           the bytes of the file (inflated for gzip)
     * @param counted       the file's bytes as read from disk
     * @param preambleLines the lines before the first data line
     * @param parser        the byte parser of the file's format
     * @param transform     the map applied to each row before it is added
     * @param spareValues   row arrays to parse into, and to return them to once folded
     * @return the running pipeline
     */
    CsvPipeline<Piece> start(InputStream raw, CsvPipeline.CountingInputStream counted, long preambleLines,
            CsvPieceParser parser, RowTransform transform, ArrayBlockingQueue<double[]> spareValues) {
        return new CsvPipeline<>(raw, counted, preambleLines, (bytes, length) -> {
            Piece p = parser.parsePiece(bytes, length, spareValues);
            try {
                transform.apply(p.values, p.rows, d);
            } catch (RowTransform.RowProblem e) {
                p.rows = e.index();
                p.rowProblem = e;
            }
            return p;
        }, (p, firstRow) -> {
            gram.addAt(firstRow, p.values, 0, p.rows);
            spareValues.offer(p.values);
            p.values = null;
        }, p -> p.rows);
    }

    /**
     * The sum once every piece has been taken.
     *
     * @return XᵀX of the transformed rows, d × d
     */
    Matrix result() {
        return gram.result();
    }
}
