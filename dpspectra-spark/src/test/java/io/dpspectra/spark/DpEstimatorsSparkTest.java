package io.dpspectra.spark;

import static io.dpspectra.spark.SparkTestSupport.frame;
import static io.dpspectra.spark.SparkTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.covariance.IterativeEigenvectorSampling;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.pca.KDpOja;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;
import io.dpspectra.result.PrivateSubspace;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark estimators release exactly what core releases from the same rows and seed, bit for bit, in
 * one partition or several (the same canonical blocks of rows, the same noise draws).
 */
class DpEstimatorsSparkTest {
    private static final PrivacyParams BUDGET = PrivacyParams.of(1.0, 1e-6);
    private static final double[][] ROWS = rows(1500, 8, 11);
    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.session("local[2]");
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    private static ClippedRows coreRows() {
        return InMemoryRows.of(ROWS).clipL2(1.0);
    }

    private static DpPca dpPca(String algorithm, long seed) {
        return new DpPca().setAlgorithm(algorithm).setK(3).setEpsilon(1).setDelta(1e-6).setClipNorm(1).setSeed(seed);
    }

    @Test
    void analyzeGaussInOnePartitionEqualsCoreBitForBit() {
        PrivateSubspace spark1 = dpPca("analyze-gauss", 7).fit(frame(spark, ROWS, 1)).release();
        PrivateSubspace core = AnalyzeGauss.builder().components(3).randomSource(RandomSource.seededForReproducibility(7))
                .build().fit(coreRows(), BUDGET);
        assertThat(spark1.components().data()).containsExactly(core.components().data());
        assertThat(spark1.explainedVariance().orElseThrow()).containsExactly(core.explainedVariance().orElseThrow());
        assertThat(spark1.guarantee()).isEqualTo(core.guarantee());
        assertThat(spark1.diagnostics().get("rows")).isEqualTo(1500L);
    }

    @Test
    void analyzeGaussAcrossFourPartitionsEqualsCoreBitForBit() {
        // the partitions fold core's canonical blocks of rows at their row numbers: core's XᵀX, bit for bit
        PrivateSubspace spark4 = dpPca("analyze-gauss", 7).fit(frame(spark, ROWS, 4)).release();
        PrivateSubspace core = AnalyzeGauss.builder().components(3).randomSource(RandomSource.seededForReproducibility(7))
                .build().fit(coreRows(), BUDGET);
        assertThat(spark4.components().data()).containsExactly(core.components().data());
        assertThat(spark4.explainedVariance().orElseThrow()).containsExactly(core.explainedVariance().orElseThrow());
    }

    @Test
    void privatePowerMethodAndKDpOjasEqualCore() {
        PrivateSubspace power = dpPca("private-power", 3).fit(frame(spark, ROWS, 1)).release();
        PrivateSubspace corePower = PrivatePowerMethod.builder().components(3)
                .randomSource(RandomSource.seededForReproducibility(3)).build().fit(coreRows(), BUDGET);
        assertThat(power.components().data()).containsExactly(corePower.components().data());

        // sequential: streamed to the driver in partition order, so any partitioning gives core's order
        PrivateSubspace oja = dpPca("k-dp-ojas", 5).setK(2).fit(frame(spark, ROWS, 3)).release();
        PrivateSubspace coreOja = KDpOja.builder().components(2).randomSource(RandomSource.seededForReproducibility(5))
                .build().fit(coreRows(), BUDGET);
        assertThat(oja.components().data()).containsExactly(coreOja.components().data());
    }

    @Test
    void covarianceEqualsCore() {
        DpCovarianceModel model = new DpCovariance().setAlgorithm("ad").setEpsilon(1).setClipNorm(1).setSeed(9)
                .fit(frame(spark, ROWS, 1));
        PrivateCovariance core = IterativeEigenvectorSampling.builder()
                .split(IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE)
                .randomSource(RandomSource.seededForReproducibility(9)).build().release(coreRows(), PrivacyParams.of(1, 0));
        assertThat(model.release().matrix().data()).containsExactly(core.matrix().data());
        assertThat(model.release().guarantee()).isEqualTo(core.guarantee());
    }

    @Test
    void transformProjectsOntoTheComponentsAndSaveLoadKeepsTheRelease(@TempDir Path dir) throws Exception {
        Dataset<Row> df = frame(spark, ROWS, 2);
        DpPcaModel model = dpPca("analyze-gauss", 1).setOutputCol("pcs").fit(df);
        List<Row> out = model.transform(df).select("features", "pcs").limit(5).collectAsList();
        for (Row r : out) {
            double[] x = ((Vector) r.get(0)).toArray();
            assertThat(((Vector) r.get(1)).toArray()).containsExactly(model.release().transform(x));
        }
        String path = dir.resolve("model").toString();
        model.write().save(path);
        DpPcaModel loaded = DpPcaModel.load(path);
        assertThat(loaded.uid()).isEqualTo(model.uid());
        assertThat(loaded.components().data()).containsExactly(model.components().data());
        assertThat(loaded.release().explainedVariance().orElseThrow())
                .containsExactly(model.release().explainedVariance().orElseThrow());
        assertThat(loaded.release().guarantee()).isEqualTo(model.release().guarantee());
        assertThat(loaded.getOrDefault(loaded.outputCol())).isEqualTo("pcs");

        DpCovarianceModel cov = new DpCovariance().setAlgorithm("gaussian").setEpsilon(1).setDelta(1e-6).setClipNorm(1)
                .setK(2).fit(df);
        cov.write().save(dir.resolve("cov").toString());
        DpCovarianceModel covLoaded = DpCovarianceModel.load(dir.resolve("cov").toString());
        assertThat(covLoaded.release().matrix().data()).containsExactly(cov.release().matrix().data());
        assertThat(covLoaded.release().eigenvalues()).containsExactly(cov.release().eigenvalues());
        assertThat((Integer) covLoaded.getOrDefault(covLoaded.k())).isEqualTo(2);

        new DpPca().setK(2).setEpsilon(2).write().save(dir.resolve("estimator").toString());
        DpPca est = DpPca.load(dir.resolve("estimator").toString());
        assertThat((Double) est.getOrDefault(est.epsilon())).isEqualTo(2.0);
    }

    @Test
    void badParametersAreNamedInTheUsersTerms() {
        Dataset<Row> df = frame(spark, ROWS, 1);
        assertThatThrownBy(() -> new DpPca().setK(2).setClipNorm(1).fit(df))
                .hasMessageContaining("needs epsilon").hasMessageContaining("setEpsilon");
        assertThatThrownBy(() -> new DpPca().setK(2).setEpsilon(1).setDelta(1e-6).fit(df))
                .hasMessageContaining("setClipNorm");
        assertThatThrownBy(() -> new DpPca().setK(9).setEpsilon(1).setDelta(1e-6).setClipNorm(1).fit(df))
                .hasMessageContaining("k = 9");
        assertThatThrownBy(() -> new DpPca().setK(2).setEpsilon(1).setClipNorm(1).fit(df))
                .hasMessageContaining("delta");
        assertThatThrownBy(() -> new DpPca().setEpsilon(-1)).hasMessageContaining("epsilon");
        // one table of names with the CLI: every private fit algorithm, never the non-private references
        assertThat(DpPca.ALGORITHMS).isEqualTo(io.dpspectra.release.Algorithms.privatePcaNames())
                .contains("analyze-gauss", "k-dp-pca", "dp-power-method").doesNotContain("exact", "oja");
        assertThatThrownBy(() -> new DpPca().setAlgorithm("exact")).hasMessageContaining("exact");
        assertThat(DpCovariance.ALGORITHMS).isEqualTo(io.dpspectra.release.Algorithms.covarianceNames());
        assertThatThrownBy(() -> new DpCovariance().setAlgorithm("ad").setNeighbouring("add-remove").setEpsilon(1)
                .setClipNorm(1).fit(df)).hasMessageContaining("replace neighbouring only");
        assertThatThrownBy(() -> new DpPca().setK(2).setEpsilon(1).setClipNorm(1).setInputCol("x").fit(df))
                .hasMessageContaining("input column 'x' is not in the DataFrame");
    }
}
