package io.dpspectra.covariance;

import static io.dpspectra.covariance.CovarianceTestSupport.gram;
import static io.dpspectra.covariance.CovarianceTestSupport.rowsInBall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;
import org.junit.jupiter.api.Test;

class GaussianCovarianceTest {
    private static final double BETA = 2.0;
    private static final PrivacyParams BUDGET = PrivacyParams.of(1.0, 1e-6);

    @Test
    void meanSquaredFrobeniusErrorMatchesTheGaussianNoiseVariance() {
        // Unclamped: E‖E‖_F² = σ²(d + 2·d(d−1)/2) = σ²d²; per draw Var = 2σ⁴·d(2d−1), relative sd ≈ 2/d
        // = 0.1 at d = 20; over 60 repeats ≈ 0.013, so 0.06 is ≈ 4.5 sd.
        int d = 20;
        double[][] rows = rowsInBall(300, d, BETA, 11);
        Matrix exact = gram(rows);
        RowSource src = InMemoryRows.of(rows).clipL2(BETA);
        GaussianCovariance mech = GaussianCovariance.builder().clampEigenvalues(false)
                .randomSource(RandomSource.seededForReproducibility(12)).build();
        double sigma = GaussianNoise.sigmaFor(Math.sqrt(2) * BETA * BETA, BUDGET);
        int repeats = 60;
        double sum = 0;
        for (int t = 0; t < repeats; t++) {
            PrivateCovariance c = mech.release(src, BUDGET);
            assertThat((double) c.diagnostics().get("sigma")).isCloseTo(sigma, within(1e-9 * sigma));
            double f = c.matrix().minus(exact).frobeniusNorm();
            sum += f * f;
        }
        assertThat(sum / repeats / (sigma * sigma * d * d)).isCloseTo(1.0, within(0.06));
    }

    @Test
    void addRemoveCalibratesToBetaSquared() {
        GaussianCovariance add = GaussianCovariance.builder().neighbouring(Neighbouring.ADD_REMOVE_ROW).build();
        GaussianCovariance rep = GaussianCovariance.builder().build();
        assertThat(add.sigma(BETA, BUDGET)).isCloseTo(GaussianNoise.sigmaFor(BETA * BETA, BUDGET), within(1e-9));
        assertThat(rep.sigma(BETA, BUDGET) / add.sigma(BETA, BUDGET)).isGreaterThan(1.3).isLessThan(1.5);
    }

    @Test
    void clampKeepsEigenvaluesInRangeAndReleaseSymmetric() {
        int n = 30;
        double[][] rows = new double[n][];
        for (int i = 0; i < n; i++) {
            rows[i] = new double[] {BETA, 0, 0}; // C = nβ² e₁e₁ᵀ: the top eigenvalue sits on the upper bound
        }
        for (long seed = 0; seed < 5; seed++) {
            PrivateCovariance c = GaussianCovariance.builder().randomSource(RandomSource.seededForReproducibility(seed))
                    .build().release(InMemoryRows.of(rows).clipL2(BETA), PrivacyParams.of(0.5, 1e-6));
            double top = n * BETA * BETA;
            for (double ev : c.eigenvalues()) {
                assertThat(ev).isBetween(-1e-9 * top, top * (1 + 1e-12));
            }
            assertThat(CovarianceTestSupport.isSymmetric(c.matrix())).isTrue();
            assertThat(c.topK(1).guarantee()).contains(c.guarantee());
        }
    }

    @Test
    void addRemoveClampHasNoUpperBound() {
        double[][] rows = {{BETA, 0}, {BETA, 0}};
        boolean aboveNBetaSquared = false;
        for (long seed = 0; seed < 20 && !aboveNBetaSquared; seed++) {
            PrivateCovariance c = GaussianCovariance.builder().neighbouring(Neighbouring.ADD_REMOVE_ROW)
                    .randomSource(RandomSource.seededForReproducibility(seed)).build()
                    .release(InMemoryRows.of(rows).clipL2(BETA), BUDGET);
            assertThat(c.eigenvalues()[1]).isGreaterThanOrEqualTo(-1e-9);
            aboveNBetaSquared = c.eigenvalues()[0] > 2 * BETA * BETA;
        }
        assertThat(aboveNBetaSquared).as("n is private under add/remove, so n*beta^2 must not cap the release").isTrue();
    }

    @Test
    void guaranteeNamesRelationSensitivityAndReference() {
        PrivateCovariance c = GaussianCovariance.builder().randomSource(RandomSource.seededForReproducibility(1))
                .build().release(InMemoryRows.of(rowsInBall(10, 3, BETA, 2)).clipL2(BETA), BUDGET);
        assertThat(c.guarantee().params()).isEqualTo(BUDGET);
        assertThat(c.guarantee().neighbouring()).isEqualTo(Neighbouring.REPLACE_ROW);
        assertThat(c.guarantee().sensitivity()).contains("" + Math.sqrt(2) * BETA * BETA);
        assertThat(c.guarantee().reference()).contains("Amin").contains("Section 5").doesNotContain("spec");
        assertThat(c.algorithm()).isEqualTo("gaussian-covariance");
    }

    @Test
    void zeroDeltaIsRejected() {
        GaussianCovariance mech = GaussianCovariance.builder().build();
        assertThatThrownBy(() -> mech.release(InMemoryRows.of(new double[][] {{1, 0}}).clipL2(1), PrivacyParams.pure(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delta > 0");
    }
}
