package io.dpspectra.spark;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.release.BoundedSum;
import io.dpspectra.release.Bounding;
import io.dpspectra.release.NormHistogram;
import io.dpspectra.release.PrivacyUnit;
import io.dpspectra.release.UnitStatistics;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * Rows in a Spark cluster grouped by a {@linkplain PrivacyUnit privacy unit} column, as core's
 * {@link io.dpspectra.release.StatisticSource}: the cluster's counterpart of core's {@link UnitStatistics}, running
 * core's per-person code on the executors, so that the command line and Spark bound a person in one implementation.
 *
 * <p>Grouping, on the executors: each row is keyed by (its person's id, its place in the input's order: its partition,
 * then its position there, which needs no pass to number the rows first); a shuffle
 * sends every person's rows to one partition and sorts them there by that key (Spark's sort-based shuffle, which
 * spills to disk, so no JVM needs to hold a person's rows or the input); each person's rows are then offered in the
 * input's order to core's {@link UnitStatistics.Reservoir}, which keeps at most M: the first M, or M uniformly at
 * random with the person's own stream ({@link UnitStatistics#personStream}, derived from the release's seed) or, for
 * a secure release, a secure source of the task. A second shuffle sorts the persons by id, the canonical order, and
 * the persons with their kept rows (at most M each) are persisted, serialized, in memory and on disk.
 *
 * <p>Statistics: one value per person for a private bound ({@link UnitStatistics#smallestBound}), one mean per person
 * for a private centre ({@link UnitStatistics#personMean}), and each person's bounded rows
 * ({@link UnitStatistics#boundPerson}) for the estimator's XᵀX or products, all summed by {@link DistributedGram} in
 * core's canonical blocks over the persons in id order: the same bits for any partitioning, and the same bits as
 * core's {@link UnitStatistics} on the same rows in the same order (which sums persons in id order too).
 *
 * <p>Privacy: as core's {@link UnitStatistics}. Data errors (a missing id, a null or non-finite vector, vectors of
 * different widths) are raised by the grouping pass, before any noise.
 */
final class SparkUnitStatistics implements SparkSource {
    private final PrivacyUnit unit;
    private final JavaRDD<Person> persons;
    private final List<String> names;
    private final String description;
    private final int d;
    private final long[] counts;
    /** The bounding of the last {@link #bounded} call, and the rows it changed (counted when asked, -1 before). */
    private Bounding lastBounding;
    /** The rows the last bounding changed, per partition, as the fit's passes read them. */
    private org.apache.spark.util.CollectionAccumulator<long[]> lastClipped;
    private long clippedRows = -1;

    /**
     * One person: their id, their kept rows (at most M, in the reservoir's order), how many rows they had, and the
     * least and greatest width of those rows.
     */
    record Person(String id, double[][] rows, long seen, int minWidth, int maxWidth) implements Serializable {
    }

    private SparkUnitStatistics(PrivacyUnit unit, JavaRDD<Person> persons, List<String> names, String description,
                                int d, long[] counts) {
        this.unit = unit;
        this.persons = persons;
        this.names = names;
        this.description = description;
        this.d = d;
        this.counts = counts;
    }

    /**
     * Groups the vector column {@code inputCol} of {@code data} by the column {@code unit.idColumn()}: the grouping
     * pass runs now (two shuffles and a count), before any noise. For a random selection of a seeded release, the
     * key of the persons' streams is drawn from {@code release} here ({@link UnitStatistics#selectionKey}), as core's
     * grouping draws it.
     *
     * @param data     the rows
     * @param inputCol the vector column
     * @param unit     the unit (a column, not one row)
     * @param release  the release's random source
     * @return the grouped source, to be closed after the release
     */
    static SparkUnitStatistics of(Dataset<?> data, String inputCol, PrivacyUnit unit, RandomSource release) {
        return of(data, inputCol, unit, release, SparkStatistics.attributeNames(data, inputCol),
                "column '" + inputCol + "' grouped by column '" + unit.idColumn() + "'");
    }

    /**
     * As {@link #of(Dataset, String, PrivacyUnit, RandomSource)}, with the features' names and the input's name in
     * messages given (a job's input).
     *
     * @param data        the rows
     * @param inputCol    the vector column
     * @param unit        the unit (a column, not one row)
     * @param release     the release's random source
     * @param names       the d feature names, or null for the column's attributes or x1, x2, …
     * @param description the input's name in messages
     * @return the grouped source, to be closed after the release
     */
    static SparkUnitStatistics of(Dataset<?> data, String inputCol, PrivacyUnit unit, RandomSource release,
                                  List<String> names, String description) {
        String idColumn = unit.idColumn();
        Long key = unit.selection() == PrivacyUnit.Selection.RANDOM ? UnitStatistics.selectionKey(release) : null;
        JavaRDD<Row> rows = data.select(idColumn, inputCol).toJavaRDD();
        int partitions = Math.max(1, rows.getNumPartitions());
        // a row's place in the input's order: (its partition, its position there), compared as one number, so that
        // no pass is needed to count the partitions first
        JavaPairRDD<Tuple2<String, Long>, double[]> keyed = rows.mapPartitionsWithIndex((Integer p, Iterator<Row> it) -> {
            return new Iterator<Tuple2<Tuple2<String, Long>, double[]>>() {
                private long position;

                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public Tuple2<Tuple2<String, Long>, double[]> next() {
                    Row r = it.next();
                    String where = "row " + (++position) + " of partition " + p;
                    return new Tuple2<>(new Tuple2<>(id(r, idColumn, where), ((long) p << PARTITION_SHIFT) + position),
                            values(r, inputCol, where));
                }
            };
        }, true).mapToPair(t -> t);
        return grouped(keyed, partitions, unit, key, names, description, null);
    }

    /**
     * Groups rows read in chunks with their ids ({@link RowChunk#ids}: a job's reader of a table with a privacy unit
     * column) by their person, as {@link #of(Dataset, String, PrivacyUnit, RandomSource, List, String)} groups a
     * vector column: each row's place in the input's order is its partition, then its position there. The notes of
     * the partitions' last chunks (what the reader found: its lines, its first problem) are gathered as the grouping
     * pass reads them and handed, in partition order, to {@code check} on the driver, which throws the input's first
     * problem, before any noise.
     *
     * @param chunks      the rows with their ids, in the input's order (partition by partition)
     * @param d           the width of the rows
     * @param unit        the unit (a column, not one row)
     * @param release     the release's random source
     * @param names       the d feature names
     * @param description the input's name in messages
     * @param check       throws the first problem the partitions' notes report
     * @return the grouped source, to be closed after the release
     */
    static SparkUnitStatistics ofChunks(JavaRDD<RowChunk> chunks, int d, PrivacyUnit unit, RandomSource release,
                                        List<String> names, String description,
                                        java.util.function.Consumer<List<java.io.Serializable>> check) {
        Objects.requireNonNull(check, "check");
        Long key = unit.selection() == PrivacyUnit.Selection.RANDOM ? UnitStatistics.selectionKey(release) : null;
        int partitions = Math.max(1, chunks.getNumPartitions());
        org.apache.spark.util.CollectionAccumulator<Tuple2<Integer, java.io.Serializable>> notes =
                chunks.context().collectionAccumulator("dpspectra input notes");
        JavaPairRDD<Tuple2<String, Long>, double[]> keyed = chunks.mapPartitionsWithIndex((Integer p,
                Iterator<RowChunk> it) -> {
            return new Iterator<Tuple2<Tuple2<String, Long>, double[]>>() {
                private long position;
                private RowChunk chunk;
                private int row;

                @Override
                public boolean hasNext() {
                    while (chunk == null || row >= chunk.rows()) {
                        if (!it.hasNext()) {
                            return false;
                        }
                        chunk = it.next();
                        row = 0;
                        if (chunk.note() != null) {
                            notes.add(new Tuple2<>(p, chunk.note()));
                        }
                        if (chunk.rows() > 0 && (chunk.ids() == null || chunk.width() != d)) {
                            throw new IllegalStateException("a chunk of " + chunk.rows() + " rows of width "
                                    + chunk.width() + (chunk.ids() == null ? " without ids" : "") + ", expected " + d);
                        }
                    }
                    return true;
                }

                @Override
                public Tuple2<Tuple2<String, Long>, double[]> next() {
                    if (!hasNext()) {
                        throw new java.util.NoSuchElementException();
                    }
                    double[] x = java.util.Arrays.copyOfRange(chunk.values(), row * d, (row + 1) * d);
                    String id = chunk.ids()[row++];
                    return new Tuple2<>(new Tuple2<>(id, ((long) p << PARTITION_SHIFT) + (++position)), x);
                }
            };
        }, true).mapToPair(t -> t);
        Runnable checkNotes = () -> {
            // one note per partition (a task run again adds its note again), in partition order
            java.util.TreeMap<Integer, java.io.Serializable> byPartition = new java.util.TreeMap<>();
            for (Tuple2<Integer, java.io.Serializable> n : notes.value()) {
                byPartition.putIfAbsent(n._1(), n._2());
            }
            check.accept(new ArrayList<>(byPartition.values()));
        };
        return grouped(keyed, partitions, unit, key, names, description, checkNotes);
    }

    /**
     * The grouping of rows keyed by (id, place in the input): two shuffles and a count, then {@code check} (if any)
     * on the driver, before the counts are looked at.
     */
    private static SparkUnitStatistics grouped(JavaPairRDD<Tuple2<String, Long>, double[]> keyed, int partitions,
                                               PrivacyUnit unit, Long key, List<String> names, String description,
                                               Runnable check) {
        JavaRDD<Tuple2<String, Person>> grouped = keyed
                .repartitionAndSortWithinPartitions(new ById(partitions), new ByIdThenRow())
                .mapPartitions(it -> select(it, unit, key));
        JavaRDD<Person> sorted = DistributedGram.sparkJob(() -> grouped.mapToPair(t -> t)
                .sortByKey(true, partitions).values().persist(StorageLevel.MEMORY_AND_DISK_SER()));
        long[] counts;
        try {
            counts = DistributedGram.sparkJob(() -> sorted.map(p -> new long[] {1, p.seen(), p.rows().length,
                    p.minWidth(), p.maxWidth()}).fold(new long[] {0, 0, 0, Long.MAX_VALUE, 0}, SparkUnitStatistics::merge));
        } catch (RuntimeException e) {
            sorted.unpersist(false);
            throw e;
        }
        if (check != null) {
            try {
                check.run();
            } catch (RuntimeException e) {
                sorted.unpersist(false);
                throw e;
            }
        }
        if (counts[0] == 0) {
            sorted.unpersist(false);
            throw new InvalidDataException(description + " has no rows; provide at least one row");
        }
        if (counts[3] != counts[4]) {
            sorted.unpersist(false);
            throw new InvalidDataException(description + " has rows of " + counts[3] + " and of " + counts[4]
                    + " values; every vector in the input column needs the same size");
        }
        int d = (int) counts[3];
        if (names != null && names.size() != d) {
            sorted.unpersist(false);
            throw new InvalidDataException(description + " has rows of " + d + " values for " + names.size()
                    + " feature names; every vector in the input column needs one value per feature");
        }
        return new SparkUnitStatistics(unit, sorted, names != null ? names : SparkStatistics.generatedNames(d),
                description, d, counts);
    }

    /** A row's place: its partition in the bits above these, its position in the partition below (< 2^40). */
    private static final int PARTITION_SHIFT = 40;

    private static long[] merge(long[] a, long[] b) {
        return new long[] {a[0] + b[0], a[1] + b[1], a[2] + b[2], Math.min(a[3], b[3]), Math.max(a[4], b[4])};
    }

    /** The person's id as text (as a CSV cell reads), refusing a missing one. */
    private static String id(Row r, String idColumn, String where) {
        Object v = r.get(0);
        if (v == null || v.toString().isEmpty()) {
            throw InvalidDataException.emptyUnitId(where, idColumn);
        }
        return v.toString();
    }

    /** The row's values (a copy), refusing a null vector or a non-finite entry. */
    private static double[] values(Row r, String inputCol, String where) {
        Vector v = (Vector) r.get(1);
        if (v == null) {
            throw new InvalidDataException(where + ", column '" + inputCol + "' is null; every row needs a "
                    + "vector (drop or impute missing rows first)");
        }
        double[] x = v instanceof SparseVector ? v.toArray() : v.toArray().clone();
        for (double value : x) {
            if (!Double.isFinite(value)) {
                throw new InvalidDataException(where + ", column '" + inputCol + "' has a NaN or infinite value; "
                        + "remove or impute non-finite values");
            }
        }
        return x;
    }

    /**
     * A partition's rows, sorted by (id, row number): each person's rows offered to core's reservoir in order, one
     * person at a time (the partition is streamed, never held).
     */
    private static Iterator<Tuple2<String, Person>> select(Iterator<Tuple2<Tuple2<String, Long>, double[]>> it,
                                                           PrivacyUnit unit, Long key) {
        return new Iterator<>() {
            private RandomSource secure;
            private Tuple2<Tuple2<String, Long>, double[]> next = it.hasNext() ? it.next() : null;

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Tuple2<String, Person> next() {
                if (next == null) {
                    throw new java.util.NoSuchElementException();
                }
                String id = next._1()._1();
                RandomSource stream = null;
                if (unit.selection() == PrivacyUnit.Selection.RANDOM) {
                    if (key != null) {
                        stream = UnitStatistics.personStream(key, id);
                    } else {
                        secure = secure != null ? secure : RandomSource.secure();
                        stream = secure;
                    }
                }
                UnitStatistics.Reservoir reservoir = new UnitStatistics.Reservoir(unit, stream);
                int min = Integer.MAX_VALUE;
                int max = 0;
                while (next != null && next._1()._1().equals(id)) {
                    double[] row = next._2();
                    min = Math.min(min, row.length);
                    max = Math.max(max, row.length);
                    reservoir.offer(row);
                    next = it.hasNext() ? it.next() : null;
                }
                return new Tuple2<>(id, new Person(id, reservoir.rows(), reservoir.seen(), min, max));
            }
        };
    }

    /** Sends every row of one person to one partition. */
    private static final class ById extends Partitioner {
        private static final long serialVersionUID = 1L;
        private final int partitions;

        ById(int partitions) {
            this.partitions = partitions;
        }

        @Override
        public int numPartitions() {
            return partitions;
        }

        @Override
        @SuppressWarnings("unchecked")
        public int getPartition(Object key) {
            return Math.floorMod(((Tuple2<String, Long>) key)._1().hashCode(), partitions);
        }
    }

    /** A person's rows together, in the input's order. */
    private static final class ByIdThenRow implements Comparator<Tuple2<String, Long>>, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public int compare(Tuple2<String, Long> a, Tuple2<String, Long> b) {
            int c = a._1().compareTo(b._1());
            return c != 0 ? c : Long.compare(a._2(), b._2());
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

    /** The number of persons: what add/remove one person changes by one (counted by the grouping pass). */
    @Override
    public long rowCount() {
        return counts[0];
    }

    @Override
    public long rows() {
        return counts[0];
    }

    @Override
    public NormHistogram normHistogram(double[] grid) {
        PrivacyUnit u = unit;
        JavaRDD<Vector> values = persons.map(p -> Vectors.dense(UnitStatistics.smallestBound(p.rows(), u)));
        return new NormHistogram(grid, DistributedGram.unbounded(values, 1, description, false).rowNormHistogram(grid));
    }

    @Override
    public BoundedSum boundedSum(Bounding bounding) {
        double inputBound = bounding.inputBound();
        JavaRDD<Vector> means = persons.map(p -> Vectors.dense(UnitStatistics.personMean(p.rows(), inputBound)));
        // each mean has norm <= inputBound already; summed as they are (a bound no vector reaches), in the
        // canonical column sums over the persons in id order, as core sums them
        return new BoundedSum(DistributedGram.unbounded(means, d, description, false).boundedSum(Bounding.of(
                Double.MAX_VALUE, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN)).sum(), counts[0]);
    }

    /**
     * Each person's kept rows bounded by core's {@link UnitStatistics#boundPerson} on the executors, in id order, as
     * the statistic of core's estimators (XᵀX or products Xᵀ(XW)), declaring the final bound B': every row has norm
     * ≤ B'/√M, so declaring B' clips nothing more.
     */
    @Override
    public ClippedRows bounded(Bounding bounding) {
        PrivacyUnit u = unit;
        org.apache.spark.util.CollectionAccumulator<long[]> clipped = persons.context()
                .collectionAccumulator("dpspectra rows clipped per partition");
        // each partition's bounded rows, person after person; a partition read to its end adds the rows its bounding
        // changed (the curator's count, which the fit's own pass thus makes; a partition read again adds it again)
        JavaRDD<Vector> rows = persons.mapPartitionsWithIndex((Integer index, Iterator<Person> it) ->
                boundRows(index, it, u, bounding, clipped), true);
        lastBounding = bounding;
        lastClipped = clipped;
        clippedRows = -1;
        Bounding declared = Bounding.of(bounding.bound(), DataBounds.Policy.CLIP, bounding.origin());
        return declared.declare(DistributedGram.unbounded(rows, d, description, false).bounded(declared).statistic());
    }

    /**
     * A partition's persons as their bounded rows ({@link UnitStatistics#boundPerson}), person after person; read to
     * its end, the partition adds (its index, the rows its bounding changed) to {@code clipped}.
     */
    private static Iterator<Vector> boundRows(int index, Iterator<Person> it, PrivacyUnit u, Bounding bounding,
            org.apache.spark.util.CollectionAccumulator<long[]> clipped) {
        return new Iterator<Vector>() {
            private double[][] out = new double[0][];
            private int next;
            private long changed;
            private boolean counted;

            @Override
            public boolean hasNext() {
                while (next == out.length && it.hasNext()) {
                    Person p = it.next();
                    out = new double[p.rows().length][];
                    changed += UnitStatistics.boundPerson(p.rows(), u, bounding, out);
                    next = 0;
                }
                if (next < out.length) {
                    return true;
                }
                if (!counted) {
                    counted = true;
                    clipped.add(new long[] {index, changed});
                }
                return false;
            }

            @Override
            public Vector next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                return Vectors.dense(out[next++]);
            }
        };
    }

    /**
     * The curator's facts, as core's {@link UnitStatistics} gives them: persons, rows read and kept, and (after
     * {@link #bounded}) the kept rows the bounding changed: counted by the fit's own passes when they read every
     * partition, else by one more pass over the persisted persons.
     */
    @Override
    public Diagnostics curatorFacts() {
        Diagnostics.Builder b = Diagnostics.builder().put("persons", counts[0]).put("rowsRead", counts[1])
                .put("rowsKept", counts[2]);
        if (lastBounding != null) {
            if (clippedRows < 0) {
                long counted = countedByTheFit();
                clippedRows = counted >= 0 ? counted : countedByAPass();
            }
            b.put("clippedRows", clippedRows);
        }
        return b.build();
    }

    /** The rows the last bounding changed, counted by a pass of their own over the persisted persons. */
    long countedByAPass() {
        Bounding bounding = lastBounding;
        PrivacyUnit u = unit;
        return DistributedGram.sparkJob(() -> persons.map(p -> (long) UnitStatistics.boundPerson(p.rows(), u, bounding,
                new double[p.rows().length][])).fold(0L, Long::sum));
    }

    /**
     * The rows the last bounding changed, as the fit's passes counted them (one count per partition: a partition read
     * again counts the same rows again), or -1 when some partition was not read to its end by them.
     */
    long countedByTheFit() {
        java.util.Map<Long, Long> byPartition = new java.util.HashMap<>();
        for (long[] c : lastClipped.value()) {
            byPartition.putIfAbsent(c[0], c[1]);
        }
        if (byPartition.size() != persons.getNumPartitions()) {
            return -1;
        }
        return byPartition.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Releases the persisted persons (the statistics already computed stay valid). */
    @Override
    public void close() {
        persons.unpersist(false);
    }

    @Override
    public String toString() {
        return Objects.toString(description);
    }
}
