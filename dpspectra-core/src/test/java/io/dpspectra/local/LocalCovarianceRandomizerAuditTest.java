package io.dpspectra.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.audit.PrivacyAuditor;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import org.junit.jupiter.api.Test;

/**
 * Audits the client randomizer in the local model: the neighbouring "datasets" are two single records,
 * x = e₁ and x' = e₂ (p = 2), the pair that attains the upper-triangle sensitivity √2. The statistic
 * r₀₀ − r₁₁ of a report is N(±1, 2σ²): the projection onto the difference of the two means, so the
 * auditor faces a scalar Gaussian mechanism with exactly the sensitivity √2 the randomizer is calibrated
 * to. The broken twin draws σ/√2 while claiming σ: the paper's printed calibration (sensitivity 1).
 * Claim and trial counts as in AnalyzeGaussAuditTest, (1, 1e-3) and 200,000 runs. Measured: ε_lb ≈ 0.81 for
 * the randomizer and ≈ 1.30 for the twin (about 5 s per audit).
 */
class LocalCovarianceRandomizerAuditTest {
    private static final PrivacyParams CLAIMED = PrivacyParams.of(1.0, 1e-3);

    private static PrivacyAuditor.Trial trial(double[] record, double noiseMultiplier) {
        return r -> {
            LocalReport rep = LocalCovarianceRandomizer.builder().dimension(2).privacy(CLAIMED).randomSource(r)
                    .noiseMultiplierForAuditTests(noiseMultiplier).build().randomize(record);
            return rep.values()[LocalReport.index(0, 0)] - rep.values()[LocalReport.index(1, 1)];
        };
    }

    private static PrivacyAuditor.Result audit(double noiseMultiplier, long seed) {
        return PrivacyAuditor.builder().trials(200_000).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build()
                .audit(trial(new double[] {1, 0}, noiseMultiplier), trial(new double[] {0, 1}, noiseMultiplier),
                        CLAIMED);
    }

    @Test
    void randomizerIsNotFlaggedAtItsClaimedLocalGuarantee() {
        PrivacyAuditor.Result r = audit(1.0, 41);
        assertThat(r.violation()).isFalse();
        assertThat(r.epsilonLowerBound()).isGreaterThan(0.1); // the statistic does see the pair
    }

    @Test
    void randomizerWithThePapersSensitivityOneIsCaught() {
        PrivacyAuditor.Result r = audit(1 / Math.sqrt(2), 42);
        assertThat(r.violation()).isTrue();
    }
}
