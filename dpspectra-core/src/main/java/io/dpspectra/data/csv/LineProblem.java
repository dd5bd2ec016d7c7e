package io.dpspectra.data.csv;

import io.dpspectra.data.InvalidDataException;
import java.util.function.LongFunction;

/**
 * A problem found in a piece of a file, made into its exception once the number of lines before the piece is
 * known (the argument). Serializable, so that a piece parsed on another machine ({@link CsvRanges}) reports it
 * with the file's line numbers where the pieces meet.
 */
@FunctionalInterface
interface LineProblem extends LongFunction<InvalidDataException>, java.io.Serializable {
}
