package io.dpspectra.pca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.RowSource;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import io.dpspectra.synthetic.SpikedCovariance;
import io.dpspectra.synthetic.SyntheticDataset;
import org.junit.jupiter.api.Test;

class KDpOjaTest {
    private static final double[] LAMBDAS = {10, 5};
    private static final double SIGMA = 0.5;

    private static double ratio(PrivateSubspace s, SyntheticDataset data) {
        return SubspaceMetrics.capturedVarianceRatio(s.components(), data.truthBasis(), LAMBDAS, SIGMA * SIGMA);
    }

    /**
     * The acceptance case: spiked model n = 2e5, d = 100, k = 2, λ = (10, 5), σ = 0.5, (1, 1e-5), rows clipped
     * to norm 7 (the model's bound: ‖x‖² ≈ 15 + 100·0.25 = 40, so 7 ≈ √49 leaves room for the noise tail).
     */
    @Test
    void provableDefaultsCaptureNinetyPercentOfVarianceOnTheSpikedModel() {
        SyntheticDataset data = SpikedCovariance.rankK(100, LAMBDAS, SIGMA).sample(200_000, 11);
        RowSource rows = data.rows().clipL2(7);
        PrivateSubspace s = KDpOja.builder().components(2).randomSource(RandomSource.seededForReproducibility(5))
                .build().fit(rows, PrivacyParams.of(1, 1e-5));
        assertThat(ratio(s, data)).isGreaterThanOrEqualTo(0.9);
        assertThat(s.guarantee()).get().extracting(g -> g.neighbouring()).isEqualTo(Neighbouring.REPLACE_ROW);
        assertThat(s.diagnostics().get("batchSize")).isEqualTo((int) Math.ceil(Math.sqrt(100_000)));
        assertThat(s.diagnostics().get("clippedRows")).isNotNull();
        assertThat(s.diagnostics().get("learningRate").toString()).contains("eta_t");
        assertThat(s.diagnostics().get("warning")).isNull();
    }
}
