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
 *
 * <p><b>One implementation per person, wherever the rows lie.</b> The per-person steps are public static code that a
 * cluster runs on its executors too: {@link Reservoir} (which rows of a person are kept, with {@link #personStream}
 * the person's own random stream when the release is seeded), {@link #smallestBound}, {@link #personMean} and
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
     * Refuses, before any data, an algorithm that cannot bound one person's whole contribution, or that needs more
     * than the Frobenius bound of a {@link PrivacyUnit.ContributionBound#FROBENIUS} unit: the one check of every front
     * end (the command line, the Java chains, the Spark estimators).
     *
     * @param unit               the release's unit (one row passes)
     * @param algorithm          the algorithm's name
     * @param supported          the names that can bound a person with trace ≤ B² ({@link Algorithms#PERSON_LEVEL_PCA},
     *                           {@link Algorithms#PERSON_LEVEL_COVARIANCE})
     * @param frobeniusSupported the names calibrated to the Frobenius norm of the Gram alone
     * @param vocabulary         the words of the messages
     * @throws ReleaseSettingException naming the algorithm and the ones that can
     */
    public static void checkSupported(PrivacyUnit unit, String algorithm, java.util.Set<String> supported,
                                      java.util.Set<String> frobeniusSupported, Vocabulary vocabulary) {
        if (!unit.isRow() && !supported.contains(algorithm)) {
            throw new ReleaseSettingException(vocabulary.typed(Setting.ALGORITHM, algorithm) + " does not support "
                    + vocabulary.name(Setting.PRIVACY_UNIT) + ": it bounds one row's influence at a time (a "
                    + "gradient, a sample, a local report), not one person's whole group of rows",
                    "choose one of: " + String.join(", ", new java.util.TreeSet<>(supported))
                    + ", or drop " + vocabulary.name(Setting.PRIVACY_UNIT));
        }
        if (unit.boundsFrobeniusOnly() && !frobeniusSupported.contains(algorithm)) {
            throw refuseFrobenius(vocabulary.typed(Setting.ALGORITHM, algorithm) + " is calibrated to a trace, "
                    + "operator or L1 bound of one person's contribution, which the Frobenius bound does not give",
                    "choose one of: " + String.join(", ", new java.util.TreeSet<>(frobeniusSupported)), vocabulary);
        }
    }

    /**
     * The refusal of {@link PrivacyUnit.ContributionBound#FROBENIUS} by a part that needs more than the Frobenius
     * norm of a person's contribution.
     *
     * @param why         the part and what it needs, e.g. "--algorithm it-u is calibrated to ..."
     * @param alternative what would work instead
     * @param vocabulary  the words of the messages
     * @return the exception
     */
    public static ReleaseSettingException refuseFrobenius(String why, String alternative, Vocabulary vocabulary) {
        return new ReleaseSettingException(vocabulary.typed(Setting.UNIT_BOUND, PrivacyUnit.ContributionBound.FROBENIUS
                .word()) + " bounds only the Frobenius norm of a person's sum of outer products (its trace may reach "
                + "sqrt(M)*B^2), but " + why, alternative + ", or use "
                + vocabulary.typed(Setting.UNIT_BOUND, PrivacyUnit.ContributionBound.ROWS.word()));
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
            clipped += boundPerson(rows, unit, bounding, person);
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
        boundPerson(kept, unit, bounding, out);
        return out;
    }

    /**
     * {@link #boundPerson(double[][], PrivacyUnit, Bounding)} into {@code out}, counting the rows it changed (a
     * curator's fact): the form a cluster's executors call.
     *
     * @param kept     the person's kept rows, at most M (not modified)
     * @param unit     the unit (not one row)
     * @param bounding the bounds and the mean
     * @param out      receives the bounded rows (new arrays), at least {@code kept.length} long
     * @return the number of rows the bounding changed
     */
    public static int boundPerson(double[][] kept, PrivacyUnit unit, Bounding bounding, double[][] out) {
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
