package io.dpspectra.data.csv;

/**
 * The rule for blank lines between chunks of a file read in pieces (the pieces of a pass, the ranges of a file, the
 * pieces of a range): a blank line is allowed at the end of the file only, so a blank line at the end of one chunk
 * followed by content in a later one is an error, and the chunks keep one pending blank line between them. One rule
 * for every reader that joins chunks ({@link CsvCursor}, {@link CsvRanges}), so that they report the same line.
 */
final class BlankLines {
    private BlankLines() {
    }

    /**
     * Whether a chunk with content after a pending blank line puts that blank line inside the data.
     *
     * @param pending      the pending blank line, or 0 for none
     * @param firstContent the chunk's first content line (relative to the chunk), or 0 if it has none
     * @return true when the blank line is followed by data
     */
    static boolean insideData(long pending, long firstContent) {
        return pending > 0 && firstContent > 0;
    }

    /**
     * The pending blank line after a chunk: its own trailing blank line when it has one (and no problem) and either
     * nothing was pending or the chunk has content (which ended the earlier one's run of blank lines); else the one
     * pending before it.
     *
     * @param pending       the pending blank line before the chunk, or 0
     * @param base          the lines before the chunk, in the numbering of {@code pending}
     * @param firstContent  the chunk's first content line (relative to the chunk), or 0
     * @param trailingBlank the chunk's first blank line after its last content line (relative), or 0
     * @param problem       whether the chunk stopped at a problem
     * @return the pending blank line after the chunk, or 0
     */
    static long pendingAfter(long pending, long base, long firstContent, long trailingBlank, boolean problem) {
        return trailingBlank > 0 && !problem && (pending == 0 || firstContent > 0) ? base + trailingBlank : pending;
    }
}
