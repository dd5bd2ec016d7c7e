package io.dpspectra.robust;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.audit.PrivacyAuditor;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import org.junit.jupiter.api.Test;

/**
 * Auditor tests for dp-GGD and dp-SGD-REAP on D = 2: the correct mechanism is not flagged at its claim, and a
 * broken twin (noise scaled down through the package-private hook) is caught. One row (N = 1), one iteration
 * from a fixed data-independent start, so the statistic is an (almost) affine function of the one Gaussian
 * release that everything else post-processes. 200,000 runs per dataset at confidence 0.99 for the twins (100,000 for the correct mechanisms).
 */
class RobustAuditTest {
    private static final PrivacyParams CLAIMED = PrivacyParams.of(1.0, 1e-3);
    private static final double A = 0.01;
    private static final double[][] PLUS = {{Math.cos(A), Math.sin(A)}};
    private static final double[][] MINUS = {{Math.cos(A), -Math.sin(A)}};

    private static PrivacyAuditor.Result audit(PrivacyAuditor.Trial d, PrivacyAuditor.Trial dPrime, long seed) {
        return audit(d, dPrime, seed, 200_000);
    }

    private static PrivacyAuditor.Result audit(PrivacyAuditor.Trial d, PrivacyAuditor.Trial dPrime, long seed, int trials) {
        return PrivacyAuditor.builder().trials(trials).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build().audit(d, dPrime, CLAIMED);
    }

    // ---- dp-GGD --------------------------------------------------------------------------------------

    /**
     * From V₀ = e1 the rows (cos a, ±sin a) have GLAD terms (0, ±cos a): the two one-row datasets' mean
     * directions differ by 2cos a ≈ 2 = 2/N, the calibrated replace-one sensitivity. With a tiny step η the
     * released V₁ = P_O(e1 + η(G + E)) has V₁[1]/V₁[0] = η(G₂ + E₂)/(1 + ηE₁); the statistic divides by η.
     */
    private static PrivacyAuditor.Trial dpGgdTrial(double[][] rows, double multiplier) {
        double eta = 1e-6;
        return random -> {
            Matrix v = GrassmannDescent.dpGgd().components(1).iterations(1).stepSize(eta)
                    .initialBasis(Matrix.fromColumns(new double[] {1, 0})).randomSource(random)
                    .noiseMultiplierForAuditTests(multiplier).build().fit(rows, CLAIMED).components();
            return v.get(1, 0) / v.get(0, 0) / eta;
        };
    }

    @Test
    void dpGgdIsNotFlaggedAtItsClaimedGuarantee() {
        PrivacyAuditor.Result r = audit(dpGgdTrial(PLUS, 1), dpGgdTrial(MINUS, 1), 51, 100_000);
        assertThat(r.violation()).isFalse();
        assertThat(r.epsilonLowerBound()).isGreaterThan(0.1);
    }

    @Test
    void dpGgdWithHalfTheNoiseIsCaught() {
        PrivacyAuditor.Result r = audit(dpGgdTrial(PLUS, 0.5), dpGgdTrial(MINUS, 0.5), 52);
        assertThat(r.violation()).isTrue();
    }

    // ---- dp-SGGD --------------------------------------------------------------------------------------

    /**
     * dp-SGGD at its default (PLD) noise, the replace-one worst case of Poisson subsampling: N = 2 rows, the
     * differing row (cos a, ±sin a) and e1, batch size B = 1 (q = 1/2), one step from V₀ = e1. The row e1 lies on V₀
     * and adds nothing, so the released direction's second coordinate is ±cos a (the row drawn, probability 1/2)
     * or 0, plus noise: the pair (1 − q)N(0, σ²) + qN(±1, σ²) that the calibration accounts exactly. The statistic is
     * as for dp-GGD.
     */
    private static PrivacyAuditor.Trial dpSggdTrial(double[][] row, double multiplier, NoiseCalibration calibration) {
        double eta = 1e-6;
        double[][] rows = {row[0], {1, 0}};
        return random -> {
            Matrix v = GrassmannDescent.dpSggd().calibration(calibration).components(1).iterations(1).batchSize(1)
                    .stepSize(eta).initialBasis(Matrix.fromColumns(new double[] {1, 0})).randomSource(random)
                    .noiseMultiplierForAuditTests(multiplier).build().fit(rows, CLAIMED).components();
            return v.get(1, 0) / v.get(0, 0) / eta;
        };
    }

    private static double sigma(NoiseCalibration calibration) {
        double[][] rows = {PLUS[0], {1, 0}};
        return (double) GrassmannDescent.dpSggd().calibration(calibration).components(1).iterations(1).batchSize(1)
                .initialBasis(Matrix.fromColumns(new double[] {1, 0})).randomSource(RandomSource.seededForReproducibility(1))
                .build().fit(rows, CLAIMED).diagnostics().get("sigma");
    }

    @Test
    void dpSggdIsNotFlaggedAtItsNewSmallerNoise() {
        // the exact replace-one accounting needs much less noise than the Renyi accountant with group privacy
        double pld = sigma(NoiseCalibration.PLD);
        double rdp = sigma(NoiseCalibration.RDP_POISSON);
        assertThat(pld).isLessThan(0.8 * rdp);
        PrivacyAuditor.Result r = audit(dpSggdTrial(PLUS, 1, NoiseCalibration.PLD),
                dpSggdTrial(MINUS, 1, NoiseCalibration.PLD), 55, 100_000);
        assertThat(r.violation()).isFalse();
        assertThat(r.epsilonLowerBound()).isGreaterThan(0.1);
    }

    @Test
    void dpSggdWithHalfTheNoiseIsCaught() {
        PrivacyAuditor.Result r = audit(dpSggdTrial(PLUS, 0.5, NoiseCalibration.PLD),
                dpSggdTrial(MINUS, 0.5, NoiseCalibration.PLD), 56);
        assertThat(r.violation()).isTrue();
    }

    // ---- dp-SGD-REAP ---------------------------------------------------------------------------------

    /**
     * From P₀ = e1e1ᵀ, one row (B = N = 1, Poisson rate 1): the rows (cos a, ±sin a) have subgradients with
     * off-diagonal entries ∓cos(a)/2 and equal diagonals, so the noisy upper-triangle releases differ by cos a ≈ 1
     * in one coordinate. That is half of what the calibration covers (a replacement moves a batch sum of
     * Frobenius-bounded terms by up to 2; REAPER's upper triangle cannot reach it), so the twin takes a quarter
     * of the noise. The statistic is V[1]/V[0]/η of the released top eigenvector of P̄ = P₁, to first order an
     * affine function of that coordinate (P₁ = Π(P₀ − ηĜ) moves the off-diagonal by −ηĜ₁₂).
     */
    private static PrivacyAuditor.Trial sgdReapTrial(double[][] rows, double multiplier) {
        double eta = 1e-6;
        Matrix p0 = new Matrix(2, 2);
        p0.set(0, 0, 1);
        return random -> {
            Matrix v = Reaper.dpSgdReap().components(1).iterations(1).batchSize(1).stepSize(eta)
                    .startForAuditTests(p0).randomSource(random).noiseMultiplierForAuditTests(multiplier).build()
                    .fit(rows, CLAIMED).components();
            return v.get(1, 0) / v.get(0, 0) / eta;
        };
    }

    @Test
    void dpSgdReapIsNotFlaggedAtItsClaimedGuarantee() {
        PrivacyAuditor.Result r = audit(sgdReapTrial(PLUS, 1), sgdReapTrial(MINUS, 1), 53, 100_000);
        assertThat(r.violation()).isFalse();
        assertThat(r.epsilonLowerBound()).isGreaterThan(0.05);
    }

    @Test
    void dpSgdReapWithAQuarterOfTheNoiseIsCaught() {
        PrivacyAuditor.Result r = audit(sgdReapTrial(PLUS, 0.25), sgdReapTrial(MINUS, 0.25), 54);
        assertThat(r.violation()).isTrue();
    }
}
