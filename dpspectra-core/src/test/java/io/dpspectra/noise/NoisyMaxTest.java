package io.dpspectra.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.audit.PrivacyAuditor;
import io.dpspectra.privacy.PrivacyParams;
import org.junit.jupiter.api.Test;

class NoisyMaxTest {
    /**
     * Two candidates with utilities 0 and −r and geometric noise of ratio p = e^(−1/t): the second wins iff
     * k₁ − r &gt; k₀ (the first wins ties), so P = Σ_a (1 − p)p^a·p^(a + r + 1) = p^(r + 1)/(1 + p).
     */
    @Test
    void theRunnerUpWinsWithTheExactGeometricProbability() {
        RandomSource random = RandomSource.seededForReproducibility(11);
        long t = NoisyMax.scale(3, 1.5); // ceil(6 / 1.5) = 4
        assertThat(t).isEqualTo(4);
        double p = Math.exp(-1.0 / t);
        for (long r : new long[] {0, 3, 10}) {
            int n = 200_000;
            int second = 0;
            for (int i = 0; i < n; i++) {
                second += NoisyMax.select(new long[] {0, -r}, 3, 1.5, random);
            }
            double expected = Math.pow(p, r + 1) / (1 + p);
            double sd = Math.sqrt(n * expected * (1 - expected));
            assertThat(Math.abs(second - n * expected)).as("r = " + r).isLessThan(5 * sd);
        }
    }

    @Test
    void aFarCandidateAlmostNeverWinsAndTiesGoToTheFirst() {
        RandomSource random = RandomSource.seededForReproducibility(12);
        int far = 0;
        for (int i = 0; i < 10_000; i++) {
            far += NoisyMax.select(new long[] {0, -400, -400}, 1, 1.0, random) > 0 ? 1 : 0; // t = 2: e^-200
        }
        assertThat(far).isZero();
        assertThat(NoisyMax.select(new long[] {NoisyMax.MAX_MAGNITUDE, NoisyMax.MAX_MAGNITUDE}, 1, 1e-9, random))
                .isBetween(0, 1);
    }

    @Test
    void badParametersAreRefusedWithTheirValue() {
        RandomSource random = RandomSource.seededForReproducibility(13);
        assertThatThrownBy(() -> NoisyMax.select(new long[0], 1, 1, random)).hasMessageContaining("at least one");
        assertThatThrownBy(() -> NoisyMax.select(new long[] {1}, 0, 1, random)).hasMessageContaining("got 0");
        assertThatThrownBy(() -> NoisyMax.select(new long[] {1}, 1, Double.NaN, random)).hasMessageContaining("NaN");
        assertThatThrownBy(() -> NoisyMax.select(new long[] {Long.MAX_VALUE}, 1, 1, random))
                .hasMessageContaining("clamp");
        assertThatThrownBy(() -> NoisyMax.scale(1L << 40, 1e-9)).hasMessageContaining("too small");
    }

    /**
     * Two candidates whose utilities move by the sensitivity in opposite directions (0, −1) → (−1, 0), Δ = 1:
     * the released index faces a loss of about ε. The statistic is the index. The twin claims Δ = 1 but
     * lets them move by 4 (a quarter of the noise it needs): loss about 4ε, caught.
     */
    @Test
    void holdsItsClaimAndItsQuarterNoiseTwinIsCaught() {
        PrivacyAuditor.Result ok = audit(1, 21);
        assertThat(ok.violation()).as("ok: %s", ok).isFalse();
        assertThat(ok.epsilonLowerBound()).isGreaterThan(0.5);
        PrivacyAuditor.Result broken = audit(4, 22);
        assertThat(broken.violation()).as("twin: %s", broken).isTrue();
    }

    /** The twin ({@code factor} = 4): utilities move by 4 units while the noise is calibrated to 1. */
    private static PrivacyAuditor.Result audit(long factor, long seed) {
        PrivacyAuditor auditor = PrivacyAuditor.builder().trials(100_000).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build();
        return auditor.audit(r -> NoisyMax.select(new long[] {0, -factor}, 1, 1.0, r),
                r -> NoisyMax.select(new long[] {-factor, 0}, 1, 1.0, r), PrivacyParams.pure(1.0));
    }
}
