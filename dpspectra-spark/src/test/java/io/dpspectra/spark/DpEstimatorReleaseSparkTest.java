package io.dpspectra.spark;

import static io.dpspectra.spark.SparkTestSupport.frame;
import static io.dpspectra.spark.SparkTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.BudgetExceededException;
import io.dpspectra.privacy.BudgetLedger;
import io.dpspectra.privacy.ComposedGuarantee;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.release.Algorithms;
import io.dpspectra.release.BudgetPlan;
import io.dpspectra.release.Centring;
import io.dpspectra.release.PcaAlgorithm;
import io.dpspectra.release.PcaOptions;
import io.dpspectra.release.Preprocessor;
import io.dpspectra.release.ReleaseListener;
import io.dpspectra.release.RowBound;
import io.dpspectra.release.RowStatistics;
import io.dpspectra.release.Vocabulary;
import io.dpspectra.result.PrivateSubspace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.StandardScaler;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.LongAccumulator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ML API's private preprocessing (a private bound and a private centre composed with the estimator, as
 * core's release chain makes them), its guarantee on the model, reading the input once, the warning for a
 * column computed by a fitted stage, and the one-fit rule with its ledger.
 */
class DpEstimatorReleaseSparkTest {
    /** Rows away from the origin, so that centring matters. */
    // 1200 rows: n is public under replace, so the private 0.9-quantile gets the share core plans for n (see
    // theAutomaticShareLocatesTheQuantileAtThisN); with the fixed 0.1 share it missed in 9 of 20 seeds at this n
    private static final int N = 1200;
    private static final double[][] ROWS = shifted(rows(N, 6, 21));
    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.session("local[2]");
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    private static double[][] shifted(double[][] x) {
        for (double[] row : x) {
            row[1] += 2;
        }
        return x;
    }

    /** Core's own chain on local rows: budget split, private bound, private mean, then the estimator. */
    private static PrivateSubspace coreRelease(String algorithm, RowBound bound, Centring centring, long seed,
                                               List<io.dpspectra.privacy.PrivacyGuarantee> spent) {
        PcaAlgorithm alg = Algorithms.pca(algorithm, Vocabulary.JAVA);
        if (bound instanceof RowBound.PrivateQuantile q) { // n is public under replace: its automatic share
            bound = q.forPublicRows(ROWS.length, 1, java.util.OptionalDouble.empty());
        }
        BudgetPlan plan = BudgetPlan.split(PrivacyParams.of(1, 1e-6), bound, centring, null, alg.needsDelta(),
                alg.noise(), Vocabulary.JAVA);
        Neighbouring nb = plan.neighbouring(null);
        RandomSource random = RandomSource.seededForReproducibility(seed);
        List<String> names = List.of("x1", "x2", "x3", "x4", "x5", "x6");
        Preprocessor.Prepared p = Preprocessor.prepare(RowStatistics.of(InMemoryRows.of(ROWS), names), null, bound,
                centring, plan, nb, random, Vocabulary.JAVA, new ReleaseListener() {
                    @Override
                    public void beforeReading(int d) {
                    }

                    @Override
                    public void note(String message) {
                    }
                });
        spent.addAll(p.spent());
        return alg.fit(new PcaAlgorithm.Input(p.rows(), p.rowCount(), 2, plan.estimator(), nb, random, w -> { },
                null), PcaOptions.defaults(), Vocabulary.JAVA);
    }

    @Test
    void privateBoundAndCentreComposeAsCoresChainBitForBit(@TempDir Path dir) throws Exception {
        Dataset<Row> df = frame(spark, ROWS, 3);
        DpPca est = new DpPca().setK(2).setEpsilon(1).setDelta(1e-6).setClipNorm("private:0.9").setCenter("private")
                .setSeed(5);
        assertThat(est.getClipNorm()).isEqualTo("private:0.9");
        assertThat(est.getCenter()).isEqualTo("private");
        assertThat(est.getK()).isEqualTo(2);
        assertThat(est.getEpsilon()).isEqualTo(1.0);
        assertThat(est.getSeed()).isEqualTo(5L);
        assertThat(est.getInputCol()).isEqualTo("features");
        DpPcaModel model = est.fit(df);
        List<io.dpspectra.privacy.PrivacyGuarantee> spent = new ArrayList<>();
        PrivateSubspace core = coreRelease("analyze-gauss", RowBound.privateQuantile(0.9), Centring.PRIVATE, 5, spent);
        assertThat(model.components().data()).containsExactly(core.components().data());

        ComposedGuarantee g = model.guarantee();
        assertThat(g.rule()).isEqualTo(ComposedGuarantee.Rule.BASIC);
        assertThat(g.parts()).hasSize(3);
        assertThat(g.parts().subList(0, 2)).isEqualTo(spent);
        assertThat(g.estimator()).isEqualTo(model.release().guarantee().orElseThrow());
        assertThat(g.epsilon()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(g.delta()).isLessThanOrEqualTo(1e-6);
        assertThat(g.neighbouring()).isEqualTo(Neighbouring.REPLACE_ROW);
        double[] mean = model.preprocessing().mean();
        assertThat(mean).hasSize(6);
        assertThat(mean[1]).as("the private mean sees the shift").isGreaterThan(1);
        assertThat(model.preprocessing().boundOrigin()).contains("private 0.9-quantile");

        // transform projects the centred row
        Row first = model.transform(df).select("features", "pcaFeatures").first();
        double[] x = ((Vector) first.get(0)).toArray().clone();
        for (int j = 0; j < x.length; j++) {
            x[j] -= mean[j];
        }
        assertThat(((Vector) first.get(1)).toArray()).containsExactly(model.release().transform(x));

        // saved and loaded with its parts, preprocessing and notes
        String path = dir.resolve("model").toString();
        model.write().save(path);
        DpPcaModel loaded = DpPcaModel.load(path);
        assertThat(loaded.guarantee()).isEqualTo(g);
        assertThat(loaded.preprocessing().mean()).containsExactly(mean);
        assertThat(loaded.preprocessing().bound()).isEqualTo(model.preprocessing().bound());
        assertThat(loaded.transform(df).select("pcaFeatures").first().get(0)).isEqualTo(first.get(1));
    }

    /**
     * The automatic share at this n and ε = 1 locates the 0.9-quantile of the row norms within a factor 2 in at
     * least 19 of 20 seeds (the plan aims at a failure probability of 2%); the fixed 0.1 share did not.
     */
    @Test
    void theAutomaticShareLocatesTheQuantileAtThisN() {
        RowBound.PrivateQuantile auto = (RowBound.PrivateQuantile) RowBound.privateQuantile(0.9);
        RowBound.PrivateQuantile planned = auto.forPublicRows(N, 1, java.util.OptionalDouble.empty());
        assertThat(planned.share()).isGreaterThan(RowBound.DEFAULT_PRIVATE_SHARE);
        double[] norms = new double[N];
        for (int i = 0; i < N; i++) {
            norms[i] = io.dpspectra.linalg.Vectors.norm2(ROWS[i]);
        }
        java.util.Arrays.sort(norms);
        double truth = norms[(int) Math.ceil(0.9 * N) - 1];
        int[] within = new int[2];
        double[] shares = {planned.share(), RowBound.DEFAULT_PRIVATE_SHARE};
        double[] bracket = {planned.bracketShare(), io.dpspectra.data.AdaptiveQuantile.DEFAULT_BRACKET_SHARE};
        for (int s = 0; s < 2; s++) {
            for (long seed = 1; seed <= 20; seed++) {
                double b = io.dpspectra.data.AdaptiveQuantile.using(RandomSource.seededForReproducibility(seed))
                        .bracketShare(bracket[s]).rowNormQuantile(InMemoryRows.of(ROWS), 0.9,
                                RowBound.PrivateQuantile.ladder(java.util.OptionalDouble.empty()),
                                PrivacyParams.pure(shares[s]), Neighbouring.REPLACE_ROW).value();
                if (b >= truth / 2 && b <= truth * 2) {
                    within[s]++;
                }
            }
        }
        System.out.printf("0.9-quantile of %d row norms %.4g within a factor 2 in %d of 20 seeds at the automatic "
                + "share %.3f, %d of 20 at the fixed share 0.1%n", N, truth, within[0], planned.share(), within[1]);
        assertThat(within[0]).isGreaterThanOrEqualTo(19).isGreaterThan(within[1]);
    }

    @Test
    void aGivenBoundWithoutCentringIsOneMechanismAndNoMean() {
        DpCovarianceModel cov = new DpCovariance().setAlgorithm("laplace").setEpsilon(1).setClipNorm(3).setSeed(2)
                .fit(frame(spark, ROWS, 2));
        assertThat(cov.guarantee().rule()).isEqualTo(ComposedGuarantee.Rule.SINGLE);
        assertThat(cov.guarantee().overall()).isEqualTo(cov.release().guarantee());
        assertThat(cov.preprocessing().mean()).isNull();
        assertThat(cov.preprocessing().bound()).isEqualTo(3.0);
        assertThat(cov.notes()).isEmpty();
        DpCovarianceModel centred = new DpCovariance().setAlgorithm("gaussian").setEpsilon(1).setDelta(1e-6)
                .setClipNorm(3).setCenter("private:0.2").fit(frame(spark, ROWS, 2));
        assertThat(centred.guarantee().parts()).hasSize(2);
        assertThat(centred.guarantee().parts().get(0).epsilon()).isCloseTo(0.2, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(centred.preprocessing().bound()).isGreaterThan(3.0);   // bound + ||mean||
    }

    @Test
    void privatePowerReadsTheInputOnce() {
        LongAccumulator reads = spark.sparkContext().longAccumulator("rows read");
        StructType schema = new StructType().add("features", org.apache.spark.ml.linalg.SQLDataTypes.VectorType(), false);
        Dataset<Row> df = spark.createDataFrame(SparkTestSupport.rdd(spark, ROWS, 4).map(a -> {
            reads.add(1);
            return RowFactory.create(org.apache.spark.ml.linalg.Vectors.dense(a));
        }), schema);
        DpPca est = new DpPca().setAlgorithm("private-power").setK(2).setEpsilon(1).setDelta(1e-6)
                .setClipNorm("private:0.9").setCenter("private").setSeed(3);
        DpPcaModel model = est.fit(df);
        assertThat(model.release().diagnostics().get("iterations")).as("several passes were made").isNotNull();
        assertThat(reads.value()).as("rows read from the input over every pass of the fit").isEqualTo(ROWS.length);
        assertThat(spark.sparkContext().getPersistentRDDs().size()).as("the persisted rows are released").isZero();
        List<io.dpspectra.privacy.PrivacyGuarantee> spent = new ArrayList<>();
        PrivateSubspace core = coreRelease("private-power", RowBound.privateQuantile(0.9), Centring.PRIVATE, 3, spent);
        assertThat(model.components().data()).containsExactly(core.components().data());
    }

    @Test
    void aColumnFromAFittedStageIsNotedAndTheNoteIsSaved(@TempDir Path dir) throws Exception {
        StructType schema = new StructType().add("a", DataTypes.DoubleType).add("b", DataTypes.DoubleType);
        List<Row> rows = new ArrayList<>();
        for (double[] r : ROWS) {
            rows.add(RowFactory.create(r[0], r[1]));
        }
        Dataset<Row> raw = spark.createDataFrame(rows, schema);
        VectorAssembler assembler = new VectorAssembler().setInputCols(new String[] {"a", "b"}).setOutputCol("raw");
        DpPca plain = new DpPca().setInputCol("raw").setK(1).setEpsilon(1).setDelta(1e-6).setClipNorm(3).setSeed(1);
        PipelineModel unfitted = new Pipeline().setStages(new PipelineStage[] {assembler, plain}).fit(raw);
        DpPcaModel fromAssembler = (DpPcaModel) unfitted.stages()[1];
        assertThat(fromAssembler.notes()).as("VectorAssembler is fitted on nothing").isEmpty();
        assertThat(fromAssembler.preprocessing().features()).containsExactly("a", "b");

        StandardScaler scaler = new StandardScaler().setInputCol("raw").setOutputCol("features").setWithMean(true);
        DpPca est = new DpPca().setK(1).setEpsilon(1).setDelta(1e-6).setClipNorm(3).setSeed(1);
        PipelineModel fitted = new Pipeline().setStages(new PipelineStage[] {assembler, scaler, est}).fit(raw);
        DpPcaModel model = (DpPcaModel) fitted.stages()[2];
        assertThat(model.notes()).singleElement().asString().contains("StandardScalerModel")
                .contains("fitted on data without privacy");
        String path = dir.resolve("model").toString();
        model.write().save(path);
        assertThat(DpPcaModel.load(path).notes()).isEqualTo(model.notes());
    }

    @Test
    void anEstimatorFitsOnceUnlessALedgerChargesEachFit(@TempDir Path dir) {
        Dataset<Row> df = frame(spark, ROWS, 2);
        DpPca est = new DpPca().setK(1).setEpsilon(1).setDelta(1e-6).setClipNorm(3);
        // a fit that fails before any noise is drawn spends nothing and leaves the estimator free
        assertThatThrownBy(() -> est.copy(ParamMap.empty()).setK(7).fit(df)).hasMessageContaining("k = 7");
        est.fit(df);
        assertThatThrownBy(() -> est.fit(df)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already made a release").hasMessageContaining("setLedger");
        // copies, as fit(df, paramMaps) and CrossValidator make them, share the rule
        ParamMap other = new ParamMap().put(est.epsilon().w(0.5));
        assertThatThrownBy(() -> est.fit(df, other)).hasMessageContaining("already made a release");
        DpPca fresh = new DpPca().setK(1).setEpsilon(1).setDelta(1e-6).setClipNorm(3);
        ParamMap a = new ParamMap().put(fresh.epsilon().w(0.5));
        ParamMap b = new ParamMap().put(fresh.epsilon().w(0.25));
        assertThatThrownBy(() -> fresh.fit(df, scala.jdk.javaapi.CollectionConverters.asScala(List.of(a, b)).toList())).hasMessageContaining("already made a release");

        Path ledger = dir.resolve("budget.ledger");
        BudgetLedger.init(ledger, PrivacyParams.of(2, 1e-5));
        DpPca charged = new DpPca().setK(1).setEpsilon(0.75).setDelta(1e-6).setClipNorm(3).setLedger(ledger.toString());
        assertThat(charged.getLedger()).isEqualTo(ledger.toString());
        // refused on the data's width (checked before any noise): the ledger is not charged
        assertThatThrownBy(() -> charged.copy(ParamMap.empty()).setK(7).fit(df)).hasMessageContaining("k = 7");
        assertThat(BudgetLedger.read(ledger).spends()).isEmpty();
        charged.fit(df);
        charged.fit(df);
        assertThat(BudgetLedger.read(ledger).spentEpsilon()).isCloseTo(1.5, org.assertj.core.data.Offset.offset(1e-12));
        assertThatThrownBy(() -> charged.fit(df)).isInstanceOf(BudgetExceededException.class);
        assertThat(BudgetLedger.read(ledger).spends()).hasSize(2);
    }

    @Test
    void badBoundsAndCentresAreNamed() {
        assertThatThrownBy(() -> new DpPca().setClipNorm("private")).hasMessageContaining("clipNorm 'private'")
                .hasMessageContaining("private:0.9");
        assertThatThrownBy(() -> new DpPca().setClipNorm("private:1.5")).hasMessageContaining("quantile");
        assertThatThrownBy(() -> new DpPca().setClipNorm(-1)).hasMessageContaining("bound");
        assertThatThrownBy(() -> new DpPca().setCenter("public")).hasMessageContaining("center 'public'");
        assertThatThrownBy(() -> new DpPca().setCenter("private:2")).hasMessageContaining("share");
        Dataset<Row> df = frame(spark, ROWS, 1);
        assertThatThrownBy(() -> new DpPca().setK(1).setEpsilon(1).setDelta(1e-6).setClipNorm("private:0.9:0.6")
                .setCenter("private:0.5").fit(df)).hasMessageContaining("leaving nothing for the estimator");
    }
}
