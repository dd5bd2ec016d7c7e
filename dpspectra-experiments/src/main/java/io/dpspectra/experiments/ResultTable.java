package io.dpspectra.experiments;

import io.dpspectra.experiments.io.AtomicWrite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A CSV table of experiment results with a fixed header, written atomically. Numbers are printed with
 * {@code Double.toString} semantics (round-trippable); strings containing a comma, quote or newline are
 * quoted.
 */
public final class ResultTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public ResultTable(String... header) {
        if (header.length == 0) {
            throw new IllegalArgumentException("a result table needs at least one column");
        }
        this.header = List.of(header);
    }

    /** Appends a row; its length must match the header. */
    public ResultTable add(Object... values) {
        if (values.length != header.size()) {
            throw new IllegalArgumentException("row has " + values.length + " values but the table has "
                    + header.size() + " columns " + header);
        }
        List<String> row = new ArrayList<>(values.length);
        for (Object v : values) {
            row.add(cell(v));
        }
        rows.add(row);
        return this;
    }

    /** A header: the given label columns followed by the columns of {@link #addSummary}. */
    public static String[] withSummaryColumns(String... labels) {
        String[] h = new String[labels.length + 6];
        System.arraycopy(labels, 0, h, 0, labels.length);
        String[] s = {"trials", "mean", "sd", "ci95_low", "ci95_high", "median"};
        System.arraycopy(s, 0, h, labels.length, s.length);
        return h;
    }

    /** Appends labels followed by the summary's trials, mean, sd, band and median. */
    public ResultTable addSummary(Summary s, Object... labels) {
        Object[] v = new Object[labels.length + 6];
        System.arraycopy(labels, 0, v, 0, labels.length);
        v[labels.length] = s.trials();
        v[labels.length + 1] = s.mean();
        v[labels.length + 2] = s.sd();
        v[labels.length + 3] = s.lower();
        v[labels.length + 4] = s.upper();
        v[labels.length + 5] = s.median();
        return add(v);
    }

    public int size() {
        return rows.size();
    }

    /** The CSV text. */
    public String toCsv() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.join(",", header)).append('\n');
        for (List<String> r : rows) {
            sb.append(String.join(",", r)).append('\n');
        }
        return sb.toString();
    }

    /** Writes the CSV atomically (parent directories are created). */
    public void write(Path target) throws IOException {
        AtomicWrite.writeString(target, toCsv());
    }

    /**
     * The rows of a CSV written by {@link #write} (or any CSV with a header line and RFC 4180 quoting), each a map from
     * column name to the cell's text, in file order: how a report is rebuilt from the committed results of an earlier
     * run without running it again.
     *
     * @throws IOException if the file cannot be read, or a row's length differs from the header's (the message names
     *                     the file and the line)
     */
    public static List<Map<String, String>> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty()) {
            throw new IOException(file + " is empty: expected a header line");
        }
        List<String> head = fields(lines.get(0));
        List<Map<String, String>> out = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            while (unbalanced(line) && i + 1 < lines.size()) {
                line += "\n" + lines.get(++i);
            }
            if (line.isEmpty()) {
                continue;
            }
            List<String> f = fields(line);
            if (f.size() != head.size()) {
                throw new IOException(file + " line " + (i + 1) + ": " + f.size() + " fields, the header has "
                        + head.size());
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int j = 0; j < head.size(); j++) {
                row.put(head.get(j), f.get(j));
            }
            out.add(row);
        }
        return out;
    }

    private static boolean unbalanced(String line) {
        return line.chars().filter(c -> c == '"').count() % 2 == 1;
    }

    private static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    f.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    f.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(f.toString());
                f.setLength(0);
            } else {
                f.append(c);
            }
        }
        out.add(f.toString());
        return out;
    }

    private static String cell(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Double || v instanceof Float) {
            return Double.toString(((Number) v).doubleValue());
        }
        String s = v.toString();
        if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }
}
