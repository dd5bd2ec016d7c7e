package io.dpspectra.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class StableHistogramTest {

    /**
     * Spec §6 worked example, PrivRange inside Alg. 2 at (0.5, 0.005): the tightened threshold 1 + b ln(1/(2δ)) is
     * 1 + 4 ln 100 = 19.42 (replace, b = 4) and 1 + 2 ln 100 = 10.21 (add/remove), b ln 4 below the classic 25.0 and
     * 13.0; δ is capped at 1/2 (threshold 1 for δ ≥ 1/2).
     */
    @Test
    void thresholdsAreTheTightenedOnes() {
        PrivacyParams p = PrivacyParams.of(0.5, 0.005);
        // b = scaleFor(2, 0.5) exceeds 4 only by the rounding allowance (relative <= 2^24 * 2^-43 / 0.5)
        assertThat(StableHistogram.threshold(p, Neighbouring.REPLACE_ROW)).isCloseTo(1 + 4 * Math.log(100), within(1e-4));
        assertThat(StableHistogram.threshold(p, Neighbouring.ADD_REMOVE_ROW)).isCloseTo(1 + 2 * Math.log(100), within(1e-4));
        assertThat(StableHistogram.threshold(PrivacyParams.of(1, 0.7), Neighbouring.REPLACE_ROW)).isCloseTo(1, within(1e-9));
    }

    @Test
    void aHeavyBinIsReleasedWithItsCountPlusLaplaceNoise() {
        StableHistogram h = new StableHistogram(RandomSource.seededForReproducibility(1));
        long[] bins = new long[1000];
        java.util.Arrays.fill(bins, 7);
        bins[0] = 3;
        bins[1] = StableHistogram.NO_BIN;
        double sum = 0;
        int runs = 2000;
        for (int i = 0; i < runs; i++) {
            TreeMap<Long, Double> r = h.release(bins, PrivacyParams.of(1, 1e-6), Neighbouring.REPLACE_ROW);
            assertThat(r.keySet()).containsExactly(7L); // the count-1 bin essentially never clears 1 + 2 ln(2e6)
            sum += r.get(7L);
        }
        // mean of 998 + Lap(2): standard error 2*sqrt(2)/sqrt(2000) = 0.063
        assertThat(sum / runs).isCloseTo(998, within(0.3));
    }

    /** An isolated item is released with probability δ = P(Lap(b) > b ln(1/(2δ))): the whole δ (class comment). */
    @Test
    void aSingletonBinIsReleasedWithProbabilityDelta() {
        StableHistogram h = new StableHistogram(RandomSource.seededForReproducibility(2));
        PrivacyParams p = PrivacyParams.of(1, 0.05);
        int hits = 0;
        int runs = 40_000;
        for (int i = 0; i < runs; i++) {
            hits += h.release(new long[] {5}, p, Neighbouring.REPLACE_ROW).size();
        }
        // expected 0.05; binomial sd sqrt(0.05*0.95/40000) = 0.0011
        assertThat(hits / (double) runs).isCloseTo(0.05, within(0.005));
    }

    @Test
    void emptyInputReleasesNothing() {
        StableHistogram h = new StableHistogram(RandomSource.seededForReproducibility(3));
        assertThat(h.release(new long[0], PrivacyParams.of(1, 1e-3), Neighbouring.REPLACE_ROW)).isEmpty();
        assertThat(StableHistogram.argmax(Map.of())).isEmpty();
    }

    @Test
    void argmaxBreaksTiesTowardsTheSmallestBin() {
        assertThat(StableHistogram.argmax(Map.of(4L, 10.0, 2L, 10.0, 9L, 3.0)).getAsLong()).isEqualTo(2L);
        assertThat(StableHistogram.argmax(Map.of(4L, 11.0, 2L, 10.0)).getAsLong()).isEqualTo(4L);
    }
}
