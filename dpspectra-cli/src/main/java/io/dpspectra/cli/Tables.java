package io.dpspectra.cli;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.privacy.PrivacyGuarantee;
import java.util.List;
import java.util.Locale;

/** Human-readable text tables for {@code --format table} and the demo. */
final class Tables {
    private Tables() {
    }

    /** A feature × column table of {@code m} (d × k) with the given row and column labels. */
    static String matrix(List<String> rowNames, List<String> colNames, Matrix m) {
        int w = "feature".length();
        for (String r : rowNames) {
            w = Math.max(w, r.length());
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-" + w + "s", "feature"));
        for (String c : colNames) {
            sb.append(String.format(Locale.ROOT, " %10s", c));
        }
        sb.append('\n');
        sb.append("-".repeat(w + 11 * colNames.size())).append('\n');
        for (int i = 0; i < m.rows(); i++) {
            sb.append(String.format(Locale.ROOT, "%-" + w + "s", rowNames.get(i)));
            for (int j = 0; j < m.cols(); j++) {
                sb.append(String.format(Locale.ROOT, " %10.4f", m.get(i, j)));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    static String values(String label, double[] values) {
        StringBuilder sb = new StringBuilder(label).append(':');
        for (double v : values) {
            sb.append(String.format(Locale.ROOT, " %.6g", v));
        }
        return sb.append('\n').toString();
    }

    static String guarantee(PrivacyGuarantee g) {
        if (g == null) {
            return "privacy: NONE - this result is NOT differentially private\n";
        }
        return String.format(Locale.ROOT, "privacy: (epsilon=%s, delta=%s)-DP, neighbouring %s%n"
                        + "  mechanism:   %s%n  unit:        %s%n  sensitivity: %s%n  reference:   %s%n",
                g.epsilon(), g.delta(), PrivacyOptions.cliName(g.neighbouring()), g.mechanism(),
                g.privacyUnit(), g.sensitivity(), g.reference());
    }

    static List<String> componentNames(int k) {
        return java.util.stream.IntStream.rangeClosed(1, k).mapToObj(j -> "PC" + j).toList();
    }

    /**
     * {@code text} word-wrapped to {@code width} columns after {@code label}, continuation lines indented
     * to the label's width (for help footers, which picocli does not wrap with an indent).
     */
    static java.util.List<String> hangingIndent(String label, String text, int width) {
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
}
