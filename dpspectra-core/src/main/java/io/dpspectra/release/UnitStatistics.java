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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

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
 *
 * <p><b>One implementation per person, wherever the rows lie.</b> The per-person steps are public static code that a
 * cluster runs on its executors too: {@link Reservoir} (which rows of a person are kept, with {@link #personStream}
 * the person's own random stream when the release is seeded), {@link #personNorm}, {@link #personMean} and
 * {@link #boundPerson}. Persons are summed in a canonical order, sorted by id ({@link String#compareTo}), with core's
 * canonical blocks over the rows in that order ({@link io.dpspectra.data.PrivateBoundedMean#sum} for the mean, the
 * estimator's Gram for the rest), so that the same rows grouped elsewhere give the same bits.
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
        /** The key of the persons' streams when the release is seeded ({@link #selectionKey}). */
        private final Long key;
        private final Map<String, Reservoir> byId = new HashMap<>();
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
            this.key = unit.selection() == PrivacyUnit.Selection.RANDOM ? selectionKey(random) : null;
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
            Reservoir p = byId.computeIfAbsent(id, k -> new Reservoir(unit, unit.selection()
                    == PrivacyUnit.Selection.RANDOM ? (key != null ? personStream(key, k) : random) : null));
            if (p.offer(row)) {
                rowsKept++;
                if (rowsKept > limit) {
                    throw new InvalidDataException(String.format(java.util.Locale.ROOT, "grouping %s by column '%s' "
                            + "holds at most %d rows per person in memory, and more than %d rows of %d values "
                            + "(a quarter of this JVM's %d MiB) are kept", description, unit.idColumn(),
                            unit.maxRowsPerUnit(), limit, names.size(), Runtime.getRuntime().maxMemory() >> 20),
                            "lower the rows kept per person, or give the JVM more memory (e.g. JAVA_TOOL_OPTIONS="
                            + "-Xmx8g)");
                }
            }
        }

        /**
         * The grouped source, its persons in the canonical order (sorted by id).
         *
         * @return the source
         * @throws InvalidDataException when no row was added
         */
        public UnitStatistics build() {
            if (byId.isEmpty()) {
                throw new InvalidDataException(description + " has no data rows", "provide at least one row");
            }
            List<double[][]> persons = new ArrayList<>(byId.size());
            for (Reservoir p : new TreeMap<>(byId).values()) {
                persons.add(p.rows());
            }
            return new UnitStatistics(unit, names, description, names.size(), persons, rowsRead, rowsKept);
        }
    }

    /**
     * The key from which every person's random stream is derived ({@link #personStream}), drawn once from the
     * release's source when it is seeded (so that a seeded release keeps the same rows of each person wherever and
     * in whatever order its rows are grouped), or null for a secure source, whose draws serve every person as they
     * come. Called once per grouping, before any noise.
     *
     * @param release the release's source
     * @return the key, or null when {@code release} is not seeded
     */
    public static Long selectionKey(RandomSource release) {
        return release.isSeeded() ? release.nextLong() : null;
    }

    /**
     * The random stream of one person for a seeded release: the project's seeded source, seeded by {@code key} and
     * a 64-bit hash of {@code id}. The selection needs no secrecy (a person's bound holds whichever of their rows
     * are kept); a secure release draws from its secure source instead.
     *
     * @param key the release's {@link #selectionKey}
     * @param id  the person's id
     * @return the person's stream (reproducible, NOT for noise)
     */
    public static RandomSource personStream(long key, String id) {
        long h = 0xcbf29ce484222325L; // FNV-1a over the id's UTF-16 units, then mixed with the key
        for (int i = 0; i < id.length(); i++) {
            h = (h ^ id.charAt(i)) * 0x100000001b3L;
        }
        long z = key + 0x9e3779b97f4a7c15L * (h ^ (h >>> 29));
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return RandomSource.seededForReproducibility(z ^ (z >>> 31));
    }

    /**
     * The rows kept of one person, offered in the input's order: the first M, then (for the random selection)
     * reservoir sampling, which leaves every M-subset of the person's rows equally likely.
     */
    public static final class Reservoir {
        private final int m;
        private final RandomSource stream;
        private final List<double[]> kept;
        private long seen;

        /**
         * An empty reservoir.
         *
         * @param unit   the unit (its M and selection)
         * @param stream the person's stream for a random selection ({@link #personStream}, or the release's secure
         *               source); null keeps the first M
         */
        public Reservoir(PrivacyUnit unit, RandomSource stream) {
            this.m = unit.maxRowsPerUnit();
            this.stream = unit.selection() == PrivacyUnit.Selection.RANDOM ? Objects.requireNonNull(stream, "stream")
                    : null;
            this.kept = new ArrayList<>(Math.min(m, 16));
        }

        /**
         * Offers the person's next row.
         *
         * @param row the row (copied when kept)
         * @return whether the number of kept rows grew
         */
        public boolean offer(double[] row) {
            seen++;
            if (kept.size() < m) {
                kept.add(row.clone());
                return true;
            }
            if (stream != null) {
                long j = stream.nextLong(seen);
                if (j < m) {
                    kept.set((int) j, row.clone());
                }
            }
            return false;
        }

        /**
         * The rows offered.
         *
         * @return the number of rows offered
         */
        public long seen() {
            return seen;
        }

        /**
         * The kept rows, in the reservoir's order.
         *
         * @return at most M rows (the reservoir's own arrays)
         */
        public double[][] rows() {
            return kept.toArray(new double[0][]);
        }
    }

    /**
     * A person's value for the private bound: √M times the largest L2 norm of their kept rows, the smallest bound B
     * under which clipping each of their rows to B/√M changes nothing.
     *
     * @param kept the person's kept rows
     * @param unit the unit
     * @return the value
     */
    public static double personNorm(double[][] kept, PrivacyUnit unit) {
        double max = 0;
        for (double[] row : kept) {
            max = Math.max(max, io.dpspectra.linalg.Vectors.norm2(row));
        }
        return Math.sqrt(unit.maxRowsPerUnit()) * max;
    }

    /**
     * A person's contribution to the private mean: the mean of their kept rows, each clipped to {@code inputBound}
     * (a vector of norm ≤ inputBound, the sensitivity of one bounded row).
     *
     * @param kept       the person's kept rows (not modified)
     * @param inputBound the bound of the rows as read
     * @return the mean
     */
    public static double[] personMean(double[][] kept, double inputBound) {
        Clipping first = Clipping.l2(inputBound);
        int d = kept[0].length;
        double[] mean = new double[d];
        for (double[] row : kept) {
            double[] x = row.clone();
            first.clipInPlace(x);
            for (int j = 0; j < d; j++) {
                mean[j] += x[j];
            }
        }
        for (int j = 0; j < d; j++) {
            mean[j] /= kept.length;
        }
        return mean;
    }

    /**
     * A person's contribution to the second moment, as rows whose outer products sum to it: each kept row clipped to
     * the input bound, minus the released mean when there is one, then clipped to B'/√M for the final bound B'
     * ({@link PrivacyUnit#rowBound}), so that the person's sum of outer products has trace ≤ B'².
     *
     * @param kept     the person's kept rows (not modified)
     * @param bounding the release's chain (input bound, mean, final bound)
     * @param unit     the unit
     * @param out      receives the person's bounded rows, one per kept row (new arrays)
     * @return the number of rows the bounding changed (a curator's fact)
     */
    public static int boundPerson(double[][] kept, Bounding bounding, PrivacyUnit unit, double[][] out) {
        Clipping first = Clipping.l2(bounding.inputBound());
        Clipping perRow = Clipping.l2(unit.rowBound(bounding.bound()));
        double[] mean = bounding.mean();
        int clipped = 0;
        for (int r = 0; r < kept.length; r++) {
            double[] x = kept[r].clone();
            boolean c = first.clipInPlace(x);
            if (mean != null) {
                for (int j = 0; j < x.length; j++) {
                    x[j] -= mean[j];
                }
            }
            c |= perRow.clipInPlace(x);
            clipped += c ? 1 : 0;
            out[r] = x;
        }
        return clipped;
    }

    /**
     * Refuses, before any data, an algorithm that cannot bound one person's whole contribution: the one check of
     * every front end (the command line, the Java chains, the Spark estimators).
     *
     * @param unit       the release's unit (one row passes)
     * @param algorithm  the algorithm's name
     * @param supported  the names that can ({@link Algorithms#PERSON_LEVEL_PCA},
     *                   {@link Algorithms#PERSON_LEVEL_COVARIANCE})
     * @param vocabulary the words of the messages
     * @throws ReleaseSettingException naming the algorithm and the ones that can
     */
    public static void checkSupported(PrivacyUnit unit, String algorithm, java.util.Set<String> supported,
                                      Vocabulary vocabulary) {
        if (!unit.isRow() && !supported.contains(algorithm)) {
            throw new ReleaseSettingException(vocabulary.typed(Setting.ALGORITHM, algorithm) + " does not support "
                    + vocabulary.name(Setting.PRIVACY_UNIT) + ": it bounds one row's influence at a time (a "
                    + "gradient, a sample, a local report), not one person's whole group of rows",
                    "choose one of: " + String.join(", ", new java.util.TreeSet<>(supported))
                    + ", or drop " + vocabulary.name(Setting.PRIVACY_UNIT));
        }
    }

    /**
     * The basic composition of the preprocessing's parts ({@code before}) and the estimator's guarantee within
     * {@code total}, each part stating {@code unit}: with a person as the unit, every part's unit names the column
     * and M (the estimator's calibrated to the final bound {@code bound}, whose square bounds one person's sum of
     * outer products). Every front end composes a release through it.
     *
     * @param unit      the release's unit
     * @param before    the preprocessing's guarantees (private bound, private mean), in order
     * @param estimator the estimator's guarantee
     * @param total     the release's whole budget
     * @param bound     the final bound B'
     * @return the composed guarantee
     */
    public static io.dpspectra.privacy.ComposedGuarantee compose(PrivacyUnit unit,
            List<io.dpspectra.privacy.PrivacyGuarantee> before, io.dpspectra.privacy.PrivacyGuarantee estimator,
            io.dpspectra.privacy.PrivacyParams total, double bound) {
        if (unit.isRow()) {
            return Settings.compose(before, estimator, total);
        }
        List<io.dpspectra.privacy.PrivacyGuarantee> parts = new ArrayList<>(before.size());
        for (io.dpspectra.privacy.PrivacyGuarantee g : before) {
            parts.add(restate(g, unit.describe(bound) + "; this part: one value per person"));
        }
        return Settings.compose(parts, restate(estimator, unit.describe(bound)), total);
    }

    private static io.dpspectra.privacy.PrivacyGuarantee restate(io.dpspectra.privacy.PrivacyGuarantee g,
                                                                 String unitText) {
        return new io.dpspectra.privacy.PrivacyGuarantee(g.mechanism(), g.params(), g.neighbouring(), unitText,
                g.sensitivity(), g.reference(), g.profile());
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
            values[p][0] = personNorm(persons.get(p), unit);
        }
        return new NormHistogram(grid, PrivateQuantile.rowNormHistogram(InMemoryRows.of(values), grid));
    }

    @Override
    public BoundedSum boundedSum(Bounding bounding) {
        double[][] means = new double[persons.size()][];
        for (int p = 0; p < means.length; p++) {
            means[p] = personMean(persons.get(p), bounding.inputBound());
        }
        return new BoundedSum(io.dpspectra.data.PrivateBoundedMean.sum(InMemoryRows.of(means)).sum(), persons.size());
    }

    @Override
    public ClippedRows bounded(Bounding bounding) {
        double[][] out = new double[(int) rowsKept][];
        int i = 0;
        long clipped = 0;
        for (double[][] rows : persons) {
            double[][] person = new double[rows.length][];
            clipped += boundPerson(rows, bounding, unit, person);
            System.arraycopy(person, 0, out, i, person.length);
            i += person.length;
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
