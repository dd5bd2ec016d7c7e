package io.dpspectra.data.csv;

import io.dpspectra.data.InvalidDataException;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits one line of delimited text into cells, recording [start, end) of each raw cell (quotes kept,
 * whitespace trimmed), with the quoting rules of {@link CsvRows}: a cell may be wrapped in double quotes, a
 * doubled quote inside stands for one quote, and a quoted cell may not span lines. Separator {@code ' '}
 * means any run of spaces and tabs. Also used by the schema-driven reader, so that both read a line alike.
 */
public final class LineSplitter {
    private final char sep;
    private final boolean whitespace;

    /**
     * A splitter for one separator.
     *
     * @param sep the separator: ',', ';', '\t', or ' ' for runs of whitespace
     */
    public LineSplitter(char sep) {
        this.sep = sep;
        this.whitespace = sep == ' ';
    }

    /**
     * The cells of one line, unquoted.
     *
     * @param text   the line, without its line break
     * @param source the file or stream, for messages
     * @param line   the line's number, for messages
     * @return the cells, in order
     * @throws InvalidDataException when the line cannot be split (an unclosed quote, text after a closing
     *                              quote); the message names the source and line
     */
    public List<String> splitToList(String text, String source, long line) {
        int[] s = new int[text.length() + 2];
        int[] e = new int[text.length() + 2];
        int n;
        try {
            n = split(text, s, e);
        } catch (LineSyntaxException ex) {
            throw new InvalidDataException(source + " line " + line + ": " + ex.getMessage());
        }
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(unquote(text, s[i], e[i]));
        }
        return out;
    }

    /**
     * The first of ',', tab, ';' and whitespace runs that splits every sampled line into the same
     * number (≥ 2) of cells; failing that, the one that splits the most lines into ≥ 2 cells (the
     * reading then names the ragged line); ',' for a single column.
     *
     * @param lines the first lines of a table (blank lines are skipped)
     * @return the separator: ',', '\t', ';' or ' '
     */
    public static char detectSeparator(List<String> lines) {
        char[] candidates = {',', '\t', ';', ' '};
        char best = ',';
        int bestMulti = 0;
        for (char c : candidates) {
            LineSplitter s = new LineSplitter(c);
            int count = -1;
            boolean consistent = true;
            int multi = 0;
            for (String line : lines) {
                if (line.isBlank()) {
                    continue;
                }
                int n;
                try {
                    n = s.count(line);
                } catch (LineSyntaxException e) {
                    consistent = false;
                    continue;
                }
                if (n >= 2) {
                    multi++;
                }
                if (count < 0) {
                    count = n;
                } else if (n != count) {
                    consistent = false;
                }
            }
            if (consistent && count >= 2) {
                return c;
            }
            if (multi > bestMulti) {
                bestMulti = multi;
                best = c;
            }
        }
        return best;
    }

    /** The number of cells of {@code text}. */
    int count(String text) {
        int[] s = new int[text.length() + 2];
        return split(text, s, new int[s.length]);
    }

    /**
     * Records up to starts.length cells; returns the number of cells found, or starts.length when
     * there are more (callers size the arrays one larger than the expected count).
     */
    int split(String text, int[] starts, int[] ends) {
        int n = text.length();
        int count = 0;
        int i = 0;
        if (whitespace) {
            while (i < n && isBlank(text.charAt(i))) {
                i++;
            }
            if (i == n) {
                return 0;
            }
        }
        while (true) {
            // skip leading whitespace of the cell
            while (i < n && isBlank(text.charAt(i)) && !(text.charAt(i) == sep)) {
                i++;
            }
            int start = i;
            int end;
            if (i < n && text.charAt(i) == '"') {
                i++;
                while (true) {
                    if (i >= n) {
                        throw new LineSyntaxException("a quoted cell starting at"
                                + " character " + (start + 1) + " is not closed; close the quote (quoted"
                                + " cells may not span lines)");
                    }
                    if (text.charAt(i) == '"') {
                        if (i + 1 < n && text.charAt(i + 1) == '"') {
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    i++;
                }
                end = i;
                while (i < n && isBlank(text.charAt(i)) && text.charAt(i) != sep && !whitespace) {
                    i++;
                }
                if (i < n && !isSeparatorAt(text, i)) {
                    throw new LineSyntaxException("unexpected text after the"
                            + " closing quote at character " + i + "; put the whole cell inside the quotes");
                }
            } else {
                while (i < n && !isSeparatorAt(text, i)) {
                    i++;
                }
                end = i;
                while (end > start && isBlank(text.charAt(end - 1))) {
                    end--;
                }
            }
            if (count < starts.length) {
                starts[count] = start;
                ends[count] = end;
            }
            count++;
            if (count >= starts.length) {
                return starts.length;
            }
            if (i >= n) {
                return count;
            }
            // consume the separator
            if (whitespace) {
                while (i < n && isBlank(text.charAt(i))) {
                    i++;
                }
                if (i == n) {
                    return count;
                }
            } else {
                i++;
            }
        }
    }

    private boolean isSeparatorAt(String text, int i) {
        char c = text.charAt(i);
        return whitespace ? isBlank(c) : c == sep;
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }

    /** The cell text without its surrounding quotes, with doubled quotes undone. */
    static String unquote(String text, int start, int end) {
        if (end - start >= 2 && text.charAt(start) == '"' && text.charAt(end - 1) == '"') {
            String inner = text.substring(start + 1, end - 1);
            return (inner.indexOf('"') >= 0 ? inner.replace("\"\"", "\"") : inner).trim();
        }
        return text.substring(start, end);
    }
}
