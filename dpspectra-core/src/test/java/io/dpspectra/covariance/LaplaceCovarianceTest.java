package io.dpspectra.covariance;

import static io.dpspectra.covariance.CovarianceTestSupport.gram;
import static io.dpspectra.covariance.CovarianceTestSupport.rowsInBall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.LaplaceNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;
import org.junit.jupiter.api.Test;

class LaplaceCovarianceTest {
    private static final double BETA = 1.5;

    @Test
    void meanSquaredFrobeniusErrorMatchesTheLaplaceNoiseVariance() {
        // Unclamped release: Ĉ − C = Z, symmetric with Lap(b) on the upper triangle, so
        // E‖Z‖_F² = Σ_i 2b² + 2·Σ_{i<j} 2b² = 2b²d². Per draw Var‖Z‖_F² = 20b⁴·d(2d−1), i.e. a relative
        // sd of √(20d(2d−1))/(2d²) ≈ 0.16 at d = 20; over 60 repeats ≈ 0.02, so 0.1 is ≈ 5 sd.
        int d = 20;
        double[][] rows = rowsInBall(300, d, BETA, 1);
        Matrix exact = gram(rows);
        RowSource src = InMemoryRows.of(rows).clipL2(BETA);
        LaplaceCovariance mech = LaplaceCovariance.builder().clampEigenvalues(false)
                .randomSource(RandomSource.seededForReproducibility(2)).build();
        PrivacyParams budget = PrivacyParams.pure(2.0);
        double b = LaplaceNoise.scaleFor(2.0 * d * BETA * BETA, 2.0); // 2dβ²/ε (+ the sampler's rounding allowance)
        int repeats = 60;
        double sum = 0;
        for (int t = 0; t < repeats; t++) {
            PrivateCovariance c = mech.release(src, budget);
            assertThat((double) c.diagnostics().get("laplaceScale")).isCloseTo(b, within(1e-12));
            double f = c.matrix().minus(exact).frobeniusNorm();
            sum += f * f;
        }
        double expected = 2 * b * b * d * d;
        assertThat(sum / repeats / expected).isCloseTo(1.0, within(0.1));
    }

    @Test
    void releaseIsSymmetric() {
        double[][] rows = rowsInBall(50, 6, BETA, 3);
        PrivateCovariance c = LaplaceCovariance.builder().randomSource(RandomSource.seededForReproducibility(4))
                .build().release(InMemoryRows.of(rows).clipL2(BETA), PrivacyParams.pure(1));
        assertThat(CovarianceTestSupport.isSymmetric(c.matrix())).isTrue();
    }

    @Test
    void clampKeepsEigenvaluesInZeroToNBetaSquaredUnderReplaceRow() {
        int n = 40;
        double[][] rows = rowsInBall(n, 5, BETA, 5);
        for (int i = 0; i < n; i += 2) {
            rows[i] = new double[] {BETA, 0, 0, 0, 0}; // top eigenvalue near nβ²/2; noise pushes others < 0
        }
        PrivateCovariance c = LaplaceCovariance.builder().randomSource(RandomSource.seededForReproducibility(6))
                .build().release(InMemoryRows.of(rows).clipL2(BETA), PrivacyParams.pure(0.5));
        double top = n * BETA * BETA;
        for (double ev : c.eigenvalues()) {
            assertThat(ev).isBetween(-1e-9 * top, top * (1 + 1e-12));
        }
        assertThat((int) c.diagnostics().get("clampedEigenvalues")).isPositive();
    }

    @Test
    void tightSensitivityIsUsedWhenAsked() {
        int d = 4;
        double[][] rows = rowsInBall(10, d, BETA, 7);
        PrivateCovariance rep = LaplaceCovariance.builder().sensitivity(LaplaceCovariance.Sensitivity.TIGHT)
                .randomSource(RandomSource.seededForReproducibility(8)).build()
                .release(InMemoryRows.of(rows).clipL2(BETA), PrivacyParams.pure(1));
        assertThat((double) rep.diagnostics().get("laplaceScale"))
                .isCloseTo(LaplaceNoise.scaleFor(Math.sqrt(d * (d + 1.0)) * BETA * BETA, 1), within(1e-12));
        PrivateCovariance add = LaplaceCovariance.builder().sensitivity(LaplaceCovariance.Sensitivity.TIGHT)
                .neighbouring(Neighbouring.ADD_REMOVE_ROW).randomSource(RandomSource.seededForReproducibility(8))
                .build().release(InMemoryRows.of(rows).clipL2(BETA), PrivacyParams.pure(1));
        assertThat((double) add.diagnostics().get("laplaceScale")).isCloseTo(LaplaceNoise.scaleFor((d + 1) * BETA * BETA / 2, 1), within(1e-12));
        assertThat(add.guarantee().neighbouring()).isEqualTo(Neighbouring.ADD_REMOVE_ROW);
    }

    @Test
    void guaranteeIsPureEpsilonUnderReplaceRowByDefault() {
        PrivateCovariance c = LaplaceCovariance.builder().randomSource(RandomSource.seededForReproducibility(9))
                .build().release(InMemoryRows.of(rowsInBall(10, 3, BETA, 9)).clipL2(BETA), PrivacyParams.of(0.7, 1e-6));
        assertThat(c.guarantee().params()).isEqualTo(PrivacyParams.pure(0.7));
        assertThat(c.guarantee().neighbouring()).isEqualTo(Neighbouring.REPLACE_ROW);
        assertThat(c.guarantee().reference()).contains("baseline L").doesNotContain("spec");
        assertThat(c.guarantee().sensitivity()).contains("" + 2.0 * 3 * BETA * BETA);
        assertThat(c.algorithm()).isEqualTo("laplace-covariance");
    }

    @Test
    void rowsWithoutADeclaredBoundAreRejected() {
        LaplaceCovariance mech = LaplaceCovariance.builder().build();
        assertThatThrownBy(() -> mech.release(InMemoryRows.of(new double[][] {{1, 2}}), PrivacyParams.pure(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("norm bound");
    }
}
