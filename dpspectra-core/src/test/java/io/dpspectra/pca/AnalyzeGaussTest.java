package io.dpspectra.pca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.covariance.GaussianCalibration;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import org.junit.jupiter.api.Test;

class AnalyzeGaussTest {
    private static final PrivacyParams BUDGET = PrivacyParams.of(1.0, 1e-5);

    /** Spiked data x = V diag(√λ) r + z, r Rademacher, z ~ N(0, σ²I), V a random orthonormal d × k. */
    record Spiked(double[][] rows, Matrix v, double[] lambda, double sigma) {
        static Spiked generate(int n, int d, double[] lambda, double sigma, long seed) {
            RandomSource r = RandomSource.seededForReproducibility(seed);
            int k = lambda.length;
            Matrix g = new Matrix(d, k);
            for (int j = 0; j < k; j++) {
                for (int i = 0; i < d; i++) {
                    g.set(i, j, r.standardNormal());
                }
            }
            Matrix v = Orthonormal.qr(g);
            double[][] rows = new double[n][d];
            for (int t = 0; t < n; t++) {
                double[] x = rows[t];
                for (int i = 0; i < d; i++) {
                    x[i] = sigma * r.standardNormal();
                }
                for (int j = 0; j < k; j++) {
                    double c = Math.sqrt(lambda[j]) * (r.nextBoolean() ? 1 : -1);
                    for (int i = 0; i < d; i++) {
                        x[i] += c * v.get(i, j);
                    }
                }
            }
            return new Spiked(rows, v, lambda, sigma);
        }

        /**
         * Captured-variance ratio tr(UᵀΣU)/Σ_{j≤k} λ_j(Σ) against the population Σ = VΛVᵀ + σ²I
         * (spec stochastic-and-power-methods.md §4 item 1; a private helper until SubspaceMetrics lands).
         */
        double capturedVarianceRatio(Matrix u) {
            int k = u.cols();
            double num = sigma * sigma * k;
            double den = 0;
            for (int l = 0; l < lambda.length; l++) {
                double[] proj = u.transposeTimes(v.column(l));
                double sq = 0;
                for (double p : proj) {
                    sq += p * p;
                }
                num += lambda[l] * sq;
            }
            for (int j = 0; j < k; j++) {
                den += (j < lambda.length ? lambda[j] : 0) + sigma * sigma;
            }
            return num / den;
        }
    }

    @Test
    void capturesMostOfTheVarianceOfASpikedModelAtEpsilonOne() {
        int n = 100_000;
        int d = 50;
        double[] lambda = {10, 5};
        double sigma = 0.5;
        Spiked data = Spiked.generate(n, d, lambda, sigma, 20261123L);
        // Clip bound from the model, not the data (spec §2.7): β = √λ₁ + σ√(d ln(n/ζ)), ζ = 0.01,
        // a high-probability bound on ‖x‖ (‖signal‖ ≤ √(λ₁+λ₂) ≈ 3.9, ‖z‖ concentrates at σ√d ≈ 3.5).
        double beta = Math.sqrt(lambda[0]) + sigma * Math.sqrt(d * Math.log(n / 0.01));
        RowSource rows = InMemoryRows.of(data.rows()).clipL2(beta);
        PrivateSubspace fit = AnalyzeGauss.builder().components(2)
                .randomSource(RandomSource.seededForReproducibility(7)).build().fit(rows, BUDGET);
        // With β ≈ 17.4 the noise has per-entry σ_E ≈ 1.1e3–1.5e3, spectral norm ≈ 2σ_E√d ≈ 2e4, far
        // below the eigengap n(λ₂ + σ²) − nσ² = 5e5 between the spike and the bulk.
        assertThat(data.capturedVarianceRatio(fit.components())).isGreaterThan(0.9);
        assertThat(fit.diagnostics().get("clippedRows")).isEqualTo(0L);
        // explained variance: the noisy top eigenvalues, near n(λ_j + σ²) up to the noise's spectral norm
        double[] ev = fit.explainedVariance().orElseThrow();
        assertThat(ev[0]).isCloseTo(n * (lambda[0] + sigma * sigma), within(0.05 * n * lambda[0]));
        assertThat(ev[1]).isCloseTo(n * (lambda[1] + sigma * sigma), within(0.05 * n * lambda[0]));
    }

    @Test
    void utilityCollapsesWhenTheNoiseSwampsTheSignal() {
        // the same model at ε = 1e-4: σ_E ≈ 1e7 ≫ the eigengap, so the ratio falls towards k/d-level
        Spiked data = Spiked.generate(20_000, 50, new double[] {10, 5}, 0.5, 99L);
        RowSource rows = InMemoryRows.of(data.rows()).clipL2(17.4);
        PrivateSubspace fit = AnalyzeGauss.builder().components(2)
                .randomSource(RandomSource.seededForReproducibility(8)).build()
                .fit(rows, PrivacyParams.of(1e-4, 1e-5));
        assertThat(data.capturedVarianceRatio(fit.components())).isLessThan(0.5);
    }

    @Test
    void componentsAreOrthonormal() {
        Spiked data = Spiked.generate(2_000, 12, new double[] {4}, 0.3, 5L);
        PrivateSubspace fit = AnalyzeGauss.builder().components(4)
                .randomSource(RandomSource.seededForReproducibility(9)).build()
                .fit(InMemoryRows.of(data.rows()).clipL2(3), BUDGET);
        Matrix u = fit.components();
        Matrix gram = u.transposeTimes(u);
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                assertThat(gram.get(i, j)).isCloseTo(i == j ? 1 : 0, within(1e-10));
            }
        }
        double[] ev = fit.explainedVariance().orElseThrow();
        for (int j = 1; j < ev.length; j++) {
            assertThat(ev[j]).isLessThanOrEqualTo(ev[j - 1]);
        }
    }

    @Test
    void guaranteeRecordsMechanismBudgetRelationAndSensitivity() {
        double beta = 2.0;
        RowSource rows = InMemoryRows.of(new double[][] {{1, 0, 0}, {0, 3, 0}, {0, 0, 1}}).clipL2(beta);
        PrivateSubspace fit = AnalyzeGauss.builder().components(1)
                .randomSource(RandomSource.seededForReproducibility(1)).build().fit(rows, BUDGET);
        PrivacyGuarantee g = fit.guarantee().orElseThrow();
        assertThat(g.mechanism()).contains("AnalyzeGauss").contains("DP-Gauss-1");
        assertThat(g.params()).isEqualTo(BUDGET);
        assertThat(g.neighbouring()).isEqualTo(Neighbouring.ADD_REMOVE_ROW);
        assertThat(g.privacyUnit()).contains("one row").contains("2.0");
        assertThat(g.sensitivity()).contains("4.0");
        assertThat(g.reference()).contains("Dwork").contains("Algorithm 1").doesNotContain("spec").doesNotContain(".txt");
        assertThat((double) fit.diagnostics().get("sigma"))
                .isCloseTo(GaussianNoise.sigmaFor(beta * beta, BUDGET), within(1e-12));
        assertThat(fit.diagnostics().get("rows")).isEqualTo(3L);
        assertThat(fit.diagnostics().get("clippedRows")).isEqualTo(1L);
        assertThat(fit.algorithm()).isEqualTo("analyze-gauss");
    }

    @Test
    void replaceRowCalibratesToRootTwoBetaSquared() {
        AnalyzeGauss replace = AnalyzeGauss.builder().components(1).neighbouring(Neighbouring.REPLACE_ROW).build();
        AnalyzeGauss addRemove = AnalyzeGauss.builder().components(1).build();
        assertThat(replace.sigma(3, BUDGET)).isCloseTo(GaussianNoise.sigmaFor(Math.sqrt(2) * 9, BUDGET), within(1e-9));
        assertThat(addRemove.sigma(3, BUDGET)).isCloseTo(GaussianNoise.sigmaFor(9, BUDGET), within(1e-9));
    }

    @Test
    void classicCalibrationIsNeverBelowTheAnalyticOne() {
        AnalyzeGauss classic = AnalyzeGauss.builder().components(1).calibration(GaussianCalibration.CLASSIC).build();
        for (double eps : new double[] {0.1, 0.5, 1, 2, 4}) {
            PrivacyParams p = PrivacyParams.of(eps, 1e-5);
            assertThat(classic.sigma(1, p)).isGreaterThanOrEqualTo(GaussianNoise.sigmaFor(1, p) * (1 - 1e-12));
        }
        assertThat(classic.sigma(1, PrivacyParams.of(0.5, 1e-5)))
                .isCloseTo(Math.sqrt(2 * Math.log(1.25 / 1e-5)) / 0.5, within(1e-12));
    }

    @Test
    void moreComponentsThanColumnsAreRejected() {
        RowSource rows = InMemoryRows.of(new double[][] {{1, 0}, {0, 1}}).clipL2(1);
        AnalyzeGauss ag = AnalyzeGauss.builder().components(3).build();
        assertThatThrownBy(() -> ag.fit(rows, BUDGET)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("components k").hasMessageContaining("3");
    }

    @Test
    void rowsWithoutADeclaredBoundAreRejected() {
        RowSource rows = InMemoryRows.of(new double[][] {{1, 0}, {0, 1}});
        AnalyzeGauss ag = AnalyzeGauss.builder().components(1).build();
        assertThatThrownBy(() -> ag.fit(rows, BUDGET)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("norm bound").hasMessageContaining("clipL2");
    }

    @Test
    void zeroDeltaIsRejected() {
        RowSource rows = InMemoryRows.of(new double[][] {{1, 0}, {0, 1}}).clipL2(1);
        AnalyzeGauss ag = AnalyzeGauss.builder().components(1).build();
        assertThatThrownBy(() -> ag.fit(rows, PrivacyParams.pure(1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delta > 0");
    }

    @Test
    void missingComponentsAreRejectedAtBuild() {
        assertThatThrownBy(() -> AnalyzeGauss.builder().build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("components");
        assertThatThrownBy(() -> AnalyzeGauss.builder().components(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("components must be >= 1, got 0");
    }
}
