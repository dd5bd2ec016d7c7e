package io.dpspectra.data;

import io.dpspectra.linalg.CsrMatrix;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads a square symmetric matrix from a MatrixMarket coordinate file into a {@link CsrMatrix}.
 *
 * <p>Accepted banner: {@code %%MatrixMarket matrix coordinate real|integer|pattern general|symmetric}.
 * A {@code symmetric} file stores one triangle (entries with row ≥ column, as the format prescribes)
 * and is mirrored; a {@code general} file must contain both triangles and be symmetric. {@code pattern}
 * entries have value 1. Duplicate coordinates are summed. Parsing is strict: every error names the
 * file and line (1-based) and says what to fix — a wrong banner, array format, complex or
 * skew-symmetric/hermitian field, a non-square size, an index outside [1, N], a non-finite or malformed
 * value, too many or too few entries.
 *
 * <p>Reference: the MatrixMarket exchange format (NIST, Boisvert, Pozo &amp; Remington 1996).
 *
 * <p>Cost: one pass over the file; memory about 32 bytes per stored entry while building.
 */
public final class MatrixMarketReader {
    private MatrixMarketReader() {
    }

    /**
     * Reads {@code path}. Throws {@link InvalidDataException} on any malformed content.
     *
     * @param path the MatrixMarket file
     * @return the symmetric matrix
     */
    public static CsrMatrix read(Path path) {
        try (BufferedReader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            return read(r, path.toString());
        } catch (IOException e) {
            throw new InvalidDataException("cannot read " + path + ": " + IoErrors.inWords(e)
                    + "; check that the file exists and is readable", e);
        }
    }

    /**
     * Reads MatrixMarket text from {@code reader}; {@code name} appears in error messages.
     *
     * @param reader the text
     * @param name   the input's name for messages
     * @return the symmetric matrix
     * @throws IOException when the reader fails
     */
    public static CsrMatrix read(BufferedReader reader, String name) throws IOException {
        long line = 1;
        String banner = reader.readLine();
        if (banner == null) {
            throw new InvalidDataException(name + " is empty; expected a MatrixMarket file starting with "
                    + "'%%MatrixMarket matrix coordinate real symmetric'");
        }
        if (!banner.isEmpty() && banner.charAt(0) == '\uFEFF') {
            banner = banner.substring(1);
        }
        String[] b = banner.trim().split("\\s+");
        if (b.length != 5 || !b[0].equalsIgnoreCase("%%MatrixMarket")) {
            throw new InvalidDataException(name + " line 1: expected the banner '%%MatrixMarket matrix coordinate "
                    + "<real|integer|pattern> <general|symmetric>', got '" + abbreviate(banner) + "'");
        }
        String object = b[1].toLowerCase(Locale.ROOT);
        String format = b[2].toLowerCase(Locale.ROOT);
        String field = b[3].toLowerCase(Locale.ROOT);
        String symmetry = b[4].toLowerCase(Locale.ROOT);
        if (!object.equals("matrix")) {
            throw new InvalidDataException(name + " line 1: object '" + b[1] + "' is not supported; only 'matrix'");
        }
        if (!format.equals("coordinate")) {
            throw new InvalidDataException(name + " line 1: format '" + b[2] + "' is not supported; only sparse "
                    + "'coordinate' files (convert dense 'array' files to coordinate form)");
        }
        boolean pattern = field.equals("pattern");
        if (!pattern && !field.equals("real") && !field.equals("integer")) {
            throw new InvalidDataException(name + " line 1: field '" + b[3] + "' is not supported; use real, "
                    + "integer or pattern (complex matrices are not supported)");
        }
        boolean symmetric = symmetry.equals("symmetric");
        if (!symmetric && !symmetry.equals("general")) {
            throw new InvalidDataException(name + " line 1: symmetry '" + b[4] + "' is not supported; use "
                    + "symmetric or general (the power methods need a real symmetric matrix)");
        }
        String text;
        do {
            text = reader.readLine();
            line++;
        } while (text != null && (text.isBlank() || text.trim().startsWith("%")));
        if (text == null) {
            throw new InvalidDataException(name + ": missing the size line 'ROWS COLUMNS ENTRIES' after the banner");
        }
        String[] size = text.trim().split("\\s+");
        if (size.length != 3) {
            throw new InvalidDataException(name + " line " + line + ": expected the size line 'ROWS COLUMNS ENTRIES', "
                    + "got '" + abbreviate(text) + "'");
        }
        long rows = parseCount(size[0], name, line, "ROWS");
        long cols = parseCount(size[1], name, line, "COLUMNS");
        long entries = parseCount(size[2], name, line, "ENTRIES");
        if (rows != cols) {
            throw new InvalidDataException(name + " line " + line + ": the matrix is " + rows + " x " + cols
                    + "; the power methods need a square symmetric matrix");
        }
        if (rows < 1 || rows > Integer.MAX_VALUE - 8) {
            throw new InvalidDataException(name + " line " + line + ": dimension " + rows + " is outside [1, "
                    + (Integer.MAX_VALUE - 8) + "]");
        }
        int d = (int) rows;
        CsrMatrix.Builder builder = CsrMatrix.builder(d);
        long read = 0;
        while ((text = reader.readLine()) != null) {
            line++;
            String t = text.trim();
            if (t.isEmpty() || t.startsWith("%")) {
                continue;
            }
            if (read == entries) {
                throw new InvalidDataException(name + " line " + line + ": more entries than the " + entries
                        + " announced on the size line; fix the count or remove the extra lines");
            }
            String[] f = t.split("\\s+");
            int expected = pattern ? 2 : 3;
            if (f.length != expected) {
                throw new InvalidDataException(name + " line " + line + ": expected " + expected + " fields ("
                        + (pattern ? "ROW COLUMN" : "ROW COLUMN VALUE") + "), got " + f.length + ": '"
                        + abbreviate(text) + "'");
            }
            int i = parseIndex(f[0], d, name, line, "row");
            int j = parseIndex(f[1], d, name, line, "column");
            double v = 1.0;
            if (!pattern) {
                v = parseValue(f[2], name, line, field.equals("integer"));
            }
            if (symmetric) {
                if (i < j) {
                    throw new InvalidDataException(name + " line " + line + ": entry (" + (i + 1) + ", " + (j + 1)
                            + ") is above the diagonal, but a 'symmetric' MatrixMarket file stores only the lower "
                            + "triangle (row >= column); swap the indices or declare the file 'general'");
                }
                builder.addSymmetric(i, j, v);
            } else {
                builder.add(i, j, v);
            }
            read++;
        }
        if (read != entries) {
            throw new InvalidDataException(name + ": the size line announces " + entries + " entries but the file has "
                    + read + "; the file is truncated or the count is wrong");
        }
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new InvalidDataException(name + ": " + e.getMessage(), e);
        }
    }

    private static long parseCount(String s, String name, long line, String what) {
        try {
            long v = Long.parseLong(s);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new InvalidDataException(name + " line " + line + ": " + what + " must be a non-negative integer, got '"
                    + abbreviate(s) + "'");
        }
    }

    static int parseIndex(String s, int d, String name, long line, String what) {
        long v;
        try {
            v = Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new InvalidDataException(name + " line " + line + ": " + what + " index '" + abbreviate(s)
                    + "' is not an integer");
        }
        if (v < 1 || v > d) {
            throw new InvalidDataException(name + " line " + line + ": " + what + " index " + v
                    + " is outside [1, " + d + "] (MatrixMarket indices are 1-based)");
        }
        return (int) (v - 1);
    }

    static double parseValue(String s, String name, long line, boolean integer) {
        double v;
        try {
            v = integer ? Long.parseLong(s) : Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new InvalidDataException(name + " line " + line + ": value '" + abbreviate(s) + "' is not "
                    + (integer ? "an integer (the banner says 'integer')" : "a number"));
        }
        if (!Double.isFinite(v)) {
            throw new InvalidDataException(name + " line " + line + ": value '" + abbreviate(s)
                    + "' is not finite; replace it by a finite number");
        }
        return v;
    }

    static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
