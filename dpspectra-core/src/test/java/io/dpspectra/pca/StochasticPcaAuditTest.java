package io.dpspectra.pca;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.audit.PrivacyAuditor;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.util.OptionalLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Auditor tests for the stochastic and minibatch mechanisms: each correct mechanism is not flagged at its claim, and a
 * broken twin (noise scaled down through the package-private hook) is caught. Each pair of datasets is
 * chosen to attain the sensitivity the noise is calibrated to, and each statistic is a function of a
 * released value (or of the Gaussian release that everything else post-processes), as in
 * AnalyzeGaussAuditTest. 200,000 runs per dataset at confidence 0.99, as there.
 */
class StochasticPcaAuditTest {
    private static final PrivacyParams CLAIMED = PrivacyParams.of(1.0, 1e-3);

    private static PrivacyAuditor.Result audit(PrivacyAuditor.Trial d, PrivacyAuditor.Trial dPrime,
                                               PrivacyParams claimed, long seed, int trials) {
        return PrivacyAuditor.builder().trials(trials).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build().audit(d, dPrime, claimed);
    }

    // ---- DP-Oja ------------------------------------------------------------------------------------

    /** A general PSD sample A = g gᵀ/(g·w) with A w = g for w = e1 (its gradient at the start is g). */
    private static AiSource oneSample(double[] g) {
        double gw = g[0];
        return new AiSource() {
            @Override
            public int dimension() {
                return 2;
            }

            @Override
            public OptionalLong knownSize() {
                return OptionalLong.of(1);
            }

            @Override
            public double traceBound() {
                return Double.NaN;
            }

            @Override
            public Cursor open() {
                SampleMatrix a = new SampleMatrix() {
                    @Override
                    public int dimension() {
                        return 2;
                    }

                    @Override
                    public void times(double[] w, double[] out) {
                        double c = (g[0] * w[0] + g[1] * w[1]) / gw;
                        out[0] = c * g[0];
                        out[1] = c * g[1];
                    }

                    @Override
                    public double trace() {
                        return (g[0] * g[0] + g[1] * g[1]) / gw;
                    }
                };
                return new Cursor() {
                    boolean done;

                    @Override
                    public SampleMatrix next() {
                        if (done) {
                            return null;
                        }
                        done = true;
                        return a;
                    }

                    @Override
                    public void close() {
                    }
                };
            }
        };
    }

    /**
     * DP-Oja with B = 1 from the start w0 = e1, one step with a tiny constant η: the released w1 satisfies
     * w1[1]/w1[0] = η(ḡ₂ + z₂)/(1 + η(ḡ₁ + z₁)), practically η(ḡ₂ + z₂). The two samples have gradients
     * (0.05, ±0.9987) of norm β = 1, so the clipped means differ by 1.997 ≈ 2β, the calibrated sensitivity.
     */
    private static PrivacyAuditor.Trial dpOjaTrial(double sign, double multiplier) {
        double s = Math.sqrt(1 - 0.05 * 0.05);
        AiSource source = oneSample(new double[] {0.05, sign * s});
        DpOja oja = DpOja.builder().batchSize(1).clipThreshold(1).learningRate(LearningRate.constant(1e-4))
                .startVectorForAuditTests(new double[] {1, 0}).noiseMultiplierForAuditTests(multiplier).build();
        return r -> {
            Matrix u = Deflation.run(source, 1, 1, oja, CLAIMED, r).basis();
            return u.get(1, 0) / u.get(0, 0);
        };
    }

    @Test
    void dpOjaIsNotFlaggedAtItsClaimedGuarantee() {
        PrivacyAuditor.Result r = audit(dpOjaTrial(1, 1), dpOjaTrial(-1, 1), CLAIMED, 41, 200_000);
        assertThat(r.violation()).isFalse();
        assertThat(r.epsilonLowerBound()).isGreaterThan(0.1);
    }

    @Test
    void dpOjaWithHalfTheNoiseIsCaught() {
        PrivacyAuditor.Result r = audit(dpOjaTrial(1, 0.5), dpOjaTrial(-1, 0.5), CLAIMED, 42, 200_000);
        assertThat(r.violation()).isTrue();
    }

    // ---- PrivMean ----------------------------------------------------------------------------------

    private static final PrivacyParams MEAN_CLAIM = PrivacyParams.of(1.0, 1e-2);

    /**
     * d = 1, N = 200: 199 zeros (their bin is always released: count 199 against a threshold of ≈ 133) and one
     * extreme value ∓10⁶, clamped to centre ∓ r, so the clamped means differ by exactly 2r/N, the calibrated
     * sensitivity. The extreme values' own bins (count 1) release only with probability δ_h/4.
     */
    private static PrivacyAuditor.Trial privMeanTrial(double extreme, double multiplier) {
        double[][] g = new double[200][1];
        g[199][0] = extreme;
        HistogramClampedMean mean = HistogramClampedMean.defaults().withNoiseMultiplierForAuditTests(multiplier);
        return r -> mean.estimate(g, 200, 1.0, MEAN_CLAIM, 0.5, r).mean()[0];
    }

    @Test
    void privMeanIsNotFlaggedAtItsClaimedGuarantee() {
        PrivacyAuditor.Result r = audit(privMeanTrial(-1e6, 1), privMeanTrial(1e6, 1), MEAN_CLAIM, 43, 100_000);
        assertThat(r.violation()).isFalse();
        assertThat(r.epsilonLowerBound()).isGreaterThan(0.05);
    }

    /**
     * The twin takes a fifth of σ_M. Halving it is NOT a violation for this (or any) pair: the Gaussian step only
     * holds half the budget, (ε/2, δ/2) with the classic calibration, and σ_M/2 is still about the classic σ for
     * (ε, δ/2); the histogram half cannot be exercised by the same pair. At σ/4 the auditor's 99% lower bound
     * sits right at the claim (0.95–1.09 over seeds 44–49: caught half the time), at σ/5 it is 1.28–1.44 on all
     * six seeds, so σ/5 is the twin that must be caught.
     */
    @Test
    void privMeanWithAFifthOfTheNoiseIsCaught() {
        PrivacyAuditor.Result r = audit(privMeanTrial(-1e6, 0.2), privMeanTrial(1e6, 0.2), MEAN_CLAIM, 44, 100_000);
        assertThat(r.violation()).isTrue();
    }

    // ---- DP-Gauss-2 --------------------------------------------------------------------------------

    private static final RowSource GAP_D = rows(60, 20, false);
    private static final RowSource GAP_D_PRIME = rows(60, 20, true);

    private static RowSource rows(int a, int b, boolean extra) {
        double[][] r = new double[a + b + (extra ? 1 : 0)][];
        for (int i = 0; i < r.length; i++) {
            r[i] = i < a ? new double[] {1, 0} : new double[] {0, 1};
        }
        return InMemoryRows.of(r).clipL2(1);
    }

    /**
     * Add/remove pair: D' has one more row e2, which lowers the normalised gap μ1 − μ2 = 60 − 20 by exactly 1,
     * the largest change of a gap of a PSD sum under one added unit row (Weyl). The released noise level Δ₂ is
     * a function of the noisy gap ĝ; the statistic is 1/Δ₂, affine in ĝ. A refusal (the noisy gap below the
     * threshold) is an output too, a function of the same ĝ: it maps to 0, below every 1/Δ₂ &gt; 0.
     */
    private static PrivacyAuditor.Trial gaussTwoTrial(RowSource rows, double multiplier) {
        return r -> {
            PrivateSubspace s;
            try {
                s = GaussOutputPerturbation.builder().components(1).randomSource(r)
                        .noiseMultiplierForAuditTests(multiplier).build().fit(rows, CLAIMED);
            } catch (io.dpspectra.privacy.ReleaseRefusedException refused) {
                assertThat(refused).hasMessageContaining("refused to release");
                return 0.0;
            }
            return multiplier / (Double) s.diagnostics().get("projectorSigma");
        };
    }

    @Test
    void gaussOutputPerturbationIsNotFlaggedAtItsClaimedGuarantee() {
        PrivacyAuditor.Result r = audit(gaussTwoTrial(GAP_D, 1), gaussTwoTrial(GAP_D_PRIME, 1), CLAIMED, 45, 100_000);
        assertThat(r.violation()).isFalse();
        assertThat(r.epsilonLowerBound()).isGreaterThan(0.05);
    }

    /**
     * The twin quarters the noise. The Laplace scale 2/ε is calibrated to a gap sensitivity of 2 while one
     * added row moves the gap by at most 1, so halving only reaches ε and is not a violation; a quarter is.
     */
    @Test
    void gaussOutputPerturbationWithAQuarterOfTheNoiseIsCaught() {
        PrivacyAuditor.Result r = audit(gaussTwoTrial(GAP_D, 0.25), gaussTwoTrial(GAP_D_PRIME, 0.25), CLAIMED, 46,
                100_000);
        assertThat(r.violation()).isTrue();
    }

    // ---- DP-Power-Method ---------------------------------------------------------------------------

    private static final RowSource POWER_D = InMemoryRows.of(new double[][] {{0, 0}, {0, 0}}).clipL2(1);
    private static final RowSource POWER_D_PRIME = InMemoryRows.of(new double[][] {{0, 0}, {0, 0}, {1, 0}}).clipL2(1);

    /**
     * The Gaussian release Y = X q + G of one iteration from q = e1 (QR and later iterations are
     * post-processing), with β = α₁ = 1: the added row e1 moves Y₀₀ by α₁β‖q‖_∞ = 1, the calibrated sensitivity.
     * σ_HP = √(4 ln(1/δ))/ε comes from a zCDP conversion that is loose: at (1, 1e-3) even the twin with σ_HP/2
     * is truly (0.98, 1e-3)-DP, so halving is no violation there. At the claim (4, 1e-2) used here the correct
     * release is about (2.1, 1e-2)-DP for this pair and the σ_HP/2 twin about (5.4, 1e-2) (Balle–Wang's exact
     * δ(ε) of the Gaussian), which 10⁶ runs (≈ 10 s, a 2 × 2 product each) resolve.
     */
    private static final PrivacyParams POWER_CLAIM = PrivacyParams.of(4, 1e-2);

    private static PrivacyAuditor.Trial powerTrial(RowSource rows, double multiplier) {
        Matrix q = Matrix.fromColumns(new double[] {1, 0});
        return r -> ClippedPowerMethod.builder().components(1).iterations(1).l1Bound(1).randomSource(r)
                .noiseMultiplierForAuditTests(multiplier).build().noisyProductForAuditTests(rows, POWER_CLAIM, q).get(0, 0);
    }

    @Test
    @Tag("slow")
    void clippedPowerMethodIsNotFlaggedAtItsClaimedGuarantee() {
        PrivacyAuditor.Result r = audit(powerTrial(POWER_D, 1), powerTrial(POWER_D_PRIME, 1), POWER_CLAIM, 47, 1_000_000);
        assertThat(r.violation()).isFalse();
        assertThat(r.epsilonLowerBound()).isGreaterThan(0.1);
    }

    @Test
    @Tag("slow")
    void clippedPowerMethodWithHalfTheNoiseIsCaught() {
        PrivacyAuditor.Result r = audit(powerTrial(POWER_D, 0.5), powerTrial(POWER_D_PRIME, 0.5), POWER_CLAIM, 48, 1_000_000);
        assertThat(r.violation()).isTrue();
    }

    /** The claim in 100,000 runs, for the default build (the 10⁶-run audits above are tagged slow). */
    @Test
    void clippedPowerMethodIsNotFlaggedInAShortAudit() {
        PrivacyAuditor.Result r = audit(powerTrial(POWER_D, 1), powerTrial(POWER_D_PRIME, 1), POWER_CLAIM, 147, 100_000);
        assertThat(r.violation()).isFalse();
        assertThat(r.epsilonLowerBound()).isGreaterThan(0.1);
    }

    /** A twin with a tenth of the noise, far beyond (4, 1e-2), caught in 100,000 runs (the default build's twin). */
    @Test
    void clippedPowerMethodWithATenthOfTheNoiseIsCaughtInAShortAudit() {
        PrivacyAuditor.Result r = audit(powerTrial(POWER_D, 0.1), powerTrial(POWER_D_PRIME, 0.1), POWER_CLAIM, 148, 100_000);
        assertThat(r.violation()).isTrue();
    }

}
