package io.dpspectra.data.csv;

import io.dpspectra.data.InvalidDataException;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * A parser of a piece of a file's lines into rows ({@link Piece}): a plain table's ({@link CsvPieceParser}) or a
 * schema's ({@link SchemaPieceParser}). What {@link CsvRanges} reads a byte range of a file with, so that one range
 * reader serves both. Serializable: it travels to the machines that read the ranges.
 */
interface PieceParser extends java.io.Serializable {
    /** The same format, naming {@code other} in messages (another file of the same layout). */
    PieceParser named(String other);

    /** The width of a parsed row. */
    int dimension();

    /**
     * Parses a piece of whole lines, {@code b[0, length)}; its rows go into an array taken from {@code spareValues}
     * when one there is large enough.
     */
    Piece parsePiece(byte[] b, int length, ArrayBlockingQueue<double[]> spareValues);

    /** The error for a blank line followed by data. */
    InvalidDataException blankInsideData(long blankLine, long dataLine);

    /** The id column's name, or null when the rows carry no id. */
    String idColumnName();
}
