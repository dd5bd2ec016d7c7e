package io.dpspectra.data.csv;

import io.dpspectra.data.InvalidDataException;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * The data rows of byte ranges of CSV files that share one layout ({@link CsvRows}: its separator, header,
 * selected columns and comment prefix; or {@link SchemaRows}: a schema's columns and map), each range parsed on its
 * own, for a reader that splits files across machines (the Spark job's tasks). The cells are read by
 * {@link CsvRows}'s own parser (or mapped line by line as {@link SchemaRows} maps them), so a range's rows, their ids
 * when the layout has an id column ({@link Reader#ids}), and the problems it finds, are those of reading the file
 * whole; {@link #check} then names the first problem with the file's line numbers, as {@link CsvRows} (or
 * {@link SchemaRows}) would.
 *
 * <p>Ranges: the range {@code [start, end)} of a file holds the lines that begin right after a line break at a
 * position in {@code [start, end)}, and the file's first line when {@code start} is 0 (as Hadoop's line reader
 * splits text), so that the ranges of a file, taken in order, hold each of its lines exactly once; the last line
 * of a range may run past {@code end}. The range that starts at 0 skips a UTF-8 byte order mark and the file's
 * preamble (the lines before the first data line: skipped lines and the header).
 *
 * <p>Problems: a range stops at its first problem (a bad or non-finite cell, a ragged line, a blank line inside
 * the data, an empty id when the layout has an id column) and reports it in its {@link Part} instead of throwing,
 * since only the ranges before it know its line number; {@link #check} takes the parts of every range in file order and throws the problem that reading
 * the files whole would meet first.
 */
public final class CsvRanges implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Bytes read at a time past a range's end, looking for the end of its last line. */
    private static final int PAST_END = 8192;

    /** The parser of the layout's lines (its format, columns and messages). */
    private final PieceParser parser;
    /** The lines before a file's first data line (skipped lines and the header). */
    private final long preambleLines;
    /** What to do when a preamble runs past a file's first range, for that message. */
    private final String longerRanges;

    CsvRanges(PieceParser parser, long preambleLines, String longerRanges) {
        this.parser = parser;
        this.preambleLines = preambleLines;
        this.longerRanges = longerRanges;
    }

    /**
     * The ranges of files laid out as {@code layout} (found from the first lines of the first file).
     *
     * @param layout       the layout
     * @param longerRanges what to do when a file's preamble does not end within its first range (e.g. the
     *                     setting that makes ranges longer), for that message
     * @return the ranges' reader, serializable
     */
    public static CsvRanges of(CsvRows layout, String longerRanges) {
        return layout.ranges(Objects.requireNonNull(longerRanges, "longerRanges"));
    }

    /**
     * The number of selected columns.
     *
     * @return d
     */
    public int dimension() {
        return parser.dimension();
    }

    /**
     * Reads a range of a file.
     *
     * @param in    the file's bytes (inflated, for a compressed file) from byte {@code start} on; not closed here
     * @param file  the file's name in messages
     * @param start the range's first byte (0 for the file's first range)
     * @param end   the byte after the range ({@link Long#MAX_VALUE}: to the end of the file)
     * @return the range's reader
     */
    public Reader open(InputStream in, String file, long start, long end) {
        return new Reader(in, file, start, end);
    }

    /**
     * Throws the first problem of a file set read in ranges, as reading each file whole would: a problem a range
     * found, or a blank line at the end of one range followed by data in a later range of the same file.
     *
     * @param parts the parts of every range, in file order (a file's ranges together, by their start)
     * @throws InvalidDataException the first problem, naming its file and line
     */
    public void check(List<Part> parts) {
        long base = preambleLines;
        long pendingBlank = 0;
        for (Part part : parts) {
            if (part.start == 0) {
                base = preambleLines;
                pendingBlank = 0;
            }
            long partBase = base;
            base += part.lines;
            if (BlankLines.insideData(pendingBlank, part.firstContent)) {
                throw parser.named(part.file).blankInsideData(pendingBlank, partBase + part.firstContent);
            }
            pendingBlank = BlankLines.pendingAfter(pendingBlank, partBase, part.firstContent, part.trailingBlank,
                    part.problem != null);
            if (part.problem != null) {
                throw part.problem.apply(partBase);
            }
        }
    }

    /**
     * What a range found besides its rows: its lines, where its content begins and ends, and its first problem.
     * Serializable and small (a problem carries the format), for the ranges' readers to hand to {@link #check}.
     */
    public static final class Part implements Serializable {
        private static final long serialVersionUID = 1L;

        /** The file's name in messages. */
        private final String file;
        /** The range's first byte (0: the file's first range). */
        private final long start;
        /** The lines of the range (up to its problem, if it has one). */
        private long lines;
        /** The range's first non-blank, non-comment line (1-based in the range), 0 if none. */
        private long firstContent;
        /** The first blank line after the range's last content line (1-based in the range), 0 if none. */
        private long trailingBlank;
        /** The range's first problem, made with the number of lines before the range; null if none. */
        private LineProblem problem;

        private Part(String file, long start) {
            this.file = file;
            this.start = start;
        }
    }

    /** One range read piece by piece: {@link #next} until null, then {@link #part}. */
    public final class Reader {
        private final InputStream in;
        private final PieceParser named;
        private final long end;
        private final Part part;
        /** The absolute position of the next byte {@link #in} gives. */
        private long position;
        private byte[] buffer = new byte[CsvPipeline.PIECE_BYTES];
        /** Bytes [0, filled) of the buffer are read and not yet parsed; they start at {@link #position} - filled. */
        private int filled;
        private boolean eof;
        private boolean started;
        private boolean done;
        /** The ids of the rows {@link #next} returned last, or null. */
        private String[] ids;
        /** The last piece's array, when its rows were copied out of it, for the next piece to parse into. */
        private final ArrayBlockingQueue<double[]> spare = new ArrayBlockingQueue<>(1);

        private Reader(InputStream in, String file, long start, long end) {
            if (start < 0 || end < start) {
                throw new IllegalArgumentException("range [" + start + ", " + end + ")");
            }
            this.in = Objects.requireNonNull(in, "in");
            this.named = parser.named(file);
            this.position = start;
            this.end = end;
            this.part = new Part(file, start);
        }

        /**
         * The rows of the range's next piece (about a megabyte of lines), row-major, {@link #dimension()} values a
         * row; null once the range is read or has stopped at a problem.
         *
         * @return a new array of the piece's rows (never empty), or null
         * @throws IOException when the file cannot be read
         */
        public double[] next() throws IOException {
            if (!started) {
                started = true;
                if (!skipToFirstLine()) {
                    done = true;
                }
            }
            int d = parser.dimension();
            while (!done) {
                int length = cut();
                if (length <= 0) {
                    done = true;
                    break;
                }
                Piece piece = named.parsePiece(buffer, length, spare);
                System.arraycopy(buffer, length, buffer, 0, filled - length);
                filled -= length;
                long pieceBase = part.lines;
                part.lines += piece.lines;
                if (BlankLines.insideData(part.trailingBlank, piece.firstContent)) {
                    long blank = part.trailingBlank;
                    long data = pieceBase + piece.firstContent;
                    PieceParser p = named;
                    part.problem = base -> p.blankInsideData(base + blank, base + data);
                    done = true;
                    break;
                }
                if (part.firstContent == 0 && piece.firstContent > 0) {
                    part.firstContent = pieceBase + piece.firstContent;
                }
                int kept = piece.rows;
                LineProblem problem = piece.problem;
                if (piece.ids != null) {
                    // an empty id is the grouping's error (the same words as core's grouping), at its line
                    for (int r = 0; r < piece.rows; r++) {
                        if (piece.ids[r].isEmpty()) {
                            long at = piece.rowLine[r];
                            String file = part.file;
                            String column = named.idColumnName();
                            problem = b -> InvalidDataException.emptyUnitId(file + ", line " + (b + at), column);
                            kept = r;
                            break;
                        }
                    }
                }
                part.trailingBlank = BlankLines.pendingAfter(part.trailingBlank, pieceBase, piece.firstContent,
                        piece.trailingBlank, problem != null);
                if (problem != null) {
                    LineProblem inPiece = problem;
                    part.problem = base -> inPiece.apply(base + pieceBase);
                    done = true;
                }
                if (kept > 0) {
                    ids = piece.ids == null ? null : Arrays.copyOf(piece.ids, kept);
                    if (piece.values.length == kept * d) {
                        return piece.values;
                    }
                    double[] rows = Arrays.copyOf(piece.values, kept * d);
                    spare.offer(piece.values);
                    return rows;
                }
                spare.offer(piece.values);
            }
            return null;
        }

        /**
         * The ids of the rows the last {@link #next} returned, when the layout has an id column
         * ({@link CsvRows.Builder#idColumn}): each the id cell's text, unquoted and trimmed, never empty (a row with an
         * empty id ends the range with that problem, named as core's grouping names it).
         *
         * @return one id per row, or null without an id column
         */
        public String[] ids() {
            return ids;
        }

        /**
         * What the range found; complete once {@link #next} returned null.
         *
         * @return the range's part, for {@link CsvRanges#check}
         */
        public Part part() {
            return part;
        }

        /**
         * Skips to the range's first line: past the byte order mark and the preamble at the file's start, else
         * past the first line break at or after the range's start. False when the range holds no line.
         */
        private boolean skipToFirstLine() throws IOException {
            if (part.start == 0) {
                fill();
                int at = filled >= 3 && (buffer[0] & 0xff) == 0xEF && (buffer[1] & 0xff) == 0xBB
                        && (buffer[2] & 0xff) == 0xBF ? 3 : 0;
                drop(at);
                for (long left = preambleLines; left > 0; left--) {
                    long lineBreak = skipLine();
                    if (lineBreak < 0) {
                        return false;
                    }
                    if (lineBreak >= end) {
                        long lines = preambleLines;
                        String file = part.file;
                        String remedy = longerRanges;
                        long rangeEnd = end;
                        part.problem = base -> new InvalidDataException(file + ": the " + lines + " line(s) before "
                                + "the data (the header) run past byte " + rangeEnd + ", where the file's first range "
                                + "ends; " + remedy);
                        return false;
                    }
                }
                return true;
            }
            long lineBreak = skipLine();
            return lineBreak >= 0 && lineBreak < end;
        }

        /** Drops bytes up to and including the next line break; its position, or -1 at the end of the file. */
        private long skipLine() throws IOException {
            while (true) {
                for (int i = 0; i < filled; i++) {
                    if (buffer[i] == '\n') {
                        long at = position - filled + i;
                        drop(i + 1);
                        return at;
                    }
                }
                filled = 0;
                if (eof) {
                    return -1;
                }
                fill();
            }
        }

        private void drop(int bytes) {
            System.arraycopy(buffer, bytes, buffer, 0, filled - bytes);
            filled -= bytes;
        }

        /**
         * Reads until the buffer is full, the file ends, or the range's end is reached; past the end, in small
         * reads (the range's last line only needs its end), so that a range reads little of the next one.
         */
        private void fill() throws IOException {
            while (!eof && filled < buffer.length) {
                int space = buffer.length - filled;
                int want = position < end ? (int) Math.min(space, end - position) : Math.min(space, PAST_END);
                int n = in.read(buffer, filled, want);
                if (n < 0) {
                    eof = true;
                } else {
                    filled += n;
                    position += n;
                }
                if (position >= end) {
                    return;
                }
            }
        }

        /**
         * The length of the next piece at the buffer's start: whole lines, up to the end of the range's last line
         * (the first line break at or after {@link #end}); 0 when nothing is left.
         */
        private int cut() throws IOException {
            while (true) {
                fill();
                if (filled == 0) {
                    return 0;
                }
                long bufferStart = position - filled;
                int from = (int) Math.max(0, Math.min(filled, end - bufferStart));
                for (int i = from; i < filled; i++) {
                    if (buffer[i] == '\n') {
                        done = true;   // the range's last line ends here
                        return i + 1;
                    }
                }
                if (eof) {
                    return filled;
                }
                if (filled < buffer.length) {
                    continue;   // past the range's end, and its last line has not ended yet
                }
                for (int i = filled - 1; i >= 0; i--) {
                    if (buffer[i] == '\n') {
                        return i + 1;
                    }
                }
                buffer = Arrays.copyOf(buffer, buffer.length * 2);   // one line longer than the buffer
            }
        }
    }
}
