package io.dpspectra.covariance;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.audit.PrivacyAuditor;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import org.junit.jupiter.api.Test;

/**
 * Audits the private trace with the empirical auditor, with a broken twin that must be caught.
 *
 * <p>REPLACE_ROW, B = 1, d = 2: D = {(0.6, 0.8), 0, 0, 0} and D' = {(0, 0), 0, 0, 0}: Σ‖x‖² moves by exactly
 * its sensitivity B² = 1, so the released trace faces the full privacy loss of a scalar Laplace mechanism
 * (pure ε = 1, 100,000 runs) or Gaussian mechanism ((1, 1e-3), 200,000 runs), at confidence 0.99, as in
 * PrivatePreprocessingAuditTest. The twins use half the noise (loss 2ε). The clamp at 0 is post-processing
 * and does not hide the loss (the two traces are 1 and 0, and the statistic's threshold lies above 0).
 */
class PrivateTraceAuditTest {
    private static final RowSource D = InMemoryRows.of(new double[][] {{0.6, 0.8}, {0, 0}, {0, 0}, {0, 0}}).clipL2(1);
    private static final RowSource D_PRIME = InMemoryRows.of(new double[][] {{0, 0}, {0, 0}, {0, 0}, {0, 0}}).clipL2(1);

    private static PrivacyAuditor.Result audit(PrivacyParams claimed, double multiplier, int trials, long seed) {
        PrivacyAuditor auditor = PrivacyAuditor.builder().trials(trials).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build();
        return auditor.audit(r -> PrivateTrace.of(Neighbouring.REPLACE_ROW, r).noiseMultiplierForAuditTests(multiplier)
                        .release(D, claimed).trace(),
                r -> PrivateTrace.of(Neighbouring.REPLACE_ROW, r).noiseMultiplierForAuditTests(multiplier)
                        .release(D_PRIME, claimed).trace(), claimed);
    }

    @Test
    void laplaceTraceHoldsItsClaimAndItsHalfNoiseTwinIsCaught() {
        PrivacyParams claimed = PrivacyParams.pure(1.0);
        PrivacyAuditor.Result ok = audit(claimed, 1.0, 100_000, 51);
        assertThat(ok.violation()).isFalse();
        assertThat(ok.epsilonLowerBound()).isGreaterThan(0.5); // the statistic sees the row
        assertThat(audit(claimed, 0.5, 100_000, 52).violation()).isTrue();
    }

    @Test
    void gaussianTraceHoldsItsClaimAndItsHalfNoiseTwinIsCaught() {
        PrivacyParams claimed = PrivacyParams.of(1.0, 1e-3);
        PrivacyAuditor.Result ok = audit(claimed, 1.0, 200_000, 53);
        assertThat(ok.violation()).isFalse();
        assertThat(ok.epsilonLowerBound()).isGreaterThan(0.1);
        assertThat(audit(claimed, 0.5, 200_000, 54).violation()).isTrue();
    }

    @Test
    void theTraceIsUnbiasedAroundTheSumOfSquaredNormsAndSaysItsSensitivity() {
        RowSource rows = InMemoryRows.of(new double[][] {{3, 4}, {1, 0}, {0, 2}}).clipL2(5);
        PrivateTrace t = PrivateTrace.of(Neighbouring.ADD_REMOVE_ROW, RandomSource.seededForReproducibility(7));
        double sum = 0;
        int runs = 2000;
        for (int i = 0; i < runs; i++) {
            sum += t.release(rows, PrivacyParams.pure(10.0)).trace();
        }
        // true trace 30; Laplace scale B^2/eps = 2.5: the mean of 2000 runs has sd 2.5*sqrt(2)/sqrt(2000) = 0.079
        // (tolerance 4 sd), and the clamp at 0 moves it by (2.5/2)*exp(-30/2.5) < 1e-5
        assertThat(sum / runs).isCloseTo(30, org.assertj.core.data.Offset.offset(0.32));
        assertThat(t.release(rows, PrivacyParams.of(1, 1e-6)).guarantee().sensitivity()).contains("B^2 = 25.0");
    }
}
