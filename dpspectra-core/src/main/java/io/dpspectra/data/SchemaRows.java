package io.dpspectra.data;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The rows of a CSV file mapped through a public {@link Schema}: each pass reads the file's cells as
 * text and maps them to the schema's features (clamping, standardisation, one-hot). A per-row map with
 * public constants only, so it costs no privacy.
 *
 * <p>The file's columns must be the schema's columns in order: the same number of cells per row and,
 * when the file has a header, the same names. A mismatch is refused when the source is opened,
 * naming the first differing column.
 *
 * <p>{@link #clampedCells()} counts the numeric cells clamped to their bounds in the last pass that
 * ended: a data-dependent count for the curator's diagnostics, not part of a release.
 */
public final class SchemaRows implements RowSource {
    private final CsvRows csv;
    private final Schema schema;
    private final boolean centre;
    private final AtomicLong lastClamped = new AtomicLong(-1);

    private SchemaRows(CsvRows csv, Schema schema, boolean centre) {
        this.csv = csv;
        this.schema = schema;
        this.centre = centre;
    }

    /**
     * Maps {@code csv} (all of its columns selected) through {@code schema}; {@code centre} subtracts
     * the schema's public centres.
     *
     * @throws InvalidDataException when the file's columns are not the schema's
     */
    public static SchemaRows of(CsvRows csv, Schema schema, boolean centre) {
        List<Schema.Column> cols = schema.columns();
        if (csv.dimension() != cols.size()) {
            throw new InvalidDataException(csv.describe() + " has " + csv.dimension() + " columns but the schema lists "
                    + cols.size() + "; the schema must list every column of the file in order (mark unused ones "
                    + "\"ignore\")");
        }
        if (csv.hasHeader()) {
            List<String> names = csv.columnNames();
            for (int j = 0; j < cols.size(); j++) {
                if (!names.get(j).equals(cols.get(j).name())) {
                    throw new InvalidDataException(csv.describe() + ": column " + (j + 1) + " is \"" + names.get(j)
                            + "\" in the file's header but \"" + cols.get(j).name() + "\" in the schema; the file's "
                            + "columns do not match the schema (use the schema written for this file)");
                }
            }
        }
        return new SchemaRows(csv, schema, centre);
    }

    public Schema schema() {
        return schema;
    }

    public boolean centred() {
        return centre;
    }

    /** Numeric cells clamped to their declared bounds in the last pass (−1 before any pass ended). */
    public long clampedCells() {
        return lastClamped.get();
    }

    @Override
    public int dimension() {
        return schema.dimension();
    }

    @Override
    public String describe() {
        return csv.describe();
    }

    @Override
    public RowCursor open() {
        CsvRows.TextCursor text = csv.openText();
        String[] cells = new String[csv.dimension()];
        long[] clamped = new long[1];
        return new RowCursor() {
            private long rows;
            private boolean ended;

            @Override
            public boolean next(double[] into) {
                if (!text.next(cells)) {
                    end();
                    return false;
                }
                schema.map(cells, into, centre, clamped, text.position());
                rows++;
                return true;
            }

            @Override
            public String position() {
                return text.position();
            }

            @Override
            public long rowsRead() {
                return rows;
            }

            private void end() {
                if (!ended) {
                    ended = true;
                    lastClamped.set(clamped[0]);
                }
            }

            @Override
            public void close() {
                end();
                text.close();
            }
        };
    }
}
