package io.dpspectra.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.covariance.GaussianCovariance;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.pca.KDpOja;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;
import io.dpspectra.result.PrivateSubspace;
import org.junit.jupiter.api.Test;

/**
 * A {@link GramStatistic} of the clipped rows gives the same release, bit for bit, as the rows themselves:
 * the algorithms read XᵀX through {@link GramPass} / {@link RowGramOperator}, and the noise they draw
 * from the same seed is the same.
 */
class GramStatisticTest {
    private static final double BOUND = 1.0;
    private static final PrivacyParams BUDGET = PrivacyParams.of(1.0, 1e-6);

    private static RowSource rows() {
        RandomSource r = RandomSource.seededForReproducibility(5);
        double[][] x = new double[700][6];
        for (double[] row : x) {
            for (int j = 0; j < row.length; j++) {
                row[j] = r.standardNormal() * (j == 0 ? 2 : 0.5);   // some rows exceed the bound: clipped
            }
        }
        return InMemoryRows.of(x);
    }

    private static GramStatistic explicit(ClippedRows clipped) {
        GramPass pass = GramPass.of(clipped);
        return GramStatistic.of(pass.gram(), pass.rows(), clipped.bounds().orElseThrow(), "test statistic");
    }

    @Test
    void analyzeGaussFromTheStatisticEqualsTheRows() {
        ClippedRows clipped = rows().clipL2(BOUND);
        GramStatistic stat = explicit(clipped);
        AnalyzeGauss.Builder b = AnalyzeGauss.builder().components(2);
        PrivateSubspace fromRows = b.randomSource(RandomSource.seededForReproducibility(9)).build().fit(clipped, BUDGET);
        PrivateSubspace fromStat = b.randomSource(RandomSource.seededForReproducibility(9)).build().fit(stat, BUDGET);
        assertThat(fromStat.components().data()).containsExactly(fromRows.components().data());
        assertThat(fromStat.explainedVariance().orElseThrow()).containsExactly(fromRows.explainedVariance().orElseThrow());
        assertThat(fromStat.guarantee()).isEqualTo(fromRows.guarantee());
        // and under a ClippedRows at the same bound (as the CLI wraps every input): clipping again is the identity
        PrivateSubspace wrapped = b.randomSource(RandomSource.seededForReproducibility(9)).build()
                .fit(stat.clipL2(BOUND), BUDGET);
        assertThat(wrapped.components().data()).containsExactly(fromRows.components().data());
    }

    @Test
    void aLooserBoundThanTheStatisticsIsNotUnwrappedSilently() {
        GramStatistic stat = explicit(rows().clipL2(BOUND));
        // a tighter clip than the statistic's bound cannot be applied to a sum: the rows are needed
        assertThatThrownBy(() -> AnalyzeGauss.builder().components(2).build().fit(stat.clipL2(BOUND / 2), BUDGET))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("give it the rows themselves");
    }

    @Test
    void gaussianCovarianceFromTheStatisticEqualsTheRows() {
        ClippedRows clipped = rows().clipL2(BOUND);
        PrivateCovariance a = GaussianCovariance.builder().randomSource(RandomSource.seededForReproducibility(3))
                .build().release(clipped, BUDGET);
        PrivateCovariance b = GaussianCovariance.builder().randomSource(RandomSource.seededForReproducibility(3))
                .build().release(explicit(clipped), BUDGET);
        assertThat(b.matrix().data()).containsExactly(a.matrix().data());
    }

    @Test
    void privatePowerMethodRunsOnAnImplicitStatistic() {
        ClippedRows clipped = rows().clipL2(BOUND);
        RowGramOperator products = RowGramOperator.of(clipped);
        GramStatistic stat = GramStatistic.implicit(products, 700, clipped.bounds().orElseThrow(), "implicit");
        PrivatePowerMethod.Builder b = PrivatePowerMethod.builder().components(2);
        PrivateSubspace fromRows = b.randomSource(RandomSource.seededForReproducibility(4)).build().fit(clipped, BUDGET);
        PrivateSubspace fromStat = b.randomSource(RandomSource.seededForReproducibility(4)).build().fit(stat, BUDGET);
        assertThat(fromStat.components().data()).containsExactly(fromRows.components().data());
        assertThat(products.passes()).isPositive();   // every product went through the statistic's operator
    }

    @Test
    void anAlgorithmThatStreamsRowsRefusesAStatistic() {
        GramStatistic stat = explicit(rows().clipL2(BOUND));
        assertThatThrownBy(() -> KDpOja.builder().components(1).build().fit(stat, BUDGET))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("not the rows");
    }

    @Test
    void aLazyStatisticServesEachShapeOnDemandAndComputesXtXOnce() {
        ClippedRows clipped = rows().clipL2(BOUND);
        java.util.concurrent.atomic.AtomicInteger grams = new java.util.concurrent.atomic.AtomicInteger();
        GramStatistic lazy = GramStatistic.lazy(6, 700, clipped.bounds().orElseThrow(), () -> {
            grams.incrementAndGet();
            return GramPass.of(clipped).gram();
        }, RowGramOperator.of(clipped), () -> clipped, "lazy");
        PrivateSubspace a = AnalyzeGauss.builder().components(2).randomSource(RandomSource.seededForReproducibility(9))
                .build().fit(lazy, BUDGET);
        PrivateSubspace b = AnalyzeGauss.builder().components(2).randomSource(RandomSource.seededForReproducibility(9))
                .build().fit(clipped, BUDGET);
        assertThat(a.components().data()).containsExactly(b.components().data());
        AnalyzeGauss.builder().components(2).build().fit(lazy, BUDGET);
        assertThat(grams).hasValue(1);
        // a streaming algorithm reads the bounded rows
        PrivateSubspace oja = KDpOja.builder().components(1).randomSource(RandomSource.seededForReproducibility(2))
                .build().fit(lazy, BUDGET);
        PrivateSubspace ojaRows = KDpOja.builder().components(1).randomSource(RandomSource.seededForReproducibility(2))
                .build().fit(clipped, BUDGET);
        assertThat(oja.components().data()).containsExactly(ojaRows.components().data());
    }

    @Test
    void anEmptyStatisticIsAnError() {
        DataBounds bounds = new DataBounds(DataBounds.Norm.L2, 1, DataBounds.Origin.USER_GIVEN, DataBounds.Policy.CLIP);
        assertThatThrownBy(() -> GramStatistic.of(new io.dpspectra.linalg.Matrix(2, 2), 0, bounds, "empty"))
                .isInstanceOf(InvalidDataException.class).hasMessageContaining("no rows");
    }
}
