package io.dpspectra.pca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.RowSource;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import io.dpspectra.synthetic.SpikedCovariance;
import io.dpspectra.synthetic.SyntheticDataset;
import org.junit.jupiter.api.Test;

/** DpOja, KDpOja options and the non-private Oja reference. */
class DpOjaTest {
    private static final double[] LAMBDAS = {10, 5};
    private static final PrivacyParams P = PrivacyParams.of(1, 1e-5);

    private static double ratio(PrivateSubspace s, SyntheticDataset data, double sigma) {
        return SubspaceMetrics.capturedVarianceRatio(s.components(), data.truthBasis(), LAMBDAS, sigma * sigma);
    }

    @Test
    void noiseIsCalibratedToTheBatchMeansSensitivityAndShrinksWithTheBatch() {
        DpOja b1 = DpOja.builder().batchSize(1).clipThreshold(2).build();
        DpOja b100 = DpOja.builder().batchSize(100).clipThreshold(2).build();
        assertThat(b1.sigma(1000, P)).isEqualTo(GaussianNoise.sigmaFor(4, P));
        assertThat(b100.sigma(1000, P)).isEqualTo(GaussianNoise.sigmaFor(0.04, P));
        assertThat(b100.sigma(1000, P)).isLessThan(b1.sigma(1000, P) / 99);
    }

    @Test
    void paperLiteralNoiseIsTwoBetaAlphaAndWarns() {
        DpOja lit = DpOja.builder().clipThreshold(3).paperLiteral(true).build();
        double alpha = Math.log(50_000 / 0.01) / Math.sqrt(50_000); // C' = 1, eps = 1: spec §2.5 alpha = 0.069 C'
        assertThat(alpha).isBetween(0.068, 0.070);
        assertThat(lit.sigma(50_000, PrivacyParams.of(1, 0.01))).isEqualTo(2 * 3 * alpha);
        assertThat(lit.warning()).contains("NOT certified");
        assertThatThrownBy(() -> DpOja.builder().clipThreshold(3).paperLiteral(true).batchSize(4).build())
                .hasMessageContaining("batch size 1");
    }

    @Test
    void paperClipThresholdMatchesTheSpecsWorkedExample() {
        // spec §6: beta = 214.7 for C = 1, gamma = sigma = 0.025, lambda1 = 10, d = 200, m = 5e4, zeta = 0.01, K = a = 1
        assertThat(DpOja.paperClipThreshold(1, 10, 200, 1, 0.025, 1, 50_000, 0.01)).isBetween(214.6, 214.8);
    }

    @Test
    void ojaRecoversTheSpikedSubspaceWithoutNoise() {
        SyntheticDataset data = SpikedCovariance.rankK(50, LAMBDAS, 0.5).sample(20_000, 3);
        PrivateSubspace s = Oja.builder().components(2).randomSource(RandomSource.seededForReproducibility(3)).build()
                .fit(data.rows());
        assertThat(ratio(s, data, 0.5)).isGreaterThan(0.99);
        assertThat(s.guarantee()).isEmpty();
    }

    @Test
    void capturedVarianceCollapsesWhenEpsilonIsTiny() {
        SyntheticDataset data = SpikedCovariance.rankK(50, LAMBDAS, 0.5).sample(20_000, 4);
        RowSource rows = data.rows().clipL2(6);
        double good = ratio(KDpOja.builder().components(2).randomSource(RandomSource.seededForReproducibility(4)).build()
                .fit(rows, PrivacyParams.of(2, 1e-5)), data, 0.5);
        double bad = ratio(KDpOja.builder().components(2).randomSource(RandomSource.seededForReproducibility(4)).build()
                .fit(rows, PrivacyParams.of(0.001, 1e-5)), data, 0.5);
        // random 2-dim subspace of R^50 captures about 2/50 of the spike energy
        assertThat(good).isGreaterThan(0.8);
        assertThat(bad).isLessThan(0.3);
    }

    @Test
    void kDpOjaWorksOnGeneralSampleMatricesAndRefusesAnUnboundedSource() {
        RowSource unbounded = InMemoryRows.of(new double[][] {{1, 0}, {0, 1}, {1, 1}, {2, 0}});
        assertThatThrownBy(() -> KDpOja.builder().components(1).build().fit(unbounded, P))
                .hasMessageContaining("public gradient bound");
        PrivateSubspace s = KDpOja.builder().components(1).clipThreshold(4).batchSize(2)
                .randomSource(RandomSource.seededForReproducibility(5)).build().fit(AiSource.ofRows(unbounded), P);
        assertThat(s.k()).isEqualTo(1);
        assertThat(s.diagnostics().get("batchSize")).isEqualTo(2);
        assertThat(s.diagnostics().get("clippedGradients")).isNotNull();
    }
}
