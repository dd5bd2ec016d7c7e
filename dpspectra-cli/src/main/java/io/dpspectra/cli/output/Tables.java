package io.dpspectra.cli.output;

import io.dpspectra.cli.options.PrivacyOptions;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.privacy.PrivacyGuarantee;
import java.util.List;
import java.util.Locale;

/** Human-readable text tables for {@code --format table} and the demo. */
public final class Tables {
    private Tables() {
    }

    /** A feature × column table of {@code m} (d × k) with the given row and column labels. */
    public static String matrix(List<String> rowNames, List<String> colNames, Matrix m) {
        int w = "feature".length();
        for (String r : rowNames) {
            w = Math.max(w, r.length());
        }
        String[][] cells = new String[m.rows()][m.cols()];
        int cw = 10;
        for (String c : colNames) {
            cw = Math.max(cw, c.length());
        }
        double[] all = m.copy().data();
        for (int i = 0; i < m.rows(); i++) {
            for (int j = 0; j < m.cols(); j++) {
                cells[i][j] = number(m.get(i, j), all, 4);
                cw = Math.max(cw, cells[i][j].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-" + w + "s", "feature"));
        for (String c : colNames) {
            sb.append(String.format(Locale.ROOT, " %" + cw + "s", c));
        }
        sb.append('\n');
        sb.append("-".repeat(w + (cw + 1) * colNames.size())).append('\n');
        for (int i = 0; i < m.rows(); i++) {
            sb.append(String.format(Locale.ROOT, "%-" + w + "s", rowNames.get(i)));
            for (int j = 0; j < m.cols(); j++) {
                sb.append(String.format(Locale.ROOT, " %" + cw + "s", cells[i][j]));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The values in one notation (see {@link #number}), numerical zeros shown as 0. */
    public static String values(String label, double[] values) {
        StringBuilder sb = new StringBuilder(label).append(':');
        for (double v : values) {
            sb.append(' ').append(number(v, values, 6));
        }
        return sb.append('\n').toString();
    }

    /**
     * {@code v} in the notation shared by all of {@code context}: fixed-point when every non-zero magnitude
     * is within [1e-3, 1e6), scientific otherwise; a value below 1e-12 of the largest magnitude (a numerical
     * zero) is 0.
     */
    static String number(double v, double[] context, int digits) {
        double max = 0;
        double minNonZero = Double.POSITIVE_INFINITY;
        for (double c : context) {
            max = Math.max(max, Math.abs(c));
        }
        for (double c : context) {
            if (Math.abs(c) > 1e-12 * max) {
                minNonZero = Math.min(minNonZero, Math.abs(c));
            }
        }
        if (!Double.isFinite(v)) {
            return String.valueOf(v);
        }
        if (Math.abs(v) <= 1e-12 * max || v == 0) {
            return "0";
        }
        boolean fixed = max < 1e6 && minNonZero >= 1e-3;
        return fixed ? String.format(Locale.ROOT, "%." + digits + "f", v)
                : String.format(Locale.ROOT, "%." + digits + "e", v);
    }

    /** Columns beyond which a d x d table is summarised rather than printed in full. */
    public static final int FULL_TABLE_COLUMNS = 8;

    /**
     * A d x d matrix for people: in full up to {@link #FULL_TABLE_COLUMNS} columns; beyond, its
     * {@code largest} largest entries by magnitude (upper triangle, diagonal included) with their names, and
     * where to find the rest.
     */
    public static String squareMatrix(List<String> names, Matrix m, int largest) {
        if (m.cols() <= FULL_TABLE_COLUMNS) {
            return matrix(names, names, m);
        }
        int d = m.rows();
        java.util.PriorityQueue<int[]> top = new java.util.PriorityQueue<>(
                java.util.Comparator.comparingDouble(e -> Math.abs(m.get(e[0], e[1]))));
        for (int j = 0; j < d; j++) {
            for (int i = 0; i <= j; i++) {
                top.add(new int[] {i, j});
                if (top.size() > largest) {
                    top.poll();
                }
            }
        }
        List<int[]> entries = new java.util.ArrayList<>(top);
        entries.sort(java.util.Comparator.comparingDouble(e -> -Math.abs(m.get(e[0], e[1]))));
        double[] vals = entries.stream().mapToDouble(e -> m.get(e[0], e[1])).toArray();
        int w = "entry".length();
        int nw = 1;
        for (int[] e : entries) {
            w = Math.max(w, names.get(e[0]).length() + names.get(e[1]).length() + 3);
            nw = Math.max(nw, number(m.get(e[0], e[1]), vals, 4).length());
        }
        StringBuilder sb = new StringBuilder();
        sb.append(d).append(" x ").append(d).append(" matrix: its ").append(entries.size())
                .append(" largest entries (of ").append((long) d * (d + 1) / 2).append(" in the upper triangle):\n");
        for (int[] e : entries) {
            sb.append(String.format(Locale.ROOT, "  %-" + w + "s %" + nw + "s%n", names.get(e[0]) + " x " + names.get(e[1]),
                    number(m.get(e[0], e[1]), vals, 4)));
        }
        sb.append("(the full matrix: --format json, compact or npy with --output FILE)\n");
        return sb.toString();
    }

    public static String guarantee(PrivacyGuarantee g) {
        if (g == null) {
            return "privacy: NONE - this result is NOT differentially private\n";
        }
        return String.format(Locale.ROOT, "privacy: (epsilon=%s, delta=%s)-DP, neighbouring %s%n"
                        + "  mechanism:   %s%n  unit:        %s%n  sensitivity: %s%n  reference:   %s%n",
                g.epsilon(), g.delta(), PrivacyOptions.cliName(g.neighbouring()), g.mechanism(),
                g.privacyUnit(), g.sensitivity(), g.reference());
    }

    public static List<String> componentNames(int k) {
        return java.util.stream.IntStream.rangeClosed(1, k).mapToObj(j -> "PC" + j).toList();
    }

    /**
     * {@code text} word-wrapped to {@code width} columns after {@code label}, continuation lines indented
     * to the label's width (for help footers, which picocli does not wrap with an indent).
     */
    public static java.util.List<String> hangingIndent(String label, String text, int width) {
        java.util.List<String> lines = new java.util.ArrayList<>();
        String indent = " ".repeat(label.length());
        StringBuilder line = new StringBuilder(label);
        boolean empty = true;
        for (String word : text.split("\\s+")) {
            if (!empty && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line = new StringBuilder(indent);
                empty = true;
            }
            if (!empty) {
                line.append(' ');
            }
            line.append(word);
            empty = false;
        }
        lines.add(line.toString());
        return lines;
    }

    /** Rows of cells as left-aligned columns two spaces apart, the first row a header underlined with dashes. */
    public static String columns(List<String[]> rows) {
        int cols = rows.get(0).length;
        int[] width = new int[cols];
        for (String[] r : rows) {
            for (int j = 0; j < cols; j++) {
                width[j] = Math.max(width[j], r[j].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            StringBuilder line = new StringBuilder();
            for (int j = 0; j < cols; j++) {
                line.append(j == 0 ? "" : "  ").append(String.format(java.util.Locale.ROOT, "%-" + width[j] + "s",
                        rows.get(i)[j]));
            }
            sb.append(line.toString().stripTrailing()).append('\n');
            if (i == 0) {
                int total = 0;
                for (int w : width) {
                    total += w;
                }
                sb.append("-".repeat(total + 2 * (cols - 1))).append('\n');
            }
        }
        return sb.toString();
    }
}
