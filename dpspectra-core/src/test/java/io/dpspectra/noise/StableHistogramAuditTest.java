package io.dpspectra.noise;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.audit.PrivacyAuditor;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Auditor tests of the tightened threshold 1 + b ln(1/(2δ)) (proof in {@link StableHistogram}). The pairs are the
 * proof's tight cases under replace-one: (4) a singleton moves from bin 0 to a fresh bin 5 (its release is the
 * whole δ), and (3) an item moves from a heavy bin to a fresh bin (the case that needs δ ≤ 1/2). The statistic
 * is the release pattern of the moved item's bins plus the heavy bin's noisy count, so the auditor sees both the
 * δ event and the Laplace part. The broken twin lowers the threshold by 2b (a singleton then releases with
 * probability e²·δ) and must be caught.
 */
class StableHistogramAuditTest {
    private static final PrivacyParams CLAIMED = PrivacyParams.of(1.0, 0.01);

    private static PrivacyAuditor.Trial trial(long[] bins, double shift) {
        return r -> {
            TreeMap<Long, Double> out = StableHistogram.withThresholdShiftForAuditTests(r, shift)
                    .release(bins, CLAIMED, Neighbouring.REPLACE_ROW);
            // code the output: bin 0 released -> +1000, bin 5 released -> -1000, plus bin 1's noisy count (or 0)
            return (out.containsKey(0L) ? 1000 : 0) - (out.containsKey(5L) ? 1000 : 0) + out.getOrDefault(1L, 0.0);
        };
    }

    private static long[] heavyPlus(long single, int heavy) {
        long[] b = new long[heavy + 1];
        java.util.Arrays.fill(b, 1L);
        b[heavy] = single;
        return b;
    }

    private static PrivacyAuditor.Result audit(long[] d, long[] dPrime, double shift, long seed) {
        return PrivacyAuditor.builder().trials(200_000).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build()
                .audit(trial(d, shift), trial(dPrime, shift), CLAIMED);
    }

    @Test
    void aSingletonMovingToAFreshBinIsNotFlagged() {
        assertThat(audit(heavyPlus(0, 30), heavyPlus(5, 30), 0, 71).violation()).isFalse();
    }

    @Test
    void anItemLeavingAHeavyBinForAFreshOneIsNotFlagged() {
        // D: bin 1 has 31 items; D': 30 items in bin 1 and one in the fresh bin 5
        PrivacyAuditor.Result r = audit(heavyPlus(1, 30), heavyPlus(5, 30), 0, 72);
        assertThat(r.violation()).isFalse();
        assertThat(r.epsilonLowerBound()).isGreaterThan(0.05);
    }

    @Test
    void aThresholdTwoScalesLowerIsCaught() {
        assertThat(audit(heavyPlus(0, 30), heavyPlus(5, 30), -2, 73).violation()).isTrue();
    }
}
