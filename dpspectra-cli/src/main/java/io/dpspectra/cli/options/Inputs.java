package io.dpspectra.cli.options;

import io.dpspectra.cli.output.CliException;
import io.dpspectra.data.BinaryRows;
import io.dpspectra.data.ForwardingRowCursor;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.SchemaFile;
import io.dpspectra.data.csv.SchemaRows;
import io.dpspectra.data.csv.CsvRows;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Opens an input file as rows: {@code .dpsr} (or a file starting with the magic bytes "DPSR") through
 * {@link BinaryRows}, anything else (.csv, .csv.gz, ...) through {@link CsvRows}.
 */
public final class Inputs {
    private static final byte[] DPSR_MAGIC = "DPSR".getBytes(StandardCharsets.ISO_8859_1);

    /** An opened input with its column names. */
    public record Opened(RowSource rows, List<String> columnNames, Path path) {
        public int dimension() {
            return rows.dimension();
        }
    }

    private Inputs() {
    }

    /** Exit 3 unless {@code path} is a readable regular file. */
    public static Path checkReadable(Path path) {
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

    /** True if {@code path} is "-", standard input. */
    public static boolean isStdin(Path path) {
        return path.toString().equals("-");
    }

    /** Opens {@code path} ("-" for standard input); CSV options apply to CSV inputs only. */
    public static Opened open(Path path, InputOptions options) {
        return open(path, options, message -> { });
    }

    /**
     * Opens {@code path} ("-" for standard input); CSV options apply to CSV inputs only. {@code note}
     * receives one-line notes for stderr: a detected separator other than a comma, and standard input
     * being read again from its temporary copy.
     */
    public static Opened open(Path path, InputOptions options, Consumer<String> note) {
        return open(path, options, note, false);
    }

    /**
     * As {@link #open(Path, InputOptions, Consumer)}; {@code readOnce} tells that the command will pass over
     * the rows once only, so standard input is streamed as it is (parsed in parallel, folded on the parser
     * threads), without the temporary copy that {@link SpilledStream} writes for a command that may read
     * it again.
     */
    public static Opened open(Path path, InputOptions options, Consumer<String> note, boolean readOnce) {
        InputOptions opts = options != null ? options : new InputOptions();
        if (isStdin(path)) {
            CsvRows rows = opts.configure(CsvRows.fromStream("standard input", System.in)).build();
            noteSeparator(rows, note);
            return new Opened(readOnce ? rows : new SpilledStream(rows, note), rows.columnNames(), path);
        }
        checkReadable(path);
        if (isBinary(path)) {
            if (opts.anyCsvOption()) {
                throw CliException.usage("--columns, --exclude-columns, --separator, --skip-lines, --comment-prefix and"
                        + " --header-names apply to CSV inputs only, but " + path + " is a binary .dpsr file",
                        "select columns when converting the CSV (dpspectra convert --columns ...)");
            }
            BinaryRows rows = BinaryRows.open(path);
            return new Opened(rows, genericNames(rows.dimension()), path);
        }
        CsvRows rows = opts.configure(CsvRows.builder(path)).build();
        noteSeparator(rows, note);
        return new Opened(rows, rows.columnNames(), path);
    }

    /**
     * As {@link #open(Path, InputOptions)}, with the column {@code idColumn} (a privacy unit's, never a feature)
     * dropped by name when the file has it: a model fitted with a person as the privacy unit replayed on a file that
     * still has the person's column. A file without it (or without names, or standard input) is opened as it is.
     */
    static Opened openDroppingId(Path path, InputOptions options, String idColumn) {
        if (idColumn == null || isStdin(path) || isBinary(path)) {
            return open(path, options);
        }
        checkReadable(path);
        InputOptions opts = options != null ? options : new InputOptions();
        CsvRows rows;
        try {
            rows = opts.configure(CsvRows.builder(path)).idColumn(idColumn).build();
        } catch (CsvRows.IdColumnException e) {
            return open(path, options);   // no such column (or no names): nothing to drop
        }
        return new Opened(rows, rows.columnNames(), path);
    }

    /**
     * The rows of {@code path} ("-" for standard input, read by one pass: wrap it in a {@link SpilledStream}
     * for more) through a schema, with the schema's file format.
     */
    static SchemaRows schemaRows(Path path, SchemaFile schema, boolean centre) {
        if (isStdin(path)) {
            return SchemaRows.fromStream("standard input", System.in, schema.schema(), centre, schema.separator(),
                    schema.skipLines(), schema.commentPrefix());
        }
        checkReadable(path);
        return SchemaRows.open(path, schema.schema(), centre, schema.separator(), schema.skipLines(),
                schema.commentPrefix());
    }

    static void noteSeparator(CsvRows rows, Consumer<String> note) {
        if (rows.separatorDetected() && rows.separator() != ',') {
            note.accept("reading " + rows.describe() + " as " + rows.separatorName() + "-separated (detected; "
                    + "--separator sets it)");
        }
    }

    /**
     * Standard input for a command that may read its rows more than once: the first pass streams it and
     * keeps a copy in a temporary .dpsr file as it goes; a later pass (a multi-pass algorithm, a private
     * bound or mean before the estimator) reads that copy, and says so. The copy is deleted when the JVM
     * exits. A command that reads once streams standard input without a copy ({@link #open} with readOnce).
     */
    static final class SpilledStream implements RowSource {
        private final RowSource stream;
        private final Consumer<String> note;
        private Path spill;
        private BinaryRows copy;

        /** {@code stream}: a source that can be opened once (CSV or schema rows of standard input). */
        SpilledStream(RowSource stream, Consumer<String> note) {
            this.stream = stream;
            this.note = note;
        }

        @Override
        public int dimension() {
            return stream.dimension();
        }

        @Override
        public String describe() {
            return stream.describe();
        }

        @Override
        public RowCursor open() {
            if (copy != null) {
                note.accept("this command reads its input again: standard input is re-read from its temporary"
                        + " copy " + spill + " (" + copy.size() + " rows; deleted at exit)");
                return copy.open();
            }
            if (spill != null) {
                throw new IllegalStateException("standard input was not read to its end by the first pass, so it"
                        + " cannot be read again; save it to a file");
            }
            BinaryRows.Writer writer;
            try {
                spill = Files.createTempFile("dpspectra-stdin-", ".dpsr");
                spill.toFile().deleteOnExit();
                writer = BinaryRows.Writer.create(spill, stream.dimension());
            } catch (IOException e) {
                throw CliException.data("cannot create a temporary copy of standard input: " + e.getMessage(),
                        "free space in the temporary folder (java.io.tmpdir), or pass a file instead of -", e);
            }
            int d = stream.dimension();
            return new ForwardingRowCursor(stream.open()) {
                private boolean ended;

                @Override
                public boolean next(double[] into) {
                    boolean more = inner.next(into);
                    if (more) {
                        write(into, 1);
                    } else {
                        end();
                    }
                    return more;
                }

                @Override
                public int nextBlock(double[] block, int maxRows, int width) {
                    int k = inner.nextBlock(block, maxRows, width);
                    if (k > 0) {
                        write(block, k);
                    } else {
                        end();
                    }
                    return k;
                }

                private void write(double[] values, int rows) {
                    try {
                        writer.append(values, rows);
                    } catch (IOException e) {
                        throw CliException.data("cannot write the temporary copy of standard input " + spill + ": "
                                + e.getMessage(), "free space in the temporary folder (java.io.tmpdir)", e);
                    }
                }

                private void end() {
                    if (!ended) {
                        ended = true;
                        try {
                            writer.finish();
                            writer.close();
                            copy = BinaryRows.open(spill);
                        } catch (IOException e) {
                            throw CliException.data("cannot write the temporary copy of standard input " + spill
                                    + ": " + e.getMessage(), "free space in the temporary folder (java.io.tmpdir)", e);
                        }
                    }
                }

                @Override
                public void close() {
                    try {
                        inner.close();
                    } finally {
                        if (!ended) {
                            try {
                                writer.close();
                            } catch (IOException ignored) { // NOPMD: the copy is unusable anyway
                            }
                        }
                    }
                }
            };
        }
    }

    /** True for rows read from a binary .dpsr file (fast to stream again), false for text (CSV). */
    public static boolean isBinaryRows(RowSource rows) {
        return rows instanceof BinaryRows || rows instanceof SpilledStream; // standard input is spilled to .dpsr
    }

    public static List<String> genericNames(int d) {
        List<String> names = new ArrayList<>(d);
        for (int i = 1; i <= d; i++) {
            names.add("x" + i);
        }
        return names;
    }

    /**
     * The number of rows. A source that knows its size (a .dpsr file's header) is not read here; whether it
     * must be read before the first noise is decided where it is opened ({@link ReleaseInput#open}). A CSV is
     * read once here ({@link #validate}) to count its rows and to fail fast.
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
    public static long validate(RowSource rows) {
        return io.dpspectra.release.Preprocessor.validate(rows);
    }
}
