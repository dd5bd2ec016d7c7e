package io.dpspectra.pca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

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

/** DP-Gauss-2, DP-Power-Method and k-DP-PCA: utility, failure modes, diagnostics. */
class BaselinesTest {
    private static final double[] LAMBDAS = {10, 5};
    private static final PrivacyParams P = PrivacyParams.of(1, 0.01);

    private static double ratio(PrivateSubspace s, SyntheticDataset data, double sigma) {
        return SubspaceMetrics.capturedVarianceRatio(s.components(), data.truthBasis(), LAMBDAS, sigma * sigma);
    }

    @Test
    void gaussOutputPerturbationRecoversTheSubspaceWhenTheGapIsLarge() {
        SyntheticDataset data = SpikedCovariance.rankK(40, LAMBDAS, 0.1).sample(20_000, 1);
        PrivateSubspace s = GaussOutputPerturbation.builder().components(2)
                .randomSource(RandomSource.seededForReproducibility(1)).build().fit(data.rows().clipL2(5), P);
        assertThat(ratio(s, data, 0.1)).isGreaterThan(0.99);
        assertThat(s.diagnostics().get("gapTestPassed")).isEqualTo(true);
        assertThat(s.guarantee().orElseThrow().neighbouring()).isEqualTo(Neighbouring.ADD_REMOVE_ROW);
        // the composition is stated step by step: eps/2 on the sensitivity-1 gap test, eps/2 and delta on the projector
        assertThat(s.guarantee().orElseThrow().sensitivity()).contains("sensitivity 1").contains("spends eps/2")
                .contains("the rest: eps/2 and delta").doesNotContain("sensitivity 2");
        assertThat(s.guarantee().orElseThrow().reference()).contains("Analyze Gauss").contains("Algorithm 2")
                .doesNotContain("spec").doesNotContain(".txt");
    }

    @Test
    void gaussOutputPerturbationRefusesWhenTheNoisyGapIsBelowTheThreshold() {
        RowSource tiny = InMemoryRows.of(new double[][] {{1, 0}, {0, 1}}).clipL2(1); // gap 0 << theta = 11.2
        assertThatThrownBy(() -> GaussOutputPerturbation.builder().components(1)
                .randomSource(RandomSource.seededForReproducibility(2)).build().fit(tiny, P))
                .isInstanceOfSatisfying(io.dpspectra.privacy.ReleaseRefusedException.class, e -> {
                    // a documented refusal, not a bug: it records what was spent though nothing was released
                    assertThat(e).hasMessageContaining("threshold").hasMessageContaining("counts as spent");
                    assertThat(e.spent().params()).isEqualTo(P);
                    assertThat(e.hint()).contains("more rows");
                });
        PrivateSubspace random = GaussOutputPerturbation.builder().components(1)
                .onSmallGap(GaussOutputPerturbation.OnSmallGap.RANDOM_BASIS)
                .randomSource(RandomSource.seededForReproducibility(2)).build().fit(tiny, P);
        assertThat(random.diagnostics().get("randomBasisFallback")).isEqualTo(true);
        PrivateSubspace literal = GaussOutputPerturbation.builder().components(1).paperLiteral(true)
                .randomSource(RandomSource.seededForReproducibility(2)).build().fit(tiny, P);
        assertThat(literal.diagnostics().get("warning").toString()).contains("NOT");
        assertThatThrownBy(() -> GaussOutputPerturbation.builder().neighbouring(Neighbouring.REPLACE_ROW))
                .hasMessageContaining("add/remove");
    }

    @Test
    void gaussTwoThresholdAndNoiseFollowTheSpecsReading() {
        assertThat(GaussOutputPerturbation.threshold(P)).isCloseTo(2 * (1 + Math.log(100)), within(1e-12));
        assertThat(GaussOutputPerturbation.projectorSigma(GaussOutputPerturbation.threshold(P) + 10, P))
                .isCloseTo((1 + Math.sqrt(2 * Math.log(100))) / 10, within(1e-12));
    }

    @Test
    void powerMethodNoiseMultiplierIsTheZcdpCalibrationAndRejectsLargeEpsilon() {
        // spec §6: sigma_HP = 14.87 for p = 2, L = 6, delta = 0.01, eps = 1
        assertThat(ClippedPowerMethod.noiseMultiplier(2, 6, P)).isCloseTo(14.87, within(0.01));
        assertThatThrownBy(() -> ClippedPowerMethod.noiseMultiplier(2, 6, PrivacyParams.of(11, 0.01)))
                .hasMessageContaining("2.34");
        assertThat(ClippedPowerMethod.builder().components(2).build().iterationsFor(200)).isEqualTo(6);
    }

    @Test
    void powerMethodRecoversTheSubspaceWithEnoughRows() {
        SyntheticDataset data = SpikedCovariance.rankK(20, LAMBDAS, 0.1).sample(200_000, 3);
        PrivateSubspace s = ClippedPowerMethod.builder().components(2).iterations(8)
                .randomSource(RandomSource.seededForReproducibility(3)).build().fit(data.rows().clipL2(5), P);
        assertThat(ratio(s, data, 0.1)).isGreaterThan(0.9);
        assertThat(s.diagnostics().get("l1ClippedRows")).isEqualTo(0L); // alpha1 = sqrt(d) beta clips nothing
    }

    /** With the paper's constants the histograms almost never release at experiment scale (spec §6). */
    @Test
    void kDpPcaReportsPrivRangeBottomAndPrivMeanFallbacks() {
        SyntheticDataset data = SpikedCovariance.rankK(30, LAMBDAS, 0.025).sample(20_000, 5);
        PrivateSubspace s = KDpPca.builder().components(2).randomSource(RandomSource.seededForReproducibility(5)).build()
                .fit(data.rows(), P);
        long calls = (Long) s.diagnostics().get("privRangeCalls");
        long bottom = (Long) s.diagnostics().get("privRangeBottom");
        assertThat(calls).isEqualTo(2 * ((20_000 / 2) / 141));
        assertThat(bottom).isBetween(calls / 2, calls);
        assertThat(s.diagnostics().get("batchSize")).isEqualTo(141);
        assertThat(s.guarantee().orElseThrow().neighbouring()).isEqualTo(Neighbouring.REPLACE_ROW);
    }

    /** With a public range (App. G.3) PrivMean runs every step; fallbacks are counted per coordinate. */
    @Test
    void kDpPcaWithAPublicRangeRunsPrivMeanEveryStep() {
        SyntheticDataset data = SpikedCovariance.rankK(30, LAMBDAS, 0.025).sample(20_000, 6);
        KDpPca.Builder b = KDpPca.builder().components(2).paperLiteral(true)
                .randomSource(RandomSource.seededForReproducibility(6));
        b.oracle().rangeOverride(400);
        PrivateSubspace s = b.build().fit(data.rows(), PrivacyParams.of(1, 0.01));
        assertThat(s.diagnostics().get("privMeanCalls")).isEqualTo(2L * (10_000 / 141));
        assertThat((Long) s.diagnostics().get("privMeanCoordinateFallbacks")).isBetween(0L, 2L * (10_000 / 141) * 30);
        assertThat(s.diagnostics().get("warning").toString()).contains("NOT certified");
        assertThat(s.guarantee().orElseThrow().neighbouring()).isEqualTo(Neighbouring.ADD_REMOVE_ROW);
    }
}
