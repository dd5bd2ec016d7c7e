package io.dpspectra.robust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import io.dpspectra.synthetic.Haystack;
import java.util.List;
import org.junit.jupiter.api.Test;

class GrassmannDescentTest {
    /** The paper's Figure 1 setting: r = 2, D = 20, N = 2000, inlier ratio 0.5, ε = 0.8, δ = 1/√N. */
    static final PrivacyParams FIGURE_1 = PrivacyParams.of(0.8, 1 / Math.sqrt(2000));

    static Haystack.Sample figureOne(long seed) {
        return Haystack.generate(2000, 20, 2, 0.5, RandomSource.seededForReproducibility(seed));
    }

    @Test
    void noiseFreeGgdFromThePcaStartGainsTwoOrdersOfMagnitudeIn300Steps() {
        Haystack.Sample s = figureOne(1);
        double start = SubspaceMetrics.dR2(Pca.top(s.rows(), 2), s.truth());
        PrivateSubspace fit = GrassmannDescent.ggd().components(2).iterations(300).build().fit(s.rows(), null);
        double end = SubspaceMetrics.dR2(fit.components(), s.truth());
        assertThat(end).isLessThan(start * 1e-2);
        assertThat(fit.guarantee()).isEmpty();
    }

    @Test
    void geodesicStepsConvergeLikeProjectionSteps() {
        Haystack.Sample s = figureOne(2);
        PrivateSubspace fit = GrassmannDescent.ggd().components(2).iterations(300).step(GrassmannDescent.Step.GEODESIC)
                .build().fit(s.rows(), null);
        PrivateSubspace projected = GrassmannDescent.ggd().components(2).iterations(300).build().fit(s.rows(), null);
        double geodesic = SubspaceMetrics.dR2(fit.components(), s.truth());
        assertThat(geodesic).isLessThan(1e-5);
        assertThat(geodesic).isLessThan(100 * SubspaceMetrics.dR2(projected.components(), s.truth()));
    }

    @Test
    void dpSggdRecoversTheHaystackSubspaceInMostSeededRuns() {
        int good = 0;
        for (long seed = 10; seed < 15; seed++) {
            Haystack.Sample s = figureOne(seed);
            PrivateSubspace fit = GrassmannDescent.dpSggd().components(2)
                    .randomSource(RandomSource.seededForReproducibility(seed + 100)).build().fit(s.rows(), FIGURE_1);
            double err = SubspaceMetrics.dR2(fit.components(), s.truth());
            good += err < 1e-2 ? 1 : 0;
        }
        assertThat(good).isGreaterThanOrEqualTo(4);
    }

    @Test
    void dpGgdSpendsExactlyItsBudgetInTwoLedgerEntries() {
        Haystack.Sample s = figureOne(3);
        PrivateSubspace fit = GrassmannDescent.dpGgd().components(2)
                .randomSource(RandomSource.seededForReproducibility(3)).build().fit(s.rows(), FIGURE_1);
        assertThat(fit.guarantee()).isPresent();
        assertThat(fit.guarantee().get().params()).isEqualTo(FIGURE_1);
        @SuppressWarnings("unchecked")
        List<String> ledger = (List<String>) fit.diagnostics().get("ledger");
        assertThat(ledger).hasSize(2);
        assertThat(ledger.get(0)).startsWith("initialisation (ANALYZE_GAUSS)");
        // σ of the 2000 steps with 0.8 of the budget: their exact (GDP) composition, about 0.57 of zCDP's
        PrivacyParams iter = FIGURE_1.scaled(0.8);
        double sigma = (Double) fit.diagnostics().get("sigma");
        assertThat(sigma).isCloseTo(io.dpspectra.privacy.pld.PldCalibration.gaussianSigma(2.0 / 2000, 2000, iter),
                org.assertj.core.data.Offset.offset(1e-9))
                .isLessThan(0.6 * io.dpspectra.privacy.ComposedGaussian.zcdpSigma(2.0 / 2000, 2000, iter));
        // the guarantee states what ran (the Analyze-Gauss start and the steps), and that meets the budget
        assertThat(io.dpspectra.privacy.pld.ProfileAccounting.fits(fit.guarantee().get().profile(), FIGURE_1, 1e-4))
                .isTrue();
        assertThat(fit.guarantee().get().profile().gaussianMu()).isPositive();
    }

    @Test
    void paperLiteralNoiseCarriesNoGuaranteeAndWarns() {
        Haystack.Sample s = figureOne(4);
        PrivateSubspace fit = GrassmannDescent.sggd().components(2).calibration(NoiseCalibration.PAPER_LITERAL)
                .paperConstant(1).init(GrassmannDescent.Init.PCA).build().fit(s.rows(), FIGURE_1);
        assertThat(fit.guarantee()).isEmpty();
        assertThat((String) fit.diagnostics().get("warning")).contains("NOT differentially private");
    }

    @Test
    void privatePresetsRefuseANonPrivatePcaStart() {
        Haystack.Sample s = figureOne(5);
        assertThatThrownBy(() -> GrassmannDescent.dpGgd().components(2).init(GrassmannDescent.Init.PCA).build()
                .fit(s.rows(), FIGURE_1)).hasMessageContaining("void the guarantee");
    }

    @Test
    void badInputIsRefusedWithTheFix() {
        assertThatThrownBy(() -> GrassmannDescent.ggd().components(3).build().fit(new double[][] {{1, 0, 0}}, null))
                .hasMessageContaining("r < D");
        assertThatThrownBy(() -> GrassmannDescent.ggd().components(1).build().fit(new double[][] {{1, Double.NaN}}, null))
                .hasMessageContaining("row 0").hasMessageContaining("non-finite");
        assertThatThrownBy(() -> GrassmannDescent.ggd().components(1).build().fit(new double[][] {{1, 0}, {1}}, null))
                .hasMessageContaining("row 1");
        assertThatThrownBy(() -> GrassmannDescent.dpGgd().components(1).build().fit(new double[][] {{1, 0}},
                PrivacyParams.of(1, 0))).hasMessageContaining("delta");
    }

    @Test
    void halvingScheduleFollowsThePaper() {
        GrassmannDescent g = GrassmannDescent.ggd().components(1).build();
        assertThat(g.stepSize(1, 2000)).isEqualTo(1.0);
        assertThat(g.stepSize(49, 2000)).isEqualTo(1.0);
        assertThat(g.stepSize(50, 2000)).isEqualTo(0.5);
        GrassmannDescent r = GrassmannDescent.ggd().components(1).iterations(100).restarts(4).build();
        assertThat(r.stepSize(25, 2000)).isEqualTo(1.0);
        assertThat(r.stepSize(26, 2000)).isEqualTo(0.5);
        assertThat(r.stepSize(100, 2000)).isEqualTo(0.125);
        assertThat(GrassmannDescent.dpSggd().components(1).build().batchSizeFor(2000, FIGURE_1)).isEqualTo(20);
    }
}
