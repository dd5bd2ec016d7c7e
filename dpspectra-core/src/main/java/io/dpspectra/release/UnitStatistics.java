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
 *   <li>{@link #normHistogram}: one value per person, {@link #smallestBound} of their kept rows, the smallest bound B
 *       under which bounding them changes nothing; a private quantile of it is then a quantile over persons (one
 *       person moves one count, as one row does);</li>
 *   <li>{@link #boundedSum}: per person the mean of their kept rows clipped to the input bound B (a vector of norm
 *       ≤ B, the sensitivity of one bounded row), summed over persons, with the number of persons as the count;</li>
 *   <li>{@link #bounded}: each person's kept rows through {@link #boundPerson} (clipped to B, minus the released
 *       mean when there is one, then bounded for the final bound B' by the unit's contribution bound), declaring B'
 *       to the estimator, whose Gram-based calibration to B' then bounds one person's whole contribution.</li>
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
        for (int p = 0; p < values.length; p++) {
            values[p][0] = smallestBound(persons.get(p), unit);
        }
        return new NormHistogram(grid, PrivateQuantile.rowNormHistogram(InMemoryRows.of(values), grid));
    }

    /**
     * The smallest bound B under which {@link #boundPerson} leaves one person's kept rows unchanged (with no mean and
     * no first bound): √M·max_r ‖x_r‖ for {@link PrivacyUnit.ContributionBound#ROWS}; max(M^{1/4}·max_r ‖x_r‖,
     * √‖Σ_r x_r x_rᵀ‖_F) for {@link PrivacyUnit.ContributionBound#FROBENIUS}. A private quantile of this value over
     * persons is a private bound in which one person moves one count, as one row does.
     *
     * @param kept the person's kept rows (finite, as the grouping checked them)
     * @param unit the unit (its M and contribution bound)
     * @return the smallest bound, 0 for rows of zeros
     */
    public static double smallestBound(double[][] kept, PrivacyUnit unit) {
        double max = 0;
        for (double[] row : kept) {
            max = Math.max(max, io.dpspectra.linalg.Vectors.norm2(row));
        }
        double m = unit.maxRowsPerUnit();
        if (!unit.boundsFrobeniusOnly() || max == 0) {
            return Math.sqrt(m) * max;
        }
        // √‖P‖_F = max·√‖Σ (x/max)(x/max)ᵀ‖_F: no overflow for huge rows
        return Math.max(Math.sqrt(Math.sqrt(m)) * max, max * Math.sqrt(frobeniusOfOuterSum(kept, max)));
    }

    /**
     * ‖Σ_r y_r y_rᵀ‖_F with y_r = x_r/scale: from the M × M Gram of the rows (Σ_{r,s} (y_r·y_s)², O(M²d)) or the
     * d × d sum of outer products (O(Md²)), whichever is smaller.
     */
    static double frobeniusOfOuterSum(double[][] rows, double scale) {
        int m = rows.length;
        if (m == 0) {
            return 0;
        }
        int dim = rows[0].length;
        double[][] y = new double[m][dim];
        for (int r = 0; r < m; r++) {
            for (int j = 0; j < dim; j++) {
                y[r][j] = rows[r][j] / scale;
            }
        }
        double sum = 0;
        if (m <= dim) {
            for (int r = 0; r < m; r++) {
                for (int t = 0; t < m; t++) {
                    double dot = 0;
                    for (int j = 0; j < dim; j++) {
                        dot += y[r][j] * y[t][j];
                    }
                    sum += dot * dot;
                }
            }
        } else {
            for (int i = 0; i < dim; i++) {
                for (int j = 0; j < dim; j++) {
                    double pij = 0;
                    for (int r = 0; r < m; r++) {
                        pij += y[r][i] * y[r][j];
                    }
                    sum += pij * pij;
                }
            }
        }
        return Math.sqrt(sum);
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
        double[][] out = new double[(int) rowsKept][];
        int i = 0;
        long clipped = 0;
        for (double[][] rows : persons) {
            double[][] person = new double[rows.length][];
            clipped += bound(rows, unit, bounding, person);
            System.arraycopy(person, 0, out, i, person.length);
            i += person.length;
        }
        clippedRows = clipped;
        // every row has norm <= B'/M^(1/4) <= B': declaring B' clips nothing more, and the estimator's calibration
        // to B' bounds each person's sum of outer products by B'^2 (in the unit's norm)
        return Clipping.l2(bounding.bound()).clip(new Named(InMemoryRows.of(out), description), bounding.origin());
    }

    /**
     * Bounds one person's kept rows, the one per-person map of every release with a person as the unit (in memory
     * and on a cluster): each row clipped to the input bound B, minus the released mean when there is one, then, for
     * the final bound B' ({@link Bounding#bound}), by the unit's {@link PrivacyUnit.ContributionBound}:
     * <ul>
     *   <li>{@code ROWS}: each row clipped to B'/√M, so that P = Σ_r x_r x_rᵀ has tr P ≤ B'²;</li>
     *   <li>{@code FROBENIUS}: each row clipped to B'/M^{1/4}, then all rows scaled by √min(1, B'²/‖P‖_F) (less a
     *       relative 10⁻¹² that absorbs rounding), so that ‖P‖_F ≤ B'².</li>
     * </ul>
     * The result depends on this person's rows and on public constants only (B, the mean, B', M). Never throws on
     * rows the grouping accepted (finite, of the right width).
     *
     * @param kept     the person's kept rows, at most M (not modified)
     * @param unit     the unit (not one row)
     * @param bounding the bounds and the mean
     * @return the bounded rows, new arrays in the same order
     */
    public static double[][] boundPerson(double[][] kept, PrivacyUnit unit, Bounding bounding) {
        double[][] out = new double[kept.length][];
        bound(kept, unit, bounding, out);
        return out;
    }

    /** {@link #boundPerson} into {@code out}, returning the number of rows it changed. */
    private static int bound(double[][] kept, PrivacyUnit unit, Bounding bounding, double[][] out) {
        Clipping first = Clipping.l2(bounding.inputBound());
        double finalBound = bounding.bound();
        Clipping perRow = Clipping.l2(unit.rowBound(finalBound));
        double[] mean = bounding.mean();
        boolean[] changed = new boolean[kept.length];
        for (int r = 0; r < kept.length; r++) {
            double[] x = kept[r].clone();
            boolean c = first.clipInPlace(x);
            if (mean != null) {
                for (int j = 0; j < x.length; j++) {
                    x[j] -= mean[j];
                }
            }
            changed[r] = perRow.clipInPlace(x) | c;
            out[r] = x;
        }
        if (unit.boundsFrobeniusOnly()) {
            // rows are <= B'/M^(1/4), so ||sum (x/B')(x/B')^T||_F <= sqrt(M): no overflow
            double f = frobeniusOfOuterSum(out, finalBound);
            if (f > 1) {
                double s = Math.sqrt(1 / f) * (1 - 1e-12);
                for (int r = 0; r < out.length; r++) {
                    io.dpspectra.linalg.Vectors.scaleInPlace(out[r], 0, out[r].length, s);
                    changed[r] |= io.dpspectra.linalg.Vectors.norm2(out[r]) > 0;
                }
            }
        }
        int n = 0;
        for (boolean c : changed) {
            n += c ? 1 : 0;
        }
        return n;
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
