package io.dpspectra.advice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.covariance.IterativeEigenvectorSampling;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReleaseAdvisorTest {
    private static final PrivacyParams APPROX = PrivacyParams.of(1, 1e-6);

    /** n rows in d dimensions: isotropic N(0, 0.01) plus N(0, 0.01·spike²) along the first k axes; seeded. */
    private static double[][] spiked(int n, int d, int k, double spike, long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[i][j] = r.standardNormal() * 0.1;
            }
            for (int j = 0; j < k; j++) {
                x[i][j] += r.standardNormal() * 0.1 * spike;
            }
        }
        return x;
    }

    /**
     * The predicted subspace error ‖UUᵀ − VVᵀ‖_F (against the exact top-k of the rows' XᵀX) matches the mean of 8
     * releases within a factor 1.5, from small errors to the random level, for each predicted algorithm. The
     * advisor is given what it would be told (n, d, k, ε, δ, B = the largest norm, so nothing is clipped) and, as
     * the share and the fill, the rows' own: the mean share of the top k eigenvalues in the trace, and the trace
     * over n·B². Each case's n and spike put the prediction inside the range it claims to cover.
     */
    @ParameterizedTest(name = "{0} k={1} n={2} spike={3}")
    @CsvSource({
        "analyze-gauss, 1, 4000, 1.5", "analyze-gauss, 1, 4000, 4", "analyze-gauss, 2, 4000, 1.5",
        "analyze-gauss, 2, 1000, 3", "analyze-gauss, 1, 300, 2",
        "it-u, 1, 4000, 2", "it-u, 1, 30000, 2", "it-u, 2, 30000, 3",
        "ad, 1, 4000, 3", "ad, 2, 30000, 2",
        "private-power, 1, 4000, 3", "private-power, 1, 30000, 1.5", "private-power, 2, 30000, 3"})
    void predictsTheMeasuredSubspaceErrorOnSpikedRowsWithinAFactorOfOnePointFive(String alg, int k, int n,
                                                                                  double spike) {
        int d = 40;
        double[][] x = spiked(n, d, k, spike, 7);
        double b = 0;
        for (double[] row : x) {
            b = Math.max(b, Vectors.norm2(row));
        }
        RowSource rows = InMemoryRows.of(x).clipL2(b);
        Matrix g = GramPass.of(rows).gram();
        double[] ev = SymmetricEigen.of(g).values();
        double trace = 0;
        for (double v : ev) {
            trace += v;
        }
        double share = 0;
        for (int i = 0; i < k; i++) {
            share += ev[i] / trace / k;
        }
        Matrix v = SymmetricEigen.top(g, k).vectors();
        boolean pure = alg.equals("it-u") || alg.equals("ad");
        PrivacyParams budget = pure ? PrivacyParams.pure(1) : APPROX;
        Neighbouring nb = pure ? Neighbouring.REPLACE_ROW : Neighbouring.ADD_REMOVE_ROW;
        ReleaseFacts f = new ReleaseFacts(n, d, k, budget, nb, b, trace / (n * b * b));
        ReleaseAdvisor.Prediction p = ReleaseAdvisor.predict(alg, f, share);
        double sum = 0;
        int runs = 8;
        for (int run = 0; run < runs; run++) {
            RandomSource r = RandomSource.seededForReproducibility(100 + run);
            PrivateSubspace s = switch (alg) {
                case "analyze-gauss" -> AnalyzeGauss.builder().components(k).randomSource(r).build().fit(rows, budget);
                case "it-u" -> IterativeEigenvectorSampling.builder().split(IterativeEigenvectorSampling.BudgetSplit.UNIFORM)
                        .vectors(k).randomSource(r).build().subspace(rows, budget);
                case "ad" -> IterativeEigenvectorSampling.builder().split(IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE)
                        .vectors(k).randomSource(r).build().release(rows, budget).topK(k);
                default -> PrivatePowerMethod.builder().components(k).randomSource(r).build().fit(rows, budget);
            };
            sum += SubspaceMetrics.projectorDistance(s.components(), v);
        }
        double measured = sum / runs;
        assertThat(p.predictedError()).as("%s: predicted %s, measured %s", alg, p.predictedError(), measured)
                .isBetween(measured / 1.5, measured * 1.5);
    }

    @Test
    void theNoiseLevelIsTheMechanismsOwnCalibration() {
        ReleaseFacts f = new ReleaseFacts(10_000, 50, 2, APPROX, Neighbouring.REPLACE_ROW, 3.0, 1);
        double sigma = AnalyzeGauss.builder().components(2).neighbouring(Neighbouring.REPLACE_ROW).build().sigma(3.0, APPROX);
        ReleaseAdvisor.Prediction p = ReleaseAdvisor.predict("analyze-gauss", f, 0.1);
        assertThat(p.entryNoise()).isEqualTo(sigma);
        assertThat(p.noiseNorm()).isEqualTo(2 * sigma * Math.sqrt(50));
        assertThat(p.requiredEigenvalue()).isCloseTo(p.requiredShare() * 10_000 * 9, Offset.offset(1e-9));
        // at the required share the direction is just recovered: sin^2 = 1/2 in the model
        ReleaseAdvisor.Prediction at = ReleaseAdvisor.predict("analyze-gauss", f, p.requiredShare());
        assertThat(at.predictedError()).isCloseTo(Math.sqrt(2 * 2 * ReleaseAdvisor.RECOVERED_SIN2), Offset.offset(1e-6));
        // the shares do not depend on B
        ReleaseFacts unknownBound = new ReleaseFacts(10_000, 50, 2, APPROX, Neighbouring.REPLACE_ROW, Double.NaN, 1);
        assertThat(ReleaseAdvisor.predict("analyze-gauss", unknownBound, 0.1).requiredShare())
                .isCloseTo(p.requiredShare(), Offset.offset(1e-8 * p.requiredShare()));
    }

    @Test
    void theBinghamIntegralIsExactWhereItsClosedFormIsKnown() {
        // c = 0: u uniform on the sphere, E[cos^2] = 1/q
        for (int q : new int[] {2, 3, 40, 7129}) {
            assertThat(ReleaseAdvisor.binghamMeanSin2(q, 0)).isCloseTo(1 - 1.0 / q, Offset.offset(1e-6));
        }
        // large c: 1 - t is Gamma((q-1)/2, c), mean (q-1)/(2c)
        assertThat(ReleaseAdvisor.binghamMeanSin2(40, 1e5)).isCloseTo(39 / 2e5, Offset.offset(1e-7));
        assertThat(ReleaseAdvisor.binghamMeanSin2(1, 5)).isZero();
    }

    @Test
    void theAdviceNamesTheFloorAndWhatWouldLiftIt() {
        // isolet5-like: n = 1559, d = 617, a private median bound (fill 0.5), epsilon 0.9 for the estimator
        ReleaseFacts f = new ReleaseFacts(1559, 617, 2, PrivacyParams.of(0.9, 1e-5), Neighbouring.REPLACE_ROW,
                Double.NaN, 0.5);
        ReleaseAdvisor.Advice a = ReleaseAdvisor.advise(f, 0.1);
        assertThat(a.useless()).isTrue();
        assertThat(a.best().algorithm()).isEqualTo("analyze-gauss");
        assertThat(a.floorShare()).isGreaterThan(0.1);
        // the epsilon and the n it names are enough, and just so
        ReleaseFacts atEps = f.withBudget(PrivacyParams.of(a.epsilonNeeded(), 1e-5));
        assertThat(ReleaseAdvisor.advise(atEps, 0.1).useless()).isFalse();
        ReleaseFacts belowEps = f.withBudget(PrivacyParams.of(a.epsilonNeeded() * 0.98, 1e-5));
        assertThat(ReleaseAdvisor.advise(belowEps, 0.1).useless()).isTrue();
        assertThat(ReleaseAdvisor.advise(f.withRows(a.rowsNeeded()), 0.1).useless()).isFalse();
        assertThat(ReleaseAdvisor.advise(f.withRows(a.rowsNeeded() - 1), 0.1).useless()).isTrue();
        // pure epsilon: the Gaussian mechanisms do not apply, the Bingham ones do
        ReleaseAdvisor.Advice pure = ReleaseAdvisor.advise(f.withBudget(PrivacyParams.pure(0.9)), 0.1);
        assertThat(pure.forAlgorithm("analyze-gauss").orElseThrow().applicable()).isFalse();
        assertThat(pure.forAlgorithm("it-u").orElseThrow().predicted()).isTrue();
        // the adaptive stochastic method is listed honestly, without a number
        ReleaseAdvisor.Prediction adaptive = a.forAlgorithm("k-dp-pca-adaptive").orElseThrow();
        assertThat(adaptive.predicted()).isFalse();
        assertThat(adaptive.note()).contains("100x behind analyze-gauss").contains("near-noiseless");
    }

    @Test
    void moreRowsOrMoreEpsilonNeverNeedMoreShare() {
        ReleaseFacts f = new ReleaseFacts(2000, 100, 3, APPROX, Neighbouring.REPLACE_ROW, 1, 0.7);
        for (String alg : ReleaseAdvisor.PREDICTED_FIT) {
            double base = ReleaseAdvisor.predict(alg, f, 0.1).requiredShare();
            assertThat(ReleaseAdvisor.predict(alg, f.withRows(4000), 0.1).requiredShare()).as(alg).isLessThanOrEqualTo(base);
            assertThat(ReleaseAdvisor.predict(alg, f.withBudget(PrivacyParams.of(1.5, 1e-6)), 0.1).requiredShare())
                    .as(alg).isLessThanOrEqualTo(base);
        }
    }

    @Test
    void badFactsAreRefusedWithTheirValue() {
        assertThatThrownBy(() -> new ReleaseFacts(0, 5, 1, APPROX, Neighbouring.REPLACE_ROW, 1, 1))
                .hasMessageContaining("got 0");
        assertThatThrownBy(() -> new ReleaseFacts(10, 5, 6, APPROX, Neighbouring.REPLACE_ROW, 1, 1))
                .hasMessageContaining("6");
        assertThatThrownBy(() -> new ReleaseFacts(10, 5, 1, APPROX, Neighbouring.REPLACE_ROW, 1, 1.5))
                .hasMessageContaining("fill");
        ReleaseFacts f = new ReleaseFacts(10, 5, 1, APPROX, Neighbouring.REPLACE_ROW, 1, 1);
        assertThatThrownBy(() -> ReleaseAdvisor.advise(f, 0)).hasMessageContaining("share");
        assertThatThrownBy(() -> ReleaseAdvisor.predict("nonsense", f, 0.1)).hasMessageContaining("covered");
    }
}
