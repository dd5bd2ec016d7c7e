package io.dpspectra.cli.options;

import io.dpspectra.cli.output.CliException;
import io.dpspectra.data.IoErrors;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.csv.SchemaRows;
import io.dpspectra.data.csv.CsvRows;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * Columns of a text INPUT carried through a command unchanged ({@code transform --keep-columns label}): for
 * each row the command reads, the cells of the chosen columns are taken, as text, from the very line the
 * row came from ({@link io.dpspectra.data.RowCursor#line()}), so the rows' own reading rules (skipped lines,
 * comments, the header) decide which lines are rows and the kept cells cannot drift from them.
 */
public final class KeptColumns {
    private final Path path;
    private final char separator;
    private final boolean crIsLineBreak;
    private final List<String> names;
    private final int[] columns;

    private KeptColumns(Path path, char separator, boolean crIsLineBreak, List<String> names, int[] columns) {
        this.path = path;
        this.separator = separator;
        this.crIsLineBreak = crIsLineBreak;
        this.names = names;
        this.columns = columns;
    }

    /**
     * The columns {@code tokens} (names of INPUT's columns, or 1-based numbers) of {@code read}, the rows as read
     * from {@code input}; a usage error for a binary or standard-input INPUT, or a column INPUT does not have.
     */
    public static KeptColumns of(Path input, RowSource read, List<String> tokens, String option) {
        List<String> fileNames;
        char separator;
        boolean schema;
        if (read instanceof CsvRows csv && csv.path() != null) {
            fileNames = csv.fileColumnNames();
            separator = csv.separator();
            schema = false;
        } else if (read instanceof SchemaRows rows && !Inputs.isStdin(input)) {
            fileNames = rows.schema().columns().stream().map(c -> c.name()).toList();
            separator = rows.separator();
            schema = true;
        } else {
            throw CliException.usage(option + " takes cells from the lines of a text file, but INPUT " + input + " is "
                    + (Inputs.isStdin(input) ? "standard input, which is read once" : "a binary .dpsr file"),
                    "pass the CSV file itself");
        }
        List<String> names = new ArrayList<>();
        int[] columns = new int[tokens.size()];
        for (int i = 0; i < columns.length; i++) {
            String t = tokens.get(i).trim();
            int j = fileNames.indexOf(t);
            if (j >= 0 && fileNames.lastIndexOf(t) != j) {
                throw CliException.usage(option + " " + t + " is ambiguous: columns " + (j + 1) + " and "
                        + (fileNames.lastIndexOf(t) + 1) + " of " + input + " are both named so", "give its 1-based number");
            }
            if (j < 0) {
                j = number(t, fileNames.size());
            }
            if (j < 0) {
                throw CliException.usage(option + ": " + input + " has no column \"" + t + "\"; its columns are "
                        + abbreviate(fileNames), "give a column's name or its 1-based number");
            }
            columns[i] = j;
            names.add(fileNames.get(j));
        }
        return new KeptColumns(input, separator, schema, List.copyOf(names), columns);
    }

    private static int number(String t, int width) {
        try {
            int n = Integer.parseInt(t);
            return n >= 1 && n <= width ? n - 1 : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String abbreviate(List<String> names) {
        return names.size() <= 12 ? names.toString()
                : names.subList(0, 12).toString().replace("]", ", ... (" + names.size() + " in all)]");
    }

    /** The kept columns' names, in the order asked for. */
    public List<String> names() {
        return names;
    }

    /** One pass over the lines of INPUT. */
    public Lines open() {
        try {
            InputStream in = Files.newInputStream(path);
            if (path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".gz")) {
                in = new GZIPInputStream(in, 1 << 16);
            }
            return new Lines(in);
        } catch (IOException e) {
            throw CliException.data("cannot read " + path + ": " + IoErrors.inWords(e), "check the file", e);
        }
    }

    /** A pass over INPUT's lines that hands out the kept cells of the line a row came from. */
    public final class Lines implements AutoCloseable {
        private final InputStream in;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        private final byte[] buffer = new byte[1 << 16];
        private int at;
        private int filled;
        private long lineNo;
        private boolean crPending;

        private Lines(InputStream in) {
            this.in = in;
        }

        /** The kept cells of line {@code wanted} (1-based; lines are read forwards only), as CSV cells. */
        public List<String> cellsOf(long wanted) {
            if (wanted <= lineNo) {
                throw new IllegalStateException("rows came out of file order (line " + wanted + " after line " + lineNo
                        + ")");
            }
            String text = null;
            while (lineNo < wanted) {
                text = next();
                if (text == null) {
                    throw new IllegalStateException(path + " has no line " + wanted);
                }
            }
            if (lineNo == 1 && !text.isEmpty() && text.charAt(0) == '\uFEFF') {
                text = text.substring(1);
            }
            List<String> cells = SchemaRows.splitLine(text, separator, path, lineNo);
            List<String> out = new ArrayList<>(columns.length);
            for (int j : columns) {
                out.add(j < cells.size() ? quoted(cells.get(j)) : "");
            }
            return out;
        }

        /**
         * The next line, or null at the end: ended by '\n' (a CSV's rows), or also by a lone '\r' for a schema's
         * table, as each reader counts lines.
         */
        private String next() {
            line.reset();
            try {
                int b;
                while ((b = read()) >= 0) {
                    if (crPending && b == '\n') {
                        crPending = false;
                        continue;
                    }
                    crPending = false;
                    if (b == '\n' || crIsLineBreak && b == '\r') {
                        crPending = b == '\r';
                        lineNo++;
                        return text();
                    }
                    line.write(b);
                }
            } catch (IOException e) {
                throw CliException.data("cannot read " + path + " after line " + lineNo + ": " + IoErrors.inWords(e),
                        "check that the file is complete", e);
            }
            if (line.size() == 0) {
                return null;
            }
            lineNo++;
            return text();
        }

        private int read() throws IOException {
            if (at == filled) {
                filled = in.read(buffer);
                at = 0;
                if (filled <= 0) {
                    filled = 0;
                    return -1;
                }
            }
            return buffer[at++] & 0xff;
        }

        private String text() {
            String s = line.toString(StandardCharsets.UTF_8);
            return !crIsLineBreak && s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
        }

        @Override
        public void close() {
            try {
                in.close();
            } catch (IOException e) { // NOPMD: only read
            }
        }
    }

    /** A cell as a CSV cell: quoted when it holds a comma, a quote, a line break or outer spaces. */
    public static String quoted(String cell) {
        boolean plain = cell.indexOf(',') < 0 && cell.indexOf('"') < 0 && cell.indexOf('\n') < 0
                && cell.indexOf('\r') < 0 && cell.strip().equals(cell);
        return plain ? cell : "\"" + cell.replace("\"", "\"\"") + "\"";
    }
}
