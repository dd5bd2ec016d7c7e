package io.dpspectra.data.csv;

import io.dpspectra.data.GramPass;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.IoErrors;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowTransform;
import io.dpspectra.linalg.Backend;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.function.LongConsumer;

/**
 * One pass over a {@link CsvRows} source: parsed pieces taken in file order from the pipeline, handed out row
 * by row or in blocks, or folded into XᵀX on the parser threads ({@link #foldGram}).
 */
final class CsvCursor implements RowCursor {
    private final String name;
    private final CsvPieceParser parser;
    private final long preambleLines;
    private final InputStream raw;
    private final CsvPipeline.CountingInputStream counted;
    /** Started by the first read: row by row, or folding XᵀX ({@link #foldGram}). */
    private CsvPipeline<Piece> pipeline;
    /**
     * Row arrays of pieces already consumed (folded, or copied out row by row), for later pieces to
     * parse into, so that a pass allocates a few arrays rather than one per piece.
     */
    private final ArrayBlockingQueue<double[]> spareValues = new ArrayBlockingQueue<>(16);
    private final int d;
    private Piece piece;
    private int rowInPiece;
    /** Physical line number just before the current piece. */
    private long pieceBase;
    private long nextBase;
    private long pendingBlank;
    private long lastRowLine;
    private long rows;
    private boolean finished;
    private boolean closed;
    /** File line of each row of the last block (rows blockFirstRow, blockFirstRow + 1, ...). */
    private long[] blockLines = new long[0];
    private long blockFirstRow = 1;
    private int blockCount;

    /**
     * @param name          the file or stream, for messages
     * @param parser        the byte parser of the file's format
     * @param preambleLines the lines before the first data line (skipped lines and the header)
     * @param raw           the bytes of the file (inflated for gzip)
     * @param counted       the file's bytes as read from disk, counted for progress
     */
    CsvCursor(String name, CsvPieceParser parser, long preambleLines, InputStream raw,
            CsvPipeline.CountingInputStream counted) {
        this.name = name;
        this.parser = parser;
        this.preambleLines = preambleLines;
        this.d = parser.dimension();
        this.pieceBase = preambleLines;
        this.nextBase = preambleLines;
        this.raw = raw;
        this.counted = counted;
    }

    /** Makes a row available in {@link #piece}, or returns false at the end; throws at a problem. */
    private boolean advance() {
        if (closed) {
            throw new IllegalStateException("cursor over " + name + " is closed; open a new pass");
        }
        if (pipeline == null) {
            pipeline = new CsvPipeline<>(raw, counted, preambleLines,
                    (bytes, length) -> parser.parsePiece(bytes, length, spareValues));
        }
        while (!finished) {
            if (piece != null && rowInPiece < piece.rows) {
                return true;
            }
            if (piece != null && piece.problem != null) {
                finished = true;
                throw piece.problem.apply(pieceBase);
            }
            if (!takePiece()) {
                return false;
            }
        }
        return false;
    }

    /**
     * Takes the next piece in file order into {@link #piece}; false at the end; throws at a blank line
     * inside the data.
     */
    private boolean takePiece() {
        if (piece != null && piece.values != null) {
            spareValues.offer(piece.values); // this thread is done with its rows
        }
        piece = pipeline.next(e -> new InvalidDataException("cannot read " + name + " after line "
                + nextBase + ": " + IoErrors.inWords(e) + "; check that the file is complete and (for .gz) not "
                + "truncated", e));
        rowInPiece = 0;
        if (piece == null) {
            finished = true;
            return false;
        }
        pieceBase = nextBase;
        nextBase += piece.lines;
        if (BlankLines.insideData(pendingBlank, piece.firstContent)) {
            finished = true;
            throw parser.blankInsideData(pendingBlank, pieceBase + piece.firstContent);
        }
        pendingBlank = BlankLines.pendingAfter(pendingBlank, pieceBase, piece.firstContent, piece.trailingBlank,
                piece.problem != null);
        return true;
    }

    /**
     * The whole pass folded on the parser threads ({@link CsvGramFold}): each piece is parsed, its rows
     * transformed and added at their row numbers to one Gram matrix, with the bits of the row-by-row pass
     * whatever the thread timing. This thread only takes the pieces in order, to count rows and lines and to
     * report the first problem in the file. Declined (null) once rows were read, or when the sum and the
     * threads' scratch would not fit ({@link CsvGramFold#fits}).
     */
    @Override
    public GramPass foldGram(RowTransform transform, Backend backend, int blockRows, LongConsumer progress) {
        if (closed || pipeline != null || !CsvGramFold.fits(d)) {
            return null;
        }
        CsvGramFold fold = new CsvGramFold(d, backend);
        pipeline = fold.start(raw, counted, preambleLines, parser, transform, spareValues);
        while (takePiece()) {
            if (piece.rowProblem != null) {
                finished = true;
                int at = piece.rowProblem.index();
                long row = rows + at + 1;
                throw piece.rowProblem.at("row " + row + " (" + name + " line " + (pieceBase + piece.rowLine[at])
                        + ")");
            }
            rows += piece.rows;
            if (piece.rows > 0) {
                lastRowLine = pieceBase + piece.rowLine[piece.rows - 1];
            }
            if (piece.problem != null) {
                finished = true;
                throw piece.problem.apply(pieceBase);
            }
            progress.accept(rows);
        }
        if (rows == 0) {
            throw new InvalidDataException(name + " has no rows; provide at least one data row");
        }
        return new GramPass(fold.result(), rows);
    }

    @Override
    public boolean next(double[] into) {
        if (into.length < d) {
            throw new IllegalArgumentException("row buffer has length " + into.length + " but " + name
                    + " has " + d + " selected columns; pass a buffer of length dimension()");
        }
        if (!advance()) {
            return false;
        }
        System.arraycopy(piece.values, rowInPiece * d, into, 0, d);
        lastRowLine = pieceBase + piece.rowLine[rowInPiece];
        rowInPiece++;
        rows++;
        return true;
    }

    @Override
    public int nextBlock(double[] block, int maxRows, int width) {
        if ((long) maxRows * width > block.length) {
            throw new IllegalArgumentException("block has length " + block.length + ", too small for "
                    + maxRows + " rows of width " + width);
        }
        if (blockLines.length < maxRows) {
            blockLines = new long[maxRows];
        }
        blockFirstRow = rows + 1;
        int k = 0;
        blockCount = 0;
        while (k < maxRows && advance()) {
            int take = Math.min(maxRows - k, piece.rows - rowInPiece);
            System.arraycopy(piece.values, rowInPiece * d, block, k * d, take * d);
            for (int i = 0; i < take; i++) {
                blockLines[k + i] = pieceBase + piece.rowLine[rowInPiece + i];
            }
            rowInPiece += take;
            k += take;
            rows += take;
            lastRowLine = blockLines[k - 1];
            blockCount = k;
        }
        return k;
    }

    /** The id column's text of the row the last {@link #next} read (the parser's id column must be set). */
    String id() {
        return piece.ids[rowInPiece - 1];
    }

    @Override
    public String position() {
        return name + " line " + lastRowLine;
    }

    @Override
    public long line() {
        return rows == 0 ? -1 : lastRowLine;
    }

    @Override
    public String positionOfRow(long row) {
        long i = row - blockFirstRow;
        if (row == rows) {
            return position();
        }
        return i >= 0 && i < blockCount ? name + " line " + blockLines[(int) i] : name + " row " + row;
    }

    @Override
    public long rowsRead() {
        return rows;
    }

    @Override
    public long bytesRead() {
        return pipeline == null ? 0 : pipeline.bytesRead();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (pipeline != null) {
                pipeline.close();
            } else {
                try {
                    raw.close();
                } catch (IOException ignored) { // NOPMD: nothing was read, nothing to report
                }
            }
        }
    }
}
