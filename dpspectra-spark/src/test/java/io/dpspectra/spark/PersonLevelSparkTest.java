package io.dpspectra.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.audit.PrivacyAuditor;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.release.Algorithms;
import io.dpspectra.release.Bounding;
import io.dpspectra.release.Centring;
import io.dpspectra.release.CovarianceRelease;
import io.dpspectra.release.PcaAlgorithm;
import io.dpspectra.release.PcaOptions;
import io.dpspectra.release.PcaRelease;
import io.dpspectra.release.PrivacyUnit;
import io.dpspectra.release.PrivatePca;
import io.dpspectra.release.PrivateSecondMoment;
import io.dpspectra.release.ReleaseSettingException;
import io.dpspectra.release.RowBound;
import io.dpspectra.release.RowInput;
import io.dpspectra.release.Vocabulary;
import io.dpspectra.result.PrivateSubspace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A person as the privacy unit on Spark: the rows grouped by the person's column on the executors with core's
 * per-person code, the release equal to core's (the command line's) on the same rows bit for bit, whatever the
 * partitioning; refusals before anything is read; and an audit on neighbours that differ by one person's whole
 * group of rows, with the row-level twin caught.
 */
class PersonLevelSparkTest {
    private static final StructType SCHEMA = new StructType().add("person", DataTypes.StringType, true)
            .add("features", SQLDataTypes.VectorType(), true);
    private static final List<String> NAMES = List.of("x1", "x2", "x3", "x4");
    private static SparkSession spark;

    /** 40 persons of 1 to 12 rows each (a person effect plus row noise), in a shuffled order. */
    private static final List<Object[]> DATA = data();

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.session("local[2]");
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    private static List<Object[]> data() {
        RandomSource r = RandomSource.seededForReproducibility(31);
        List<Object[]> rows = new ArrayList<>();
        for (int p = 0; p < 40; p++) {
            double[] effect = {r.standardNormal() * 0.6, r.standardNormal() * 0.3, r.standardNormal() * 0.1, 0.2};
            for (int i = 0; i < 1 + (p * 7) % 12; i++) {
                double[] x = new double[4];
                for (int j = 0; j < 4; j++) {
                    x[j] = effect[j] + 0.2 * r.standardNormal();
                }
                rows.add(new Object[] {String.format("u%02d", p), x});
            }
        }
        for (int i = rows.size() - 1; i > 0; i--) { // Fisher-Yates: a person's rows are not adjacent
            int j = (int) r.nextLong(i + 1);
            Object[] t = rows.get(i);
            rows.set(i, rows.get(j));
            rows.set(j, t);
        }
        return rows;
    }

    private static Dataset<Row> frame(List<Object[]> data, int partitions) {
        List<Row> rows = new ArrayList<>();
        for (Object[] r : data) {
            rows.add(RowFactory.create(r[0], r[1] == null ? null : Vectors.dense((double[]) r[1])));
        }
        return spark.createDataFrame(JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(rows,
                partitions), SCHEMA);
    }

    private static RowInput coreInput(List<Object[]> data) {
        double[][] x = new double[data.size()][];
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            ids.add((String) data.get(i)[0]);
            x[i] = (double[]) data.get(i)[1];
        }
        return RowInput.byUnit(InMemoryRows.of(x), ids, NAMES);
    }

    private static DpPca personPca() {
        return new DpPca().setK(2).setEpsilon(1).setDelta(1e-6).setClipNorm("private:0.9").setCenter("private")
                .setSeed(11).setPrivacyUnitCol("person").setMaxRowsPerUnit(3);
    }

    @Test
    void theReleaseIsCoresBitForBitWhateverThePartitioning() {
        PcaRelease core = PrivatePca.of(coreInput(DATA)).privacyUnit(PrivacyUnit.column("person", 3))
                .bound(RowBound.privateQuantile(0.9)).centre(Centring.PRIVATE).components(2)
                .randomSource(RandomSource.seededForReproducibility(11)).withoutUsefulnessCheck()
                .fit(PrivacyParams.of(1, 1e-6));
        for (int partitions : new int[] {1, 3, 7}) {
            DpPcaModel model = personPca().fit(frame(DATA, partitions));
            assertThat(model.components().data()).as("%d partitions", partitions)
                    .isEqualTo(core.components().data());
            assertThat(model.release().explainedVariance().orElseThrow())
                    .isEqualTo(core.subspace().explainedVariance().orElseThrow());
            assertThat(model.guarantee()).isEqualTo(core.guarantee());
            assertThat(model.preprocessing().mean()).isEqualTo(core.preprocessing().mean());
            assertThat(model.preprocessing().bound()).isEqualTo(core.preprocessing().bound());
        }
        // another seed keeps other rows and draws other noise
        assertThat(personPca().setSeed(12).fit(frame(DATA, 3)).components().data())
                .isNotEqualTo(core.components().data());
    }

    @Test
    void firstRowsCovarianceIsCoresBitForBit() {
        CovarianceRelease core = PrivateSecondMoment.of(coreInput(DATA)).privacyUnit(PrivacyUnit.column("person", 2)
                .firstRows()).algorithm("gaussian").bound(RowBound.clip(1.0))
                .randomSource(RandomSource.seededForReproducibility(3)).fit(PrivacyParams.of(1, 1e-6));
        for (int partitions : new int[] {2, 5}) {
            DpCovarianceModel model = new DpCovariance().setAlgorithm("gaussian").setEpsilon(1).setDelta(1e-6)
                    .setClipNorm(1.0).setSeed(3).setPrivacyUnitCol("person").setMaxRowsPerUnit(2)
                    .setFirstRowsPerUnit(true).fit(frame(DATA, partitions));
            assertThat(model.release().matrix().data()).isEqualTo(core.covariance().matrix().data());
            assertThat(model.guarantee()).isEqualTo(core.guarantee());
        }
    }

    @Test
    void theFrobeniusBoundIsCoresBitForBitAndRefusedWhereATraceBoundIsNeeded() {
        PcaRelease core = PrivatePca.of(coreInput(DATA)).privacyUnit(PrivacyUnit.column("person", 3).frobenius())
                .bound(RowBound.clip(1.0)).components(2).randomSource(RandomSource.seededForReproducibility(8))
                .withoutUsefulnessCheck().fit(PrivacyParams.of(1, 1e-6));
        for (int partitions : new int[] {1, 4}) {
            DpPcaModel model = new DpPca().setK(2).setEpsilon(1).setDelta(1e-6).setClipNorm(1.0).setSeed(8)
                    .setPrivacyUnitCol("person").setMaxRowsPerUnit(3).setUnitBound("frobenius")
                    .fit(frame(DATA, partitions));
            assertThat(model.components().data()).as("%d partitions", partitions)
                    .isEqualTo(core.components().data());
            assertThat(model.guarantee()).isEqualTo(core.guarantee());
        }
        // the rows bound is another release of the same rows
        assertThat(new DpPca().setK(2).setEpsilon(1).setDelta(1e-6).setClipNorm(1.0).setSeed(8)
                .setPrivacyUnitCol("person").setMaxRowsPerUnit(3).fit(frame(DATA, 2)).components().data())
                .isNotEqualTo(core.components().data());
        Dataset<Row> df = frame(DATA, 2);
        assertThatThrownBy(() -> new DpPca().setAlgorithm("it-u").setK(2).setEpsilon(1).setClipNorm(1.0)
                .setPrivacyUnitCol("person").setMaxRowsPerUnit(3).setUnitBound("frobenius").fit(df))
                .isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("setUnitBound(\"frobenius\") bounds only the Frobenius norm")
                .satisfies(e -> assertThat(((ReleaseSettingException) e).hint()).contains("analyze-gauss")
                        .contains("setUnitBound(\"rows\")"));
        assertThatThrownBy(() -> new DpPca().setK(2).setEpsilon(1).setDelta(1e-6).setClipNorm(1.0)
                .setUnitBound("frobenius").fit(df)).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("setUnitBound needs setPrivacyUnitCol");
    }

    @Test
    void theGuaranteeNamesTheColumnAndMAndTheSavedModelKeepsIt(@TempDir Path dir) throws Exception {
        DpPcaModel model = new DpPca().setK(2).setEpsilon(1).setDelta(1e-6).setClipNorm(1.0).setSeed(4)
                .setPrivacyUnitCol("person").setMaxRowsPerUnit(5).fit(frame(DATA, 2));
        String unit = model.guarantee().overall().privacyUnit();
        assertThat(unit).contains("column 'person'").contains("at most 5 rows kept per person")
                .contains("chosen uniformly at random").contains("add/remove and replace-one act on persons");
        assertThat(model.guarantee().parts()).allSatisfy(p -> assertThat(p.privacyUnit()).contains("column 'person'"));
        String path = dir.resolve("model").toString();
        model.write().save(path);
        DpPcaModel loaded = DpPcaModel.load(path);
        assertThat(loaded.guarantee()).isEqualTo(model.guarantee());
        assertThat(loaded.guarantee().overall().privacyUnit()).isEqualTo(unit);
    }

    @Test
    void settingsThatCannotHonourAPersonAreRefusedBeforeAnythingIsRead() {
        Dataset<Row> df = frame(DATA, 2);
        assertThatThrownBy(() -> new DpPca().setK(2).setEpsilon(1).setDelta(1e-6).setClipNorm(1.0)
                .setPrivacyUnitCol("person").fit(df)).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("needs setMaxRowsPerUnit(M)");
        assertThatThrownBy(() -> new DpPca().setK(2).setEpsilon(1).setDelta(1e-6).setClipNorm(1.0)
                .setMaxRowsPerUnit(3).fit(df)).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("setMaxRowsPerUnit needs setPrivacyUnitCol");
        assertThatThrownBy(() -> new DpPca().setK(2).setEpsilon(1).setDelta(1e-6).setClipNorm(1.0)
                .setFirstRowsPerUnit(true).fit(df)).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("setFirstRowsPerUnit needs setPrivacyUnitCol");
        assertThatThrownBy(() -> personPca().setPrivacyUnitCol("patient").fit(df))
                .isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("the privacy unit column 'patient' is not a column of the input")
                .satisfies(e -> assertThat(((ReleaseSettingException) e).hint()).contains("person, features"));
        assertThatThrownBy(() -> personPca().setPrivacyUnitCol("features").fit(df))
                .isInstanceOf(ReleaseSettingException.class).hasMessageContaining("is also the features' column");
        // core's one list of the algorithms that honour a person
        assertThatThrownBy(() -> personPca().setAlgorithm("k-dp-ojas").setClipNorm(1.0).setCenter("none").fit(df))
                .isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("setAlgorithm(\"k-dp-ojas\") does not support setPrivacyUnitCol")
                .satisfies(e -> assertThat(((ReleaseSettingException) e).hint())
                        .isEqualTo("choose one of: ad, analyze-gauss, exact, it-u, or drop setPrivacyUnitCol"));
        // an id column assembled into the features
        Dataset<Row> assembled = new VectorAssembler().setInputCols(new String[] {"id", "a", "b"})
                .setOutputCol("features").transform(spark.createDataFrame(List.of(RowFactory.create(1.0, 0.5, 0.2),
                        RowFactory.create(2.0, 0.1, 0.3)), new StructType().add("id", DataTypes.DoubleType)
                        .add("a", DataTypes.DoubleType).add("b", DataTypes.DoubleType)));
        assertThatThrownBy(() -> personPca().setPrivacyUnitCol("id").fit(assembled))
                .isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("is one of the features of column 'features'");
    }

    @Test
    void aMissingIdOrANonFiniteValueIsADataErrorBeforeAnyNoise() {
        List<Object[]> missingId = new ArrayList<>(DATA);
        missingId.set(17, new Object[] {null, DATA.get(17)[1]});
        DpPca est = personPca();
        assertThatThrownBy(() -> est.fit(frame(missingId, 3))).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("the privacy unit column 'person' is empty")
                .extracting(e -> ((InvalidDataException) e).hint())   // raised in a task, its hint kept on the driver
                .isEqualTo("give every row the id of its person");
        List<Object[]> nan = new ArrayList<>(DATA);
        nan.set(5, new Object[] {DATA.get(5)[0], new double[] {1, Double.NaN, 0, 0}});
        assertThatThrownBy(() -> est.fit(frame(nan, 3))).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("NaN or infinite");
        // nothing was spent: the same estimator fits the clean rows
        assertThat(est.fit(frame(DATA, 3)).components().rows()).isEqualTo(4);
    }

    @Test
    void theClippedRowsAreCountedByTheFitsOwnPasses() {
        SparkUnitStatistics s = SparkUnitStatistics.of(frame(DATA, 3), "features", PrivacyUnit.column("person", 3),
                RandomSource.seededForReproducibility(4));
        try {
            ClippedRows rows = s.bounded(Bounding.of(0.9, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN));
            // the statistic's first pass (its row count) has read every partition: counted already
            assertThat(s.countedByTheFit()).isEqualTo(s.countedByAPass());
            PcaAlgorithm alg = Algorithms.pca("analyze-gauss", Vocabulary.JAVA);
            for (int fit = 1; fit <= 2; fit++) {   // a second pass over the same partitions counts nothing twice
                alg.fit(new PcaAlgorithm.Input(rows, s::rowCount, 2, CLAIMED, Neighbouring.ADD_REMOVE_ROW,
                        RandomSource.seededForReproducibility(fit), w -> { }, null), PcaOptions.defaults(),
                        Vocabulary.JAVA);
                long byAPass = s.countedByAPass();
                assertThat(byAPass).isPositive().isLessThan((Long) s.curatorFacts().get("rowsKept"));
                assertThat(s.countedByTheFit()).isEqualTo(byAPass);
                assertThat(s.curatorFacts().get("clippedRows")).isEqualTo(byAPass);
            }
        } finally {
            s.close();
        }
    }

    // ---- the audit: neighbours that differ by one person's whole group of rows

    private static final PrivacyParams CLAIMED = PrivacyParams.of(1.0, 1e-3);
    private static final double BETA = 1.0;
    private static final int M = 4;

    /** Four zero persons of two rows each; D' adds person e's M rows (β, 0), interleaved with the others'. */
    private static List<Object[]> neighbour(boolean withPerson) {
        List<Object[]> rows = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            for (String id : new String[] {"a", "b", "c", "d"}) {
                rows.add(new Object[] {id, new double[] {0, 0}});
                if (withPerson && (id.equals("a") || id.equals("c"))) {
                    rows.add(new Object[] {"e", new double[] {BETA, 0}});
                }
            }
        }
        return rows;
    }

    /**
     * The exact statistic of one data set, grouped (person level) or not (one row as the unit), computed once by
     * Spark; each trial draws core's analyze-gauss noise on it, as a fit does on the driver. With k = d = 2 the
     * release determines the noisy XᵀX, and (U diag(λ) Uᵀ)₀₀ sees the person's whole contribution.
     */
    private static PrivacyAuditor.Trial trial(boolean withPerson, boolean personLevel) {
        Dataset<Row> df = frame(neighbour(withPerson), 3);
        SparkSource source = personLevel
                ? SparkUnitStatistics.of(df, "features", PrivacyUnit.column("person", M),
                        RandomSource.seededForReproducibility(1))
                : SparkStatistics.of(df, "features");
        ClippedRows rows = source.bounded(Bounding.of(BETA, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN));
        long n = source.rowCount();
        PcaAlgorithm alg = Algorithms.pca("analyze-gauss", Vocabulary.JAVA);
        return r -> {
            PrivateSubspace s = alg.fit(new PcaAlgorithm.Input(rows, () -> n, 2, CLAIMED, Neighbouring.ADD_REMOVE_ROW,
                    r, w -> { }, null), PcaOptions.defaults(), Vocabulary.JAVA);
            Matrix u = s.components();
            double[] ev = s.explainedVariance().orElseThrow();
            return ev[0] * u.get(0, 0) * u.get(0, 0) + ev[1] * u.get(0, 1) * u.get(0, 1);
        };
    }

    private static PrivacyAuditor.Result audit(boolean personLevel, long seed, int trials) {
        return PrivacyAuditor.builder().trials(trials).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build()
                .audit(trial(false, personLevel), trial(true, personLevel), CLAIMED);
    }

    @Test
    void neighboursDifferByOnePersonsWholeGroupOfRowsInterleaved() {
        assertThat(neighbour(true).size() - neighbour(false).size()).isEqualTo(M);
        List<Object[]> d = neighbour(true);
        assertThat(d.stream().filter(x -> x[0].equals("e")).count()).isEqualTo(M);
        assertThat(d.get(d.size() - 1)[0]).isNotEqualTo("e"); // the person's rows are not adjacent
    }

    @Test
    void personLevelSparkIsNotFlaggedInAShortAudit() {
        PrivacyAuditor.Result r = audit(true, 3111, 40_000);
        assertThat(r.violation()).isFalse();
        assertThat(r.epsilonLowerBound()).isGreaterThan(0.1); // the statistic does see the person
    }

    @Test
    void rowLevelSparkIsCaughtOnPersonNeighbours() {
        PrivacyAuditor.Result r = audit(false, 3112, 40_000);
        assertThat(r.violation()).isTrue();
    }

    @Test
    @Tag("slow")
    void personLevelSparkIsNotFlaggedInTheFullAudit() {
        PrivacyAuditor.Result r = audit(true, 3113, 200_000);
        assertThat(r.violation()).isFalse();
    }
}
