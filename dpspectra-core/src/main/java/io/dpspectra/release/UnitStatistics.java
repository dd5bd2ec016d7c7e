package io.dpspectra.release;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.Clipping;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.PrivateQuantile;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The {@link StatisticSource} of rows grouped by a {@linkplain PrivacyUnit privacy unit} column, held in memory: of
 * each person's rows at most M are kept (uniformly at random by reservoir sampling, or the first M in file order),
 * and every statistic sums one bounded contribution per person (see {@link PrivacyUnit} for the derivation):
 * <ul>
 *   <li>{@link #normHistogram}: one value per person, √M·max‖x_r‖ over their kept rows, the smallest bound B under
 *       which clipping each of their rows to B/√M changes nothing; a private quantile of it is then a quantile over
 *       persons (one person moves one count, as one row does);</li>
 *   <li>{@link #boundedSum}: per person the mean of their kept rows clipped to the input bound B (a vector of norm
 *       ≤ B, the sensitivity of one bounded row), summed over persons, with the number of persons as the count;</li>
 *   <li>{@link #bounded}: every kept row clipped to B, minus the released mean when there is one, then clipped to
 *       B'/√M for the final bound B', declaring B' to the estimator, whose Gram-based calibration to B' then bounds
 *       one person's whole contribution.</li>
 * </ul>
 * Rows of one person need not be adjacent in the input. Memory: at most M rows per person (8·d bytes each, plus
 * the person's id) are held; the grouping refuses, before any noise, to grow past {@link #memoryLimitRows}.
 */
public final class UnitStatistics implements StatisticSource {
    private final PrivacyUnit unit;
    private final List<String> names;
    private final String description;
    private final int d;
    private final List<double[][]> persons;
    private final long rowsRead;
    private final long rowsKept;
    private long clippedRows = -1;

    private UnitStatistics(PrivacyUnit unit, List<String> names, String description, int d, List<double[][]> persons,
                           long rowsRead, long rowsKept) {
        this.unit = unit;
        this.names = List.copyOf(names);
        this.description = description;
        this.d = d;
        this.persons = persons;
        this.rowsRead = rowsRead;
        this.rowsKept = rowsKept;
    }

    /**
     * The rows this JVM may hold while grouping: a quarter of the maximum heap, in rows of width d.
     *
     * @param d the width
     * @return the limit, at least 1
     */
    public static long memoryLimitRows(int d) {
        return Math.max(1, Runtime.getRuntime().maxMemory() / 4 / (8L * d + 64));
    }

    /**
     * Starts grouping rows of width {@code d} by {@code unit}.
     *
     * @param unit        the unit (not one row)
     * @param names       the d feature names (the unit's column is not among them)
     * @param description the data's name in messages
     * @param random      the source of the random selection of a person's rows (unused for the first M)
     * @return the builder
     */
    public static Builder builder(PrivacyUnit unit, List<String> names, String description, RandomSource random) {
        return new Builder(unit, names, description, random);
    }

    /**
     * Groups {@code rows} by {@code ids}, the unit of row i being ids.get(i).
     *
     * @param rows   the rows
     * @param ids    one id per row
     * @param names  the d feature names
     * @param unit   the unit (not one row)
     * @param random the source of the random selection of a person's rows
     * @return the source
     */
    public static UnitStatistics of(RowSource rows, List<String> ids, List<String> names, PrivacyUnit unit,
                                    RandomSource random) {
        Builder b = builder(unit, names, rows.describe(), random);
        double[] row = new double[rows.dimension()];
        int i = 0;
        try (RowCursor c = rows.open()) {
            while (c.next(row)) {
                if (i >= ids.size()) {
                    throw new IllegalArgumentException(ids.size() + " ids for more rows");
                }
                b.add(ids.get(i++), row, null);
            }
        }
        if (i != ids.size()) {
            throw new IllegalArgumentException(ids.size() + " ids for " + i + " rows");
        }
        return b.build();
    }

    /** Groups rows as they are read, keeping at most M per person. */
    public static final class Builder {
        private final PrivacyUnit unit;
        private final List<String> names;
        private final String description;
        private final RandomSource random;
        private final Map<String, Person> byId = new LinkedHashMap<>();
        private final long limit;
        private long rowsRead;
        private long rowsKept;

        private Builder(PrivacyUnit unit, List<String> names, String description, RandomSource random) {
            this.unit = Objects.requireNonNull(unit, "unit");
            if (unit.isRow()) {
                throw new IllegalArgumentException("grouping needs a unit column, not one row");
            }
            this.names = List.copyOf(names);
            this.description = description;
            this.random = unit.selection() == PrivacyUnit.Selection.RANDOM ? Objects.requireNonNull(random, "random")
                    : random;
            this.limit = memoryLimitRows(this.names.size());
        }

        /**
         * Adds one row of the person {@code id}.
         *
         * @param id    the person's id, as read
         * @param row   the row (copied when kept)
         * @param where the row's place for messages (e.g. "line 12"), or null
         * @throws InvalidDataException for a row of the wrong width or a non-finite entry, or when the kept rows
         *                              outgrow the memory limit
         */
        public void add(String id, double[] row, String where) {
            String at = where == null ? "row " + (rowsRead + 1) : where;
            if (row.length != names.size()) {
                throw new InvalidDataException(description + ", " + at + ": " + row.length + " features, expected "
                        + names.size(), "give every row the same columns");
            }
            for (double x : row) {
                if (!Double.isFinite(x)) {
                    throw new InvalidDataException(description + ", " + at + " has a NaN or infinite value",
                            "remove or impute non-finite values");
                }
            }
            if (id == null || id.isEmpty()) {
                throw new InvalidDataException(description + ", " + at + ": the privacy unit column '"
                        + unit.idColumn() + "' is empty", "give every row the id of its person");
            }
            rowsRead++;
            Person p = byId.computeIfAbsent(id, k -> new Person(unit.maxRowsPerUnit()));
            p.seen++;
            if (p.kept.size() < unit.maxRowsPerUnit()) {
                p.kept.add(row.clone());
                rowsKept++;
                if (rowsKept > limit) {
                    throw new InvalidDataException(String.format(java.util.Locale.ROOT, "grouping %s by column '%s' "
                            + "holds at most %d rows per person in memory, and more than %d rows of %d values "
                            + "(a quarter of this JVM's %d MiB) are kept", description, unit.idColumn(),
                            unit.maxRowsPerUnit(), limit, names.size(), Runtime.getRuntime().maxMemory() >> 20),
                            "lower the rows kept per person, or give the JVM more memory (e.g. JAVA_TOOL_OPTIONS="
                            + "-Xmx8g)");
                }
            } else if (unit.selection() == PrivacyUnit.Selection.RANDOM) {
                long j = random.nextLong(p.seen); // reservoir sampling: every M-subset equally likely
                if (j < unit.maxRowsPerUnit()) {
                    p.kept.set((int) j, row.clone());
                }
            }
        }

        /**
         * The grouped source.
         *
         * @return the source
         * @throws InvalidDataException when no row was added
         */
        public UnitStatistics build() {
            if (byId.isEmpty()) {
                throw new InvalidDataException(description + " has no data rows", "provide at least one row");
            }
            List<double[][]> persons = new ArrayList<>(byId.size());
            for (Person p : byId.values()) {
                persons.add(p.kept.toArray(new double[0][]));
            }
            return new UnitStatistics(unit, names, description, names.size(), persons, rowsRead, rowsKept);
        }
    }

    private static final class Person {
        private final List<double[]> kept;
        private long seen;

        Person(int m) {
            kept = new ArrayList<>(Math.min(m, 16));
        }
    }

    @Override
    public int dimension() {
        return d;
    }

    @Override
    public List<String> featureNames() {
        return names;
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public PrivacyUnit unit() {
        return unit;
    }

    /**
     * The number of persons: what add/remove one person changes by one.
     *
     * @return the number of persons
     */
    @Override
    public long rowCount() {
        return persons.size();
    }

    /**
     * The number of rows kept (at most M per person), a curator's fact.
     *
     * @return the rows kept
     */
    public long rowsKept() {
        return rowsKept;
    }

    @Override
    public NormHistogram normHistogram(double[] grid) {
        double[][] values = new double[persons.size()][1];
        double sqrtM = Math.sqrt(unit.maxRowsPerUnit());
        for (int p = 0; p < values.length; p++) {
            double max = 0;
            for (double[] row : persons.get(p)) {
                max = Math.max(max, io.dpspectra.linalg.Vectors.norm2(row));
            }
            values[p][0] = sqrtM * max;
        }
        return new NormHistogram(grid, PrivateQuantile.rowNormHistogram(InMemoryRows.of(values), grid));
    }

    @Override
    public BoundedSum boundedSum(Bounding bounding) {
        Clipping first = Clipping.l2(bounding.inputBound());
        double[] sum = new double[d];
        for (double[][] rows : persons) {
            double[] mean = new double[d];
            for (double[] row : rows) {
                double[] x = row.clone();
                first.clipInPlace(x);
                for (int j = 0; j < d; j++) {
                    mean[j] += x[j];
                }
            }
            for (int j = 0; j < d; j++) {
                sum[j] += mean[j] / rows.length;
            }
        }
        return new BoundedSum(sum, persons.size());
    }

    @Override
    public ClippedRows bounded(Bounding bounding) {
        Clipping first = Clipping.l2(bounding.inputBound());
        Clipping perRow = Clipping.l2(unit.rowBound(bounding.bound()));
        double[] mean = bounding.mean();
        double[][] out = new double[(int) rowsKept][];
        int i = 0;
        long clipped = 0;
        for (double[][] rows : persons) {
            for (double[] row : rows) {
                double[] x = row.clone();
                boolean c = first.clipInPlace(x);
                if (mean != null) {
                    for (int j = 0; j < d; j++) {
                        x[j] -= mean[j];
                    }
                }
                c |= perRow.clipInPlace(x);
                clipped += c ? 1 : 0;
                out[i++] = x;
            }
        }
        clippedRows = clipped;
        // every row has norm <= B'/sqrt(M) <= B': declaring B' clips nothing more, and the estimator's calibration
        // to B' bounds each person's sum of outer products by B'^2
        return Clipping.l2(bounding.bound()).clip(new Named(InMemoryRows.of(out), description), bounding.origin());
    }

    @Override
    public Diagnostics curatorFacts() {
        Diagnostics.Builder b = Diagnostics.builder().put("persons", (long) persons.size()).put("rowsRead", rowsRead)
                .put("rowsKept", rowsKept);
        if (clippedRows >= 0) {
            b.put("clippedRows", clippedRows);
        }
        return b.build();
    }

    /** Rows in memory under the data's own name. */
    private record Named(InMemoryRows rows, String name) implements RowSource {
        @Override
        public int dimension() {
            return rows.dimension();
        }

        @Override
        public RowCursor open() {
            return rows.open();
        }

        @Override
        public OptionalLong knownSize() {
            return rows.knownSize();
        }

        @Override
        public String describe() {
            return name;
        }
    }
}
