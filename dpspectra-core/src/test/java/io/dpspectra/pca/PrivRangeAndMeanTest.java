package io.dpspectra.pca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.noise.StableHistogram;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** PrivRange (Alg. 6) and PrivMean (Alg. 7): spec §6's hand-computed constants and exact small cases. */
class PrivRangeAndMeanTest {
    /** Spec §6: n = 1e5, k = 2, d = 200, ε = 1, δ = 0.01, τ = 0.01, B = 316, T = 158; each routine gets (ε/2, δ/2). */
    private static final PrivacyParams HALF = PrivacyParams.of(0.5, 0.005);
    private static final double TAU_STEP = 0.01 / (2 * 158);

    @Test
    void privRangeUsesThirtyTwoSubsetsOfTwoDifferencesAtTheSpecsScale() {
        // 158 gradients -> M = 79 differences; s = ceil(ln(1/(0.005 * 3.16e-5)) / 0.5) = ceil(31.3) = 32; b = 2
        int s = PrivRange.defaults().subsets(79, HALF, TAU_STEP);
        assertThat(s).isEqualTo(32);
        assertThat(79 / s).isEqualTo(2);
    }

    @Test
    void binsAreQuarterPowersOfTwo() {
        assertThat(PrivRange.bin(1.0)).isZero();
        assertThat(PrivRange.bin(3.0)).isEqualTo(6); // 4 log2 3 = 6.34
        assertThat(PrivRange.bin(0.5)).isEqualTo(-4);
        assertThat(PrivRange.bin(0.0)).isEqualTo(StableHistogram.NO_BIN);
        assertThat(PrivRange.bin(Double.NaN)).isEqualTo(StableHistogram.NO_BIN);
        assertThat(PrivRange.lowerEdge(6)).isCloseTo(Math.pow(2, 1.5), within(1e-12));
    }

    /**
     * Hand computation: every difference g_{2j} − g_{2j−1} equals √3·e1 (the pairs themselves differ), so every
     * subset's (1/b)GᵀG has top eigenvalue exactly 3, bin ⌊4 log2 3⌋ = 6, and the release is 2^{6/4} = 2.828.
     */
    @Test
    void privRangeReturnsTheLowerEdgeOfTheBinOfIdenticalSubsets() {
        int pairs = 400;
        double[][] g = new double[2 * pairs][3];
        for (int j = 0; j < pairs; j++) {
            g[2 * j + 1][0] = Math.sqrt(3) + j % 5; // g_{2j} − g_{2j−1} = √3·e1 for every pair
            g[2 * j][0] = j % 5;
            g[2 * j][1] = g[2 * j + 1][1] = j;
        }
        // C1 = 40: s = min(400, ceil(40 ln(1/(0.01*0.01)) / 1)) = 369 subsets of b = 1; threshold 1 + 2 ln(200) = 11.6
        PrivRange range = PrivRange.of(40, Neighbouring.REPLACE_ROW);
        assertThat(range.subsets(pairs, PrivacyParams.of(1, 0.01), 0.01)).isEqualTo(369);
        OptionalDouble est = range.estimate(g, 2 * pairs, PrivacyParams.of(1, 0.01), 0.01,
                RandomSource.seededForReproducibility(4));
        assertThat(est).isPresent();
        assertThat(est.getAsDouble()).isCloseTo(Math.pow(2, 1.5), within(1e-12)); // 2^(6/4) = 2.828
    }

    @Test
    void privRangeReturnsBottomWhenNoBinClearsTheThreshold() {
        double[][] g = new double[6][2];
        for (int i = 0; i < 6; i++) {
            g[i][0] = i * i; // 3 differences, all in different bins, far below any threshold
        }
        assertThat(PrivRange.defaults().estimate(g, 6, PrivacyParams.of(1, 1e-3), 0.01,
                RandomSource.seededForReproducibility(5))).isEmpty();
        assertThat(PrivRange.defaults().estimate(g, 1, PrivacyParams.of(1, 1e-3), 0.01,
                RandomSource.seededForReproducibility(5))).isEmpty();
    }

    @Test
    void privMeanConstantsMatchTheSpecsWorkedExample() {
        HistogramClampedMean mean = HistogramClampedMean.defaults();
        // N = 158 gradients, d = 200: r = 62.2 sqrt(L), sigma_M = 156.9 sqrt(L)
        assertThat(mean.clampRadius(1, 158, 200, TAU_STEP)).isCloseTo(62.2, within(0.05));
        assertThat(mean.sigma(1, 158, 200, TAU_STEP, HALF)).isCloseTo(156.9, within(0.1));
        assertThat(mean.sigma(4, 158, 200, TAU_STEP, HALF)).isCloseTo(2 * 156.9, within(0.2));
        PrivacyParams h = HistogramClampedMean.histogramBudget(HALF, 200);
        assertThat(h.epsilon()).isCloseTo(0.00242, within(0.000005));
        assertThat(h.delta()).isCloseTo(6.25e-6, within(1e-12));
        // tightened threshold 1 + (2/eps_h) ln(1/(2 delta_h)) = 1 + 827.4 * 11.29 (the classic ln(2/delta_h) gave 10,489)
        assertThat(StableHistogram.threshold(h, Neighbouring.REPLACE_ROW)).isCloseTo(9342, within(5.0));
        assertThat(mean.binWidth(1)).isCloseTo(Math.pow(2, 0.25) * Math.log(25), within(1e-12));
    }

    /**
     * Hand computation (d = 1, N = 20,000, L̂ = 1, τ = 0.5, (1.8, 0.5)): υ = 2^{1/4} ln 25 = 3.8278, the value 5 lies
     * in bin q = ⌈5/υ⌉ − 1 = 1 (count 19,999 ≫ threshold 26.5), so the centre is υ and r = 3 ln(40,000) = 31.79;
     * the outlier 1000 is clamped to υ + r = 35.62, giving the mean (19,999·5 + 35.62)/20,000 = 5.001531 (the
     * unclamped mean is 5.04975), plus N(0, σ_M²) with σ_M = 12 ln(40,000)·√(2 ln 5)/(1.8·20,000) = 0.006337.
     */
    @Test
    void privMeanClampsAroundTheReleasedCentreExactly() {
        double[][] g = new double[20_000][1];
        for (double[] row : g) {
            row[0] = 5;
        }
        g[0][0] = 1000;
        PrivacyParams p = PrivacyParams.of(1.8, 0.5);
        HistogramClampedMean mean = HistogramClampedMean.defaults();
        double ups = mean.binWidth(1);
        double r = mean.clampRadius(1, 20_000, 1, 0.5);
        assertThat(ups).isCloseTo(3.8279, within(1e-4));
        assertThat(r).isCloseTo(31.79, within(0.01));
        double expected = (19_999 * 5 + ups + r) / 20_000;
        assertThat(expected).isCloseTo(5.001531, within(1e-6));
        double sigma = mean.sigma(1, 20_000, 1, 0.5, p);
        assertThat(sigma).isCloseTo(0.006337, within(1e-6));
        HistogramClampedMean.Estimate e = mean.estimate(g, 20_000, 1, p, 0.5, RandomSource.seededForReproducibility(6));
        assertThat(e.fallbacks()).isZero();
        assertThat(e.mean()[0]).isCloseTo(expected, within(5 * sigma));
    }

    @Test
    void privMeanFallsBackToCentreZeroWhenNoCoordinateHistogramReleases() {
        double[][] g = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
        HistogramClampedMean.Estimate e = HistogramClampedMean.defaults().estimate(g, 3, 1, PrivacyParams.of(1, 1e-3), 0.01,
                RandomSource.seededForReproducibility(7));
        assertThat(e.fallbacks()).isEqualTo(3);
        assertThat(e.mean()).hasSize(3);
    }

    @Test
    void privMeanRejectsABudgetBeyondLemmaSixteen() {
        assertThatThrownBy(() -> HistogramClampedMean.defaults().estimate(new double[][] {{1}}, 1, 1, PrivacyParams.of(2, 1e-3),
                0.01, RandomSource.seededForReproducibility(8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("epsilon <= 1.8");
        assertThatThrownBy(() -> HistogramClampedMean.defaults().estimate(new double[][] {{1}}, 1, 0, PrivacyParams.of(1, 1e-3),
                0.01, RandomSource.seededForReproducibility(8))).hasMessageContaining("lHat");
    }

    /**
     * The pre-flight check at the paper's scale (n = 10⁵, d = 200, (1, 0.01), B = ⌊√n⌋ = 316): PrivMean sees N = 158
     * values per coordinate histogram at ε_h = 0.00242 (N ε_h = 0.38 < 1) against a threshold of about 9,346, so it cannot
     * release; it would need B ≥ 2·⌊9,346.x⌋ + 2 = 18,694, n ≈ 3.5·10⁸. A public range skips PrivRange but not PrivMean.
     */
    @Test
    void preflightSaysWhyTheLiteralAlgorithmCannotRelease() {
        PrivacyParams p = PrivacyParams.of(1, 0.01);
        ModifiedDpPca.Preflight pre = ModifiedDpPca.builder().batchSize(316).build().preflight(200, p, 158);
        assertThat(pre.meanValues()).isEqualTo(158);
        assertThat(pre.meanEpsilon() * pre.meanValues()).isCloseTo(0.38, within(0.01));
        assertThat(pre.meanThreshold()).isCloseTo(9342, within(5.0));
        assertThat(pre.canRelease()).isFalse();
        assertThat(pre.batchSizeNeeded()).isEqualTo(18_694);
        assertThat(pre.describe()).contains("needs batch size B >= 18694");
        assertThat(ModifiedDpPca.builder().batchSize(316).rangeOverride(1).build().preflight(200, p, 158).canRelease())
                .isFalse();
        // a batch that clears both thresholds can release
        assertThat(ModifiedDpPca.builder().batchSize(40_000).c1(8).build().preflight(200, p, 2).canRelease()).isTrue();
    }
}
