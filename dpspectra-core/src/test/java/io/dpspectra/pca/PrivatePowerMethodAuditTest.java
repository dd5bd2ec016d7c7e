package io.dpspectra.pca;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.audit.PrivacyAuditor;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricOperator;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import org.junit.jupiter.api.Test;

/**
 * Audits the entry-level private power method (Fig. 3) on 2 × 2 matrices that differ in one entry by 1:
 * A = [[a, M], [M, 0]] with a = 0 (D) or a = 1 (D'), p = k = 1, L = 1 and the fixed, data-independent start
 * X_0 = e_1, so ‖X_0‖∞ = 1 and Y_1 = (a + g_0, M + g_1) with g ~ N(0, σ²). The release X_1 = Y_1/‖Y_1‖ gives
 * the statistic M·X_1[0]/X_1[1] = (a + g_0)·M/(M + g_1), which is a + g_0 up to a relative 1e-4 (M = 10⁴ ≫ σ):
 * a scalar Gaussian mechanism with sensitivity 1 = ‖X_0‖∞, the worst case of the entry-level relation.
 *
 * <p>Why (ε, δ) = (4, 0.01): the paper's σ = ε⁻¹√(4pL ln(1/δ)) is conservative (it goes through zCDP, spec
 * §3.3), so at small ε even half the noise stays below the claim (ε = 1, δ = 1e-3: true ε ≈ 0.43, half
 * noise ≈ 0.98). Near the calibration's limit ε ≤ 2.34 ln(1/δ) the quadratic zCDP term dominates and half
 * the noise is far beyond it: at (4, 0.01) the exact ε of the correct mechanism is 2.11 and of the twin
 * 5.43 (analytic Gaussian). Simulated best threshold tests with 100,000 evaluation runs reach about 1.96
 * and 4.65 respectively.
 */
class PrivatePowerMethodAuditTest {
    private static final PrivacyParams CLAIMED = PrivacyParams.of(4.0, 0.01);
    private static final double M = 1e4;
    private static final Matrix X0 = Matrix.fromColumns(new double[] {1, 0});

    private static PrivacyAuditor.Trial trial(double a, double noiseMultiplier) {
        SymmetricOperator op = SymmetricOperator.dense(Matrix.fromRows(new double[][] {{a, M}, {M, 0}}));
        return r -> {
            PowerMethodResult res = PrivatePowerMethod.builder().components(1).iterations(1).initialBasis(X0)
                    .randomSource(r).noiseMultiplierForAuditTests(noiseMultiplier).build().iterate(op, CLAIMED);
            Matrix x = res.basis();
            return M * x.get(0, 0) / x.get(1, 0);
        };
    }

    private static PrivacyAuditor.Result audit(double noiseMultiplier, long seed) {
        return PrivacyAuditor.builder().trials(200_000).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build()
                .audit(trial(0, noiseMultiplier), trial(1, noiseMultiplier), CLAIMED);
    }

    @Test
    void privatePowerMethodIsNotFlaggedAtItsClaimedEntryLevelGuarantee() {
        PrivacyAuditor.Result r = audit(1.0, 41);
        assertThat(r.violation()).isFalse();
        assertThat(r.epsilonLowerBound()).isGreaterThan(1.0); // the statistic does see the changed entry
    }

    @Test
    void privatePowerMethodWithHalfTheNoiseIsCaught() {
        PrivacyAuditor.Result r = audit(0.5, 42);
        assertThat(r.violation()).isTrue();
    }
}
