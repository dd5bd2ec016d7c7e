package io.dpspectra.data.csv;

import io.dpspectra.data.CellText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Resolves the columns a reader keeps ({@code --columns}, {@code --exclude-columns}) against a file's width
 * and header: 1-based numbers, header names, and ranges of either; errors name the file and the option.
 */
final class ColumnSelection {
    private final String name;
    private final CsvRows.Header header;
    private final List<String> headerNames;

    /**
     * @param name        the file, for messages
     * @param header      whether the file has a header
     * @param headerNames names given for the file's columns, or null
     */
    ColumnSelection(String name, CsvRows.Header header, List<String> headerNames) {
        this.name = name;
        this.header = header;
        this.headerNames = headerNames;
    }

    /**
     * Indices when the selection needs no header (numbers and ranges of numbers); null when it uses
     * names (or selects all with AUTO).
     */
    int[] resolveIndicesWithoutNames(int[] indices, List<String> tokens, int width) {
        if (indices != null) {
            int[] sel = indices.clone();
            for (int j : sel) {
                if (j < 0 || j >= width) {
                    throw new IllegalArgumentException(name + ": column index " + j + " is out of range; the"
                            + " file has " + width + " columns (0-based indices 0.." + (width - 1) + ")");
                }
            }
            checkDistinct(sel);
            return sel;
        }
        if (tokens == null) {
            return allColumns(width);
        }
        if (header == CsvRows.Header.PRESENT) {
            return null;
        }
        List<Integer> sel = new ArrayList<>();
        for (String token : tokens) {
            String t = token.trim();
            int[] range = numericRange(t);
            if (range == null) {
                if (header == CsvRows.Header.ABSENT && headerNames == null) {
                    throw new IllegalArgumentException(name + ": column \"" + t + "\" is not a column number"
                            + " and the file has no header (--header absent); select columns by 1-based"
                            + " number, e.g. --columns 1,3, or name the columns with --header-names");
                }
                return null;
            }
            for (int c = range[0]; c <= range[1]; c++) {
                sel.add(checkRange(c, t, width));
            }
        }
        int[] out = sel.stream().mapToInt(Integer::intValue).toArray();
        checkDistinct(out);
        return out;
    }

    /** {from, to} (1-based, inclusive) for "5" or "1-617"; null if not numeric; 0 is refused. */
    private static int[] numericRange(String t) {
        int dash = t.indexOf('-', 1);
        String lo = dash < 0 ? t : t.substring(0, dash).trim();
        String hi = dash < 0 ? t : t.substring(dash + 1).trim();
        Integer a = parseColumnNumber(lo);
        Integer b = parseColumnNumber(hi);
        if (a == null || b == null) {
            return null;
        }
        if (a > b) {
            throw new IllegalArgumentException("column range " + t + " runs backwards; write it low-high, e.g. "
                    + b + "-" + a);
        }
        return new int[] {a, b};
    }

    int[] resolveTokens(List<String> tokens, List<String> headerCells, int width, String option) {
        Map<String, Integer> byName = new HashMap<>();
        for (int j = headerCells.size() - 1; j >= 0; j--) {
            byName.put(headerCells.get(j), j);
        }
        List<Integer> sel = new ArrayList<>();
        for (String token : tokens) {
            String t = token.trim();
            Integer j = byName.get(t);
            if (j != null) {
                if (headerCells.lastIndexOf(t) != j) {
                    throw new IllegalArgumentException(name + ": " + option + " " + t + " is ambiguous: columns "
                            + (j + 1) + " and " + (headerCells.lastIndexOf(t) + 1) + " are both named \"" + t
                            + "\"; select by 1-based number instead");
                }
                sel.add(j);
                continue;
            }
            int[] range = numericRange(t);
            if (range == null) {
                // a range of names: any dash may be the one between them ("capital-gain-hours-per-week")
                Integer lo = null;
                Integer hi = null;
                for (int dash = t.indexOf('-', 1); dash > 0 && (lo == null || hi == null);
                        dash = t.indexOf('-', dash + 1)) {
                    lo = byName.get(t.substring(0, dash).trim());
                    hi = byName.get(t.substring(dash + 1).trim());
                }
                if (lo == null || hi == null) {
                    throw new IllegalArgumentException(name + ": no column named \"" + t + "\"; the header"
                            + " has " + CellText.abbreviate(headerCells.toString(), 300) + "; select columns by these"
                            + " names or by 1-based number (" + option + ")");
                }
                if (lo > hi) {
                    throw new IllegalArgumentException("column range " + t + " runs backwards; write it "
                            + "first-last in file order");
                }
                range = new int[] {lo + 1, hi + 1};
            }
            for (int c = range[0]; c <= range[1]; c++) {
                sel.add(checkRange(c, t, width));
            }
        }
        int[] out = sel.stream().mapToInt(Integer::intValue).toArray();
        checkDistinct(out);
        return out;
    }

    private int checkRange(int oneBased, String token, int width) {
        if (oneBased > width) {
            throw new IllegalArgumentException(name + ": column " + token + " is out of range; the file has "
                    + width + " columns (numbered 1.." + width + ")");
        }
        return oneBased - 1;
    }

    private void checkDistinct(int[] sel) {
        int[] sorted = sel.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                throw new IllegalArgumentException(name + ": column " + (sorted[i] + 1)
                        + " is selected twice; list each column once");
            }
        }
    }

    /**
     * The index of the id column {@code id} in {@code names}.
     *
     * @param where the names' origin for messages ("the header of f.csv (line 1: ...)", "--header-names")
     * @throws CsvRows.IdColumnException when it is missing or named twice
     */
    int idColumn(String id, List<String> names, String where) {
        int i = names.indexOf(id);
        if (i < 0) {
            throw new CsvRows.IdColumnException("the privacy unit column '" + id + "' is not in " + where,
                    "name one of its columns: " + String.join(", ", names));
        }
        if (names.lastIndexOf(id) != i) {
            throw new CsvRows.IdColumnException("the privacy unit column '" + id + "' is ambiguous: columns " + (i + 1)
                    + " and " + (names.lastIndexOf(id) + 1) + " of " + name + " are both named so",
                    "rename one of them (or name the columns with --header-names)");
        }
        return i;
    }

    /**
     * The feature columns beside the id column {@code id}: every other column, or the ones selected by
     * {@code tokens} (or {@code indices}), less {@code exclude}; the id column may be excluded but not selected.
     *
     * @throws CsvRows.IdColumnException when the id column is selected, or no feature is left
     */
    int[] featuresBesideId(List<String> tokens, int[] indices, List<String> exclude, List<String> names, int width,
            int id, String idName) {
        int[] sel;
        if (tokens == null && indices == null) {
            sel = new int[width - 1];
            for (int j = 0, k = 0; j < width; j++) {
                if (j != id) {
                    sel[k++] = j;
                }
            }
        } else {
            sel = indices != null ? resolveIndicesWithoutNames(indices, null, width)
                    : resolveTokens(tokens, names, width, "--columns");
            if (Arrays.stream(sel).anyMatch(j -> j == id)) {
                throw new CsvRows.IdColumnException("the privacy unit column '" + idName + "' is also selected as a "
                        + "feature: it identifies the person and is used for grouping only",
                        "leave it out of the feature columns");
            }
        }
        if (exclude != null) {
            int[] drop = resolveTokens(exclude, names, width, "--exclude-columns");
            sel = Arrays.stream(sel).filter(j -> Arrays.stream(drop).noneMatch(k -> k == j)).toArray();
        }
        if (sel.length == 0) {
            throw new CsvRows.IdColumnException(name + " has no feature column besides the privacy unit column '"
                    + idName + "'", "give at least one numeric column");
        }
        return sel;
    }

    static int[] allColumns(int width) {
        int[] all = new int[width];
        for (int j = 0; j < width; j++) {
            all[j] = j;
        }
        return all;
    }

    /** A column number written as digits (≥ 1), or null if {@code t} is not digits; 0 is refused. */
    private static Integer parseColumnNumber(String t) {
        if (t.isEmpty() || t.length() > 9) {
            return null;
        }
        for (int i = 0; i < t.length(); i++) {
            if (!CellText.isDigit(t.charAt(i))) {
                return null;
            }
        }
        int v = Integer.parseInt(t);
        if (v == 0) {
            throw new IllegalArgumentException("column numbers are 1-based: 0 names no column; the first column"
                    + " is 1 (e.g. --columns 1-3)");
        }
        return v;
    }
}
