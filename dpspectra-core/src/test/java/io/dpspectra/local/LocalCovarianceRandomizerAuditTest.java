package io.dpspectra.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.audit.PrivacyAuditor;
import io.dpspectra.covariance.GaussianCalibration;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import org.junit.jupiter.api.Test;

/**
 * Audits the client randomizer in the local model: the neighbouring "datasets" are two single records,
 * x = e₁ and x' = e₂ (p = 2), the pair that attains the upper-triangle sensitivity √2. The statistic
 * r₀₀ − r₁₁ of a report is N(±1, 2σ²): the projection onto the difference of the two means (the likelihood
 * ratio, so no other statistic of the report tells the pair apart better), so the auditor faces a scalar
 * Gaussian mechanism with exactly the sensitivity √2 the randomizer is calibrated to.
 *
 * <p>Two broken twins, each drawing a smaller σ while claiming the calibrated one:
 * <ul>
 *   <li>the analytic σ for sensitivity 1 (σ/√2 of ours): a tight calibration of the paper's sensitivity, caught at
 *       (1, 1e-3) with 200,000 runs (measured ε_lb ≈ 1.30; ours ≈ 0.81);</li>
 *   <li>the paper's printed σ = √(2 ln(1.25/δ))/ε (Wang &amp; Xu, Algorithm 1: the classic rule at sensitivity 1).
 *       The classic rule is loose, and its slack hides the missing √2 for small ε: at true sensitivity √2 it is
 *       still (ε, δ)-LDP up to ε ≈ 0.73 at δ = 1e-4 (1.25 at δ = 1e-3), and falls short above by a margin that
 *       grows with ε: true ε 1.04 at ε = 1, 2.30 at 2, 3.70 at 3 (δ = 1e-4, exact from the Gaussian privacy profile,
 *       checked below). A threshold audit's lower bound trails the true ε by its tail-estimation slack (measured
 *       with 200,000 runs per dataset at δ = 1e-4: ε_lb 0.71 at ε = 1, 1.18 at 2, 2.51 at 3, 3.48 at 4, 4.98 at
 *       6, none a violation), so the 4% shortfall at ε = 1 is beyond any audit of feasible size (about 1e7 runs
 *       would still give ε_lb ≈ 0.96); with 4,000,000 runs the twin is caught at ε = 3 (ε_lb 3.37) and at 4 (4.25),
 *       and at Fig. 3's ε = 0.5, where it is private, it is not flagged.</li>
 * </ul>
 * The 4,000,000-run audits take about 4 s of CPU each: the randomizer is built once per random stream, as a client
 * builds it once, and reports the same record again in every run.
 */
class LocalCovarianceRandomizerAuditTest {
    private static final PrivacyParams CLAIMED = PrivacyParams.of(1.0, 1e-3);

    private static PrivacyAuditor.Trial trial(PrivacyParams claimed, double[] record, double noiseMultiplier) {
        LocalCovarianceRandomizer[] built = new LocalCovarianceRandomizer[1];
        RandomSource[] stream = new RandomSource[1];
        return r -> {
            if (stream[0] != r) {
                stream[0] = r;
                built[0] = LocalCovarianceRandomizer.builder().dimension(2).privacy(claimed).randomSource(r)
                        .noiseMultiplierForAuditTests(noiseMultiplier).build();
            }
            LocalReport rep = built[0].randomize(record);
            return rep.values()[LocalReport.index(0, 0)] - rep.values()[LocalReport.index(1, 1)];
        };
    }

    private static PrivacyAuditor.Result audit(PrivacyParams claimed, double noiseMultiplier, int trials, long seed) {
        return PrivacyAuditor.builder().trials(trials).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build()
                .audit(trial(claimed, new double[] {1, 0}, noiseMultiplier),
                        trial(claimed, new double[] {0, 1}, noiseMultiplier), claimed);
    }

    /** The paper's σ = √(2 ln(1.25/δ))/ε as a multiple of ours (the analytic σ at sensitivity √2). */
    private static double papersSigmaOverOurs(PrivacyParams p) {
        return GaussianCalibration.classicSigma(1, p) / ReportParameters.calibratedSigma(p, 1, GaussianCalibration.ANALYTIC);
    }

    /** Whether the paper's σ is (ε, δ)-DP at the true sensitivity √2 (exact Gaussian privacy profile). */
    private static boolean papersSigmaIsPrivate(PrivacyParams p) {
        return GaussianNoise.deltaFor(GaussianCalibration.classicSigma(1, p), Math.sqrt(2), p.epsilon()) <= p.delta();
    }

    @Test
    void randomizerIsNotFlaggedAtItsClaimedLocalGuarantee() {
        PrivacyAuditor.Result r = audit(CLAIMED, 1.0, 200_000, 41);
        assertThat(r.violation()).isFalse();
        assertThat(r.epsilonLowerBound()).isGreaterThan(0.1); // the statistic does see the pair
    }

    @Test
    void tightCalibrationAtThePapersSensitivityOneIsCaught() {
        PrivacyAuditor.Result r = audit(CLAIMED, 1 / Math.sqrt(2), 200_000, 42);
        assertThat(r.violation()).isTrue();
    }

    @Test
    void thePapersPrintedSigmaIsPrivateBelowAboutPoint73AndShortAboveAtDeltaOneInTenThousand() {
        assertThat(papersSigmaIsPrivate(PrivacyParams.of(0.5, 1e-4))).as("Fig. 3's setting").isTrue();
        assertThat(papersSigmaIsPrivate(PrivacyParams.of(0.72, 1e-4))).isTrue();
        assertThat(papersSigmaIsPrivate(PrivacyParams.of(0.74, 1e-4))).isFalse();
        assertThat(papersSigmaIsPrivate(PrivacyParams.of(1.0, 1e-4))).isFalse();
        assertThat(papersSigmaIsPrivate(PrivacyParams.of(1.0, 1e-3))).as("private up to 1.25 at delta = 1e-3").isTrue();
        // at Fig. 3's (0.5, 1e-4) our sigma is about 4% below the paper's: calibration is not why its curves differ
        assertThat(papersSigmaOverOurs(PrivacyParams.of(0.5, 1e-4))).isBetween(1.03, 1.05);
    }

    @Test
    void thePapersPrintedSigmaIsNotFlaggedWhereItIsPrivate() {
        PrivacyParams figure3 = PrivacyParams.of(0.5, 1e-4);
        PrivacyAuditor.Result r = audit(figure3, papersSigmaOverOurs(figure3), 4_000_000, 43);
        assertThat(r.violation()).isFalse();
    }

    @Test
    void thePapersPrintedSigmaIsCaughtWhereItFallsShortByMoreThanTheAuditsSlack() {
        PrivacyParams p = PrivacyParams.of(3.0, 1e-4);
        assertThat(papersSigmaIsPrivate(p)).isFalse();
        PrivacyAuditor.Result r = audit(p, papersSigmaOverOurs(p), 4_000_000, 44);
        assertThat(r.violation()).isTrue();
    }
}
