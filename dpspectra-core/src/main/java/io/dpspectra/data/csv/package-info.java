/**
 * Rows streamed from CSV files and standard input ({@link io.dpspectra.data.csv.CsvRows}): the options and
 * the first-lines sample that fix the separator, header and columns; the line splitter and cell rules shared
 * with the schema-driven reader ({@link io.dpspectra.data.csv.LineSplitter},
 * {@link io.dpspectra.data.CellText}); and, package-private, the pass itself: the pipeline that cuts the
 * file into pieces at line ends and parses them on every core, the byte parser and its number parser, the
 * cursor that hands rows out in file order, and the Gram fold that adds XᵀX on the parser threads.
 */
package io.dpspectra.data.csv;
