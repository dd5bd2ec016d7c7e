package io.dpspectra.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.audit.PrivacyAuditor;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import org.junit.jupiter.api.Test;

/**
 * Audits the private preprocessing steps (mean, quantile) and the private trace with the empirical
 * auditor, each with a broken twin that must be caught.
 *
 * <p>Private mean (REPLACE_ROW, B = 1, d = 1): D = {1, 0, 0, 0}, D' = {−1, 0, 0, 0}, the sum moves by
 * exactly its sensitivity 2B, so the statistic mean₀ faces the full privacy loss: a scalar Laplace
 * mechanism (pure ε = 1) or a scalar Gaussian mechanism ((1, 1e-3), as in AnalyzeGaussAuditTest, 200,000
 * runs at confidence 0.99). The twins use half the noise: loss 2ε.
 *
 * <p>Private quantile (ε = 1): 40 rows with norms 0.5, 1.5, …, 39.5 over the grid 1, 2, …, 41, q = 0.5;
 * D' replaces the row of norm 0.5 by one of norm 100, which moves every count by one and shifts the
 * peak of the utility by one grid step: the released index faces a loss of about ε/2 (the mechanism's
 * factor 2 covers the normaliser). The twin multiplies the exponent by 4 (loss about 2ε) and is caught.
 *
 * <p>Private trace (REPLACE_ROW, B = 1, d = 2): D = {(0.6, 0.8), 0, 0, 0}, D' = {0, 0, 0, 0}: Σ‖x‖² moves by
 * exactly its sensitivity B² = 1, a scalar Laplace or Gaussian mechanism facing its full loss, audited as
 * the mean; the twins use half the noise. The clamp at 0 is post-processing.
 */
class PrivatePreprocessingAuditTest {
    private static final RowSource MEAN_D = InMemoryRows.of(new double[][] {{1}, {0}, {0}, {0}}).clipL2(1);
    private static final RowSource MEAN_D_PRIME = InMemoryRows.of(new double[][] {{-1}, {0}, {0}, {0}}).clipL2(1);

    private static final RowSource TRACE_D = InMemoryRows.of(new double[][] {{0.6, 0.8}, {0, 0}, {0, 0}, {0, 0}})
            .clipL2(1);
    private static final RowSource TRACE_D_PRIME = InMemoryRows.of(new double[][] {{0, 0}, {0, 0}, {0, 0}, {0, 0}})
            .clipL2(1);

    /** A scalar statistic of a data set, drawn with the given randomness. */
    private interface Statistic {
        double of(RandomSource random, RowSource rows);
    }

    private static PrivacyAuditor.Result audit(Statistic s, RowSource d, RowSource dPrime, PrivacyParams claimed,
                                               int trials, long seed) {
        PrivacyAuditor auditor = PrivacyAuditor.builder().trials(trials).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build();
        return auditor.audit(r -> s.of(r, d), r -> s.of(r, dPrime), claimed);
    }

    /** The statistic of the mean (its first coordinate) or of the trace, with the noise scaled by {@code m}. */
    private static Statistic statistic(String which, PrivacyParams claimed, double m) {
        return which.equals("mean")
                ? (r, rows) -> PrivateBoundedMean.of(Neighbouring.REPLACE_ROW, r).noiseMultiplierForAuditTests(m)
                        .estimate(rows, claimed).mean()[0]
                : (r, rows) -> PrivateTrace.of(Neighbouring.REPLACE_ROW, r).noiseMultiplierForAuditTests(m)
                        .release(rows, claimed).trace();
    }

    /**
     * The mean and the trace, each with Laplace (pure ε = 1, 100,000 runs; the statistic sees the row:
     * lower bound above 0.5) and Gaussian noise ((1, 1e-3), 200,000 runs; above 0.1), hold their claim, and
     * their half-noise twins are caught.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"mean, 0, 100000, 0.5, 41", "mean, 1e-3, 200000, 0.1, 43",
        "trace, 0, 100000, 0.5, 51", "trace, 1e-3, 200000, 0.1, 53"})
    void holdsItsClaimAndItsHalfNoiseTwinIsCaught(String which, double delta, int trials, double seen, long seed) {
        PrivacyParams claimed = PrivacyParams.of(1.0, delta);
        RowSource d = which.equals("mean") ? MEAN_D : TRACE_D;
        RowSource dPrime = which.equals("mean") ? MEAN_D_PRIME : TRACE_D_PRIME;
        PrivacyAuditor.Result ok = audit(statistic(which, claimed, 1.0), d, dPrime, claimed, trials, seed);
        assertThat(ok.violation()).isFalse();
        assertThat(ok.epsilonLowerBound()).isGreaterThan(seen);
        assertThat(audit(statistic(which, claimed, 0.5), d, dPrime, claimed, trials, seed + 1).violation()).isTrue();
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

    private static RowSource quantileRows(double first) {
        double[][] x = new double[40][1];
        x[0][0] = first;
        for (int i = 1; i < 40; i++) {
            x[i][0] = i + 0.5;
        }
        return InMemoryRows.of(x);
    }

    private static PrivacyAuditor.Result auditQuantile(double multiplier, long seed) {
        double[] grid = new double[41];
        for (int i = 0; i < grid.length; i++) {
            grid[i] = i + 1;
        }
        PrivacyParams claimed = PrivacyParams.pure(1.0);
        RowSource d = quantileRows(0.5);
        RowSource dPrime = quantileRows(100);
        PrivacyAuditor auditor = PrivacyAuditor.builder().trials(100_000).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build();
        return auditor.audit(
                r -> PrivateQuantile.using(r).utilityMultiplierForAuditTests(multiplier)
                        .rowNormQuantile(d, 0.5, grid, claimed, Neighbouring.REPLACE_ROW).value(),
                r -> PrivateQuantile.using(r).utilityMultiplierForAuditTests(multiplier)
                        .rowNormQuantile(dPrime, 0.5, grid, claimed, Neighbouring.REPLACE_ROW).value(), claimed);
    }

    @Test
    void privateQuantileHoldsItsClaimAndItsFourfoldExponentTwinIsCaught() {
        PrivacyAuditor.Result ok = auditQuantile(1.0, 45);
        assertThat(ok.violation()).isFalse();
        assertThat(ok.epsilonLowerBound()).isGreaterThan(0.1);
        assertThat(auditQuantile(4.0, 46).violation()).isTrue();
    }
}
