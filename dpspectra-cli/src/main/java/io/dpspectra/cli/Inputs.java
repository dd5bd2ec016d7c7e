package io.dpspectra.cli;

import io.dpspectra.data.BinaryRows;
import io.dpspectra.data.CsvRows;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Opens an input file as rows: {@code .dpsr} (or a file starting with the magic bytes "DPSR") through
 * {@link BinaryRows}, anything else (.csv, .csv.gz, ...) through {@link CsvRows}.
 */
final class Inputs {
    private static final byte[] DPSR_MAGIC = "DPSR".getBytes(StandardCharsets.ISO_8859_1);

    /** An opened input with its column names. */
    record Opened(RowSource rows, List<String> columnNames, Path path) {
        int dimension() {
            return rows.dimension();
        }
    }

    private Inputs() {
    }

    /** Exit 3 unless {@code path} is a readable regular file. */
    static Path checkReadable(Path path) {
        if (!Files.exists(path)) {
            throw CliException.data("input file " + path + " does not exist",
                    "check the path (relative paths are relative to the current directory)", null);
        }
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw CliException.data("input file " + path + " is not a readable file",
                    "check the path and its permissions", null);
        }
        return path;
    }

    static boolean isBinary(Path path) {
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".dpsr")) {
            return true;
        }
        if (name.endsWith(".csv") || name.endsWith(".csv.gz") || name.endsWith(".txt")) {
            return false;
        }
        try (InputStream in = Files.newInputStream(path)) {
            byte[] head = in.readNBytes(DPSR_MAGIC.length);
            return java.util.Arrays.equals(head, DPSR_MAGIC);
        } catch (IOException e) {
            return false;
        }
    }

    /** Opens {@code path}; CSV options apply to CSV inputs only. */
    static Opened open(Path path, InputOptions options) {
        checkReadable(path);
        if (isBinary(path)) {
            if (options != null && options.columns != null && !options.columns.isEmpty()) {
                throw CliException.usage("--columns applies to CSV inputs only, but " + path + " is a binary .dpsr file",
                        "select columns when converting the CSV (dpspectra convert --columns ...)");
            }
            BinaryRows rows = BinaryRows.open(path);
            return new Opened(rows, genericNames(rows.dimension()), path);
        }
        if (options != null && options.columns != null) {
            for (String c : options.columns) {
                if (c.strip().matches("[+-]?\\d+") && new java.math.BigInteger(c.strip()).signum() < 1) {
                    throw CliException.usage("--columns " + c.strip() + ": columns are numbered from 1 (the first "
                            + "column is 1)", "pass 1-based numbers or header names, e.g. --columns 1,2");
                }
            }
        }
        CsvRows.Builder builder = CsvRows.builder(path);
        if (options != null) {
            builder.header(options.header);
            if (options.columns != null && !options.columns.isEmpty()) {
                builder.columns(options.columns);
            }
        }
        CsvRows rows = builder.build();
        return new Opened(rows, rows.columnNames(), path);
    }

    static List<String> genericNames(int d) {
        List<String> names = new ArrayList<>(d);
        for (int i = 1; i <= d; i++) {
            names.add("x" + i);
        }
        return names;
    }

    /**
     * The number of rows for a command that releases only after its whole computation succeeded. A
     * source that knows its size (a .dpsr file's header) is not read here: a malformed row or a row over
     * --norm-bound then fails inside the algorithm's own pass, which is just as safe because results
     * are written (atomically) only after the computation finished, and it saves a full extra read of
     * a large file. A CSV is read once here ({@link #validate}) to count its rows and to fail fast.
     */
    static long rowCount(RowSource rows) {
        java.util.OptionalLong known = rows.knownSize();
        if (known.isPresent()) {
            if (known.getAsLong() == 0) {
                throw CliException.data(rows.describe() + " has no data rows", "provide at least one row", null);
            }
            return known.getAsLong();
        }
        return validate(rows);
    }

    /**
     * Reads every row once, before any private computation, so that malformed data or a row over a
     * --norm-bound fails here (exit 3) rather than inside a release. Returns the number of rows.
     */
    static long validate(RowSource rows) {
        double[] row = new double[rows.dimension()];
        long n = 0;
        try (RowCursor cursor = rows.open()) {
            while (cursor.next(row)) {
                n++;
            }
        }
        if (n == 0) {
            throw CliException.data(rows.describe() + " has no data rows", "provide at least one row", null);
        }
        return n;
    }
}
