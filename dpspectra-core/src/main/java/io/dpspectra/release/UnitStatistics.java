package io.dpspectra.release;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.Clipping;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.PrivateQuantile;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The {@link StatisticSource} of rows grouped by a {@linkplain PrivacyUnit privacy unit} column: of each person's rows
 * at most M are kept (uniformly at random by reservoir sampling, or the first M in file order), and every statistic
 * sums one bounded contribution per person (see {@link PrivacyUnit} for the derivation):
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
 * Every statistic streams the persons in id order, one person at a time, and bounds each as it comes.
 *
 * <p><b>Memory, and the spill to disk.</b> Rows of one person need not be adjacent in the input. The grouping keeps
 * each person's reservoir (at most M rows, 8·d bytes each, plus the id) in memory while it fits in
 * {@link GroupingMemory#bytes} (by default a quarter of the heap). When the kept rows outgrow it, the grouping spills
 * instead of refusing (a refusal that depended on Σ min(n_person, M) would tell a person apart): the reservoirs so
 * far are written, sorted by id, as the first run of an external sort, the rest of the input is sorted by id in runs
 * of that size, and the runs are merged, each person's reservoir resumed where it stopped and offered the person's
 * later rows in input order (see the package's {@code UnitSpill}); the kept rows then go to one spill file that every
 * statistic reads back person by person. The input is read once (standard input too). A reservoir resumed from disk
 * is the reservoir that stayed in memory (the same kept rows, the same count, and for a seeded release the same
 * point of the person's own stream, replayed), and persons are summed in the same id order and canonical blocks, so
 * <b>a release is the same, bit for bit, whether it spilled or not</b>. The spill files are created in a private
 * directory under {@link GroupingMemory#spillDirectory} with owner-only permissions where the file system has them;
 * they hold the data's raw values. They are deleted by {@link #close} (the release chains close the source after
 * their fit), on every error of the grouping, when the source becomes unreachable, and at the JVM's exit at the
 * latest. {@link #curatorFacts} says whether the grouping spilled and how many bytes it wrote.
 *
 * <p><b>One implementation per person, wherever the rows lie.</b> The per-person steps are public static code that a
 * cluster runs on its executors too: {@link Reservoir} (which rows of a person are kept, with {@link #personStream}
 * the person's own random stream when the release is seeded), {@link #smallestBound}, {@link #personMean} and
 * {@link #boundPerson}. Persons are summed in a canonical order, sorted by id ({@link String#compareTo}), with core's
 * canonical blocks over the rows in that order ({@link io.dpspectra.data.PrivateBoundedMean#sum} for the mean, the
 * estimator's Gram for the rest), so that the same rows grouped elsewhere give the same bits.
 */
public final class UnitStatistics implements StatisticSource, AutoCloseable {
    private final PrivacyUnit unit;
    private final List<String> names;
    private final String description;
    private final int d;
    private final Persons persons;
    private final long rowsRead;
    private final long rowsKept;
    private volatile long clippedRows = -1;

    private UnitStatistics(PrivacyUnit unit, List<String> names, String description, int d, Persons persons,
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
     * Starts grouping rows of width {@code d} by {@code unit}, in {@link GroupingMemory#defaults()}.
     *
     * @param unit        the unit (not one row)
     * @param names       the d feature names (the unit's column is not among them)
     * @param description the data's name in messages
     * @param random      the source of the random selection of a person's rows (unused for the first M)
     * @return the builder
     * @throws ReleaseSettingException when the default spill directory cannot hold the spill files
     */
    public static Builder builder(PrivacyUnit unit, List<String> names, String description, RandomSource random) {
        return builder(unit, names, description, random, GroupingMemory.defaults());
    }

    /**
     * Starts grouping rows of width {@code d} by {@code unit} in {@code memory}: the spill directory is checked here,
     * before any row (whether or not the grouping will spill), and the selection key of a seeded release drawn.
     *
     * @param unit        the unit (not one row)
     * @param names       the d feature names (the unit's column is not among them)
     * @param description the data's name in messages
     * @param random      the source of the random selection of a person's rows (unused for the first M)
     * @param memory      the memory the grouping may hold, and where it spills beyond it
     * @return the builder
     * @throws ReleaseSettingException when the spill directory cannot hold the spill files
     */
    public static Builder builder(PrivacyUnit unit, List<String> names, String description, RandomSource random,
                                  GroupingMemory memory) {
        return new Builder(unit, names, description, random, memory);
    }

    /**
     * Groups {@code rows} by {@code ids}, the unit of row i being ids.get(i), in {@link GroupingMemory#defaults()}.
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
        return of(rows, ids, names, unit, random, GroupingMemory.defaults());
    }

    /**
     * Groups {@code rows} by {@code ids}, the unit of row i being ids.get(i).
     *
     * @param rows   the rows
     * @param ids    one id per row
     * @param names  the d feature names
     * @param unit   the unit (not one row)
     * @param random the source of the random selection of a person's rows
     * @param memory the memory the grouping may hold, and where it spills beyond it
     * @return the source
     */
    public static UnitStatistics of(RowSource rows, List<String> ids, List<String> names, PrivacyUnit unit,
                                    RandomSource random, GroupingMemory memory) {
        double[] row = new double[rows.dimension()];
        int i = 0;
        try (Builder b = builder(unit, names, rows.describe(), random, memory); RowCursor c = rows.open()) {
            while (c.next(row)) {
                if (i >= ids.size()) {
                    throw new IllegalArgumentException(ids.size() + " ids for more rows");
                }
                b.add(ids.get(i++), row, null);
            }
            if (i != ids.size()) {
                throw new IllegalArgumentException(ids.size() + " ids for " + i + " rows");
            }
            return b.build();
        }
    }

    /**
     * Groups rows as they are read, keeping at most M per person: in memory while the kept rows fit in the
     * {@link GroupingMemory}, else by an external sort in its spill directory (see the class comment). Closing a
     * builder that has not {@linkplain #build built} deletes its spill files (e.g. after a data error).
     */
    public static final class Builder implements AutoCloseable {
        private final PrivacyUnit unit;
        private final List<String> names;
        private final String description;
        private final RandomSource random;
        /** The key of the persons' streams when the release is seeded ({@link #selectionKey}). */
        private final Long key;
        private final GroupingMemory memory;
        private final Map<String, Reservoir> byId = new HashMap<>();
        private long held;
        private UnitSpill spill;
        private boolean built;
        private long rowsRead;
        private long rowsKept;

        private Builder(PrivacyUnit unit, List<String> names, String description, RandomSource random,
                        GroupingMemory memory) {
            this.unit = Objects.requireNonNull(unit, "unit");
            if (unit.isRow()) {
                throw new IllegalArgumentException("grouping needs a unit column, not one row");
            }
            this.names = List.copyOf(names);
            this.description = description;
            this.memory = Objects.requireNonNull(memory, "memory");
            String problem = memory.problem();
            if (problem != null) {
                throw new ReleaseSettingException(grouping() + " spills its kept rows to disk when they outgrow "
                        + "memory, but " + problem, "create the directory, or give a writable one for the spill files");
            }
            this.random = unit.selection() == PrivacyUnit.Selection.RANDOM ? Objects.requireNonNull(random, "random")
                    : random;
            this.key = unit.selection() == PrivacyUnit.Selection.RANDOM ? selectionKey(random) : null;
        }

        private String grouping() {
            return "grouping " + description + " by column '" + unit.idColumn() + "'";
        }

        /**
         * Adds one row of the person {@code id}.
         *
         * @param id    the person's id, as read
         * @param row   the row (copied when kept)
         * @param where the row's place for messages (e.g. "line 12"), or null
         * @throws InvalidDataException for a row of the wrong width or a non-finite entry, or an empty id
         * @throws SpillException       when the spill files cannot be written
         */
        public void add(String id, double[] row, String where) {
            if (built) {
                throw new IllegalStateException("the grouping is built");
            }
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
                throw InvalidDataException.emptyUnitId(description + ", " + at, unit.idColumn());
            }
            rowsRead++;
            if (spill != null) {
                spill.add(id, row);
                return;
            }
            Reservoir p = byId.get(id);
            if (p == null) {
                p = new Reservoir(unit, stream(id));
                byId.put(id, p);
                held += 2L * id.length() + 160;
            }
            if (p.offer(row)) {
                rowsKept++;
                held += GroupingMemory.bytesPerRow(names.size());
            }
            if (held > memory.bytes()) {
                // the reservoirs so far become the first run of an external sort; the rest of the input is sorted
                spill = new UnitSpill(memory.spillDirectory(), grouping(), names.size(), memory.bytes());
                try {
                    spill.states(byId);
                } catch (RuntimeException e) {
                    spill.close();
                    throw e;
                }
                byId.clear();
                held = 0;
            }
        }

        private RandomSource stream(String id) {
            return unit.selection() == PrivacyUnit.Selection.RANDOM ? (key != null ? personStream(key, id) : random)
                    : null;
        }

        /**
         * The grouped source, its persons in the canonical order (sorted by id). After a spill, the runs are merged
         * here and the kept rows written to the spill file that the source reads back; the source then owns the
         * spill files ({@link UnitStatistics#close}).
         *
         * @return the source
         * @throws InvalidDataException when no row was added
         * @throws SpillException       when the spill files cannot be written or read
         */
        public UnitStatistics build() {
            if (built) {
                throw new IllegalStateException("the grouping is built");
            }
            if (rowsRead == 0) {
                throw new InvalidDataException(description + " has no data rows", "provide at least one row");
            }
            built = true;
            if (spill == null) {
                List<double[][]> kept = new ArrayList<>(byId.size());
                for (Reservoir p : new TreeMap<>(byId).values()) {
                    kept.add(p.rows());
                }
                byId.clear();
                return new UnitStatistics(unit, names, description, names.size(), new InMemory(kept), rowsRead,
                        rowsKept);
            }
            try {
                Path file = spill.newFile("kept");
                Merged merged = new Merged(spill);
                try (UnitSpill.Out out = spill.out(file)) {
                    merged.out = out;
                    spill.merge(merged);
                    merged.finish();
                }
                Spilled stored = new Spilled(spill, file, names.size(), merged.persons);
                return new UnitStatistics(unit, names, description, names.size(), stored, rowsRead, merged.kept);
            } catch (IOException e) {
                spill.close();
                throw spill.fail("write its kept rows", e);
            } catch (RuntimeException | Error e) {
                spill.close();
                throw e;
            }
        }

        /** Receives the merged records: one reservoir per person, its kept rows written when the person ends. */
        private final class Merged implements UnitSpill.Records {
            private final UnitSpill spill;
            private UnitSpill.Out out;
            private String id;
            private Reservoir reservoir;
            private long persons;
            private long kept;

            Merged(UnitSpill spill) {
                this.spill = spill;
            }

            @Override
            public void state(String person, double[][] rows, long seen) {
                next(person);
                reservoir = new Reservoir(unit, stream(person), rows, seen, key != null);
            }

            @Override
            public void row(String person, double[] row) {
                next(person);
                if (reservoir == null) {
                    reservoir = new Reservoir(unit, stream(person));
                }
                reservoir.offer(row);
            }

            private void next(String person) {
                if (!person.equals(id)) {
                    finish();
                    id = person;
                }
            }

            void finish() {
                if (reservoir == null) {
                    return;
                }
                double[][] rows = reservoir.rows();
                try {
                    out.putInt(rows.length);
                    for (double[] r : rows) {
                        out.putRow(r);
                    }
                } catch (IOException e) {
                    throw spill.fail("write its kept rows", e);
                }
                persons++;
                kept += rows.length;
                reservoir = null;
            }
        }

        /** Deletes the spill files of a grouping that was not built (a data error, an exception); else nothing. */
        @Override
        public void close() {
            if (!built && spill != null) {
                spill.close();
            }
            built = true;
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
         * A reservoir resumed from its state (after a spill): {@code kept} after {@code seen} rows offered. With
         * {@code replay}, the person's own stream is advanced by the draws those rows made (one per row after the
         * first M), so that it continues as the reservoir that stayed in memory would.
         */
        Reservoir(PrivacyUnit unit, RandomSource stream, double[][] kept, long seen, boolean replay) {
            this(unit, stream);
            this.kept.addAll(java.util.Arrays.asList(kept));
            this.seen = seen;
            if (replay && this.stream != null) {
                for (long s = m + 1L; s <= seen; s++) {
                    this.stream.nextLong(s);
                }
            }
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
        return persons.count();
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
        RowSource values = new PersonRows(1, persons.count(), (kept, clipped) -> new double[][] {
            {smallestBound(kept, unit)}}, null);
        return new NormHistogram(grid, PrivateQuantile.rowNormHistogram(values, grid));
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
        double inputBound = bounding.inputBound();
        RowSource means = new PersonRows(d, persons.count(), (kept, clipped) -> new double[][] {
            personMean(kept, inputBound)}, null);
        return new BoundedSum(io.dpspectra.data.PrivateBoundedMean.sum(means).sum(), persons.count());
    }

    /**
     * The persons' kept rows bounded by {@link #boundPerson}, streamed person by person in id order (bounded afresh
     * on every pass, the same bits each time); the rows the bounding changed are counted for {@link #curatorFacts}
     * at the end of each whole pass.
     *
     * @param bounding the whole chain: bound, policy, released mean, final bound
     * @return the bounded rows, declaring the final bound
     */
    @Override
    public ClippedRows bounded(Bounding bounding) {
        RowSource rows = new PersonRows(d, rowsKept, (kept, clipped) -> {
            double[][] person = new double[kept.length][];
            clipped[0] += boundPerson(kept, unit, bounding, person);
            return person;
        }, n -> clippedRows = n);
        // every row has norm <= B'/M^(1/4) <= B': declaring B' clips nothing more, and the estimator's calibration
        // to B' bounds each person's sum of outer products by B'^2 (in the unit's norm)
        return Clipping.l2(bounding.bound()).clip(rows, bounding.origin());
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

    /**
     * The curator's facts (not private): persons, rows read and kept, the rows the last whole pass of {@link #bounded}
     * changed, whether the grouping spilled to disk ({@code spilled}) and, when it did, the bytes it wrote there
     * ({@code spillBytes}: sorted runs, merges and the kept rows) and the directory ({@code spillDirectory}).
     *
     * @return the facts
     */
    @Override
    public Diagnostics curatorFacts() {
        Diagnostics.Builder b = Diagnostics.builder().put("persons", persons.count()).put("rowsRead", rowsRead)
                .put("rowsKept", rowsKept);
        if (clippedRows >= 0) {
            b.put("clippedRows", clippedRows);
        }
        b.put("spilled", persons instanceof Spilled);
        if (persons instanceof Spilled s) {
            b.put("spillBytes", s.spill.written()).put("spillDirectory", s.spill.given().toString());
        }
        return b.build();
    }

    /**
     * Whether the grouping spilled to disk.
     *
     * @return true when the kept rows are read back from a spill file
     */
    public boolean spilled() {
        return persons instanceof Spilled;
    }

    /**
     * The bytes the grouping wrote to its spill files (sorted runs, merges and the kept rows).
     *
     * @return the bytes, 0 when it did not spill
     */
    public long spillBytes() {
        return persons instanceof Spilled s ? s.spill.written() : 0;
    }

    /**
     * Deletes the spill files (when the grouping spilled); the statistics cannot be read afterwards. The release
     * chains ({@link PrivatePca}, {@link PrivateSecondMoment}) call it when their fit ends. Idempotent.
     */
    @Override
    public void close() {
        persons.close();
    }

    /** The persons' kept rows in id order, read one person at a time. */
    private interface Persons {
        long count();

        PersonCursor open();

        void close();
    }

    /** Reads persons in id order. */
    private interface PersonCursor extends AutoCloseable {
        /** The next person's kept rows, or null at the end. */
        double[][] next();

        @Override
        void close();
    }

    /** The persons' kept rows held in memory. */
    private static final class InMemory implements Persons {
        private final long count;
        private volatile List<double[][]> kept;

        InMemory(List<double[][]> kept) {
            this.kept = kept;
            this.count = kept.size();
        }

        @Override
        public long count() {
            return count;
        }

        @Override
        public PersonCursor open() {
            if (kept == null) {
                throw new IllegalStateException("the grouped rows are closed");
            }
            java.util.Iterator<double[][]> it = kept.iterator(); // never modified: passes may run side by side
            return new PersonCursor() {
                @Override
                public double[][] next() {
                    return it.hasNext() ? it.next() : null;
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public void close() {
            kept = null; // the count stays for the curator's facts; the rows go
        }
    }

    /** The persons' kept rows in a spill file: per person their number, then their values. */
    private static final class Spilled implements Persons {
        private final UnitSpill spill;
        private final Path file;
        private final int d;
        private final long count;
        private volatile boolean closed;

        Spilled(UnitSpill spill, Path file, int d, long count) {
            this.spill = spill;
            this.file = file;
            this.d = d;
            this.count = count;
        }

        @Override
        public long count() {
            return count;
        }

        @Override
        public PersonCursor open() {
            if (closed) {
                throw new IllegalStateException("the grouped rows are closed (their spill file is deleted)");
            }
            UnitSpill.In in;
            try {
                in = new UnitSpill.In(file);
            } catch (IOException e) {
                throw spill.fail("read back its kept rows", e);
            }
            return new PersonCursor() {
                @Override
                public double[][] next() {
                    try {
                        if (in.atEnd()) {
                            return null;
                        }
                        double[][] rows = new double[in.getInt()][d];
                        for (double[] r : rows) {
                            in.getRow(r);
                        }
                        return rows;
                    } catch (IOException e) {
                        throw spill.fail("read back its kept rows", e);
                    }
                }

                @Override
                public void close() {
                    try {
                        in.close();
                    } catch (IOException e) {
                        // a reader's close: nothing to lose
                    }
                }
            };
        }

        @Override
        public void close() {
            closed = true;
            spill.close();
        }
    }

    /** What a pass makes of one person's kept rows (counting changed rows in {@code counter[0]} when it bounds). */
    private interface PersonMap {
        double[][] rows(double[][] kept, long[] counter);
    }

    /** Rows made from the persons' kept rows, streamed person by person in id order, under the data's name. */
    private final class PersonRows implements RowSource {
        private final int width;
        private final long size;
        private final PersonMap map;
        private final java.util.function.LongConsumer endOfPass;

        PersonRows(int width, long size, PersonMap map, java.util.function.LongConsumer endOfPass) {
            this.width = width;
            this.size = size;
            this.map = map;
            this.endOfPass = endOfPass;
        }

        @Override
        public int dimension() {
            return width;
        }

        @Override
        public RowCursor open() {
            PersonCursor cursor = persons.open();
            return new RowCursor() {
                private final long[] counter = new long[1];
                private double[][] pending;
                private int at;
                private long read;
                private boolean ended;

                @Override
                public boolean next(double[] into) {
                    while (pending == null || at == pending.length) {
                        double[][] person = cursor.next();
                        if (person == null) {
                            if (!ended && endOfPass != null) {
                                endOfPass.accept(counter[0]);
                            }
                            ended = true;
                            return false;
                        }
                        pending = map.rows(person, counter);
                        at = 0;
                    }
                    System.arraycopy(pending[at++], 0, into, 0, width);
                    read++;
                    return true;
                }

                @Override
                public String position() {
                    return "row " + read;
                }

                @Override
                public long rowsRead() {
                    return read;
                }

                @Override
                public void close() {
                    cursor.close();
                }
            };
        }

        @Override
        public OptionalLong knownSize() {
            return OptionalLong.of(size);
        }

        @Override
        public String describe() {
            return description;
        }
    }
}
