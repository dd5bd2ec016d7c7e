package io.dpspectra.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The measurement helpers the benchmarks share. */
class TimingTest {
    @Test
    void medianIsTheMiddleValueOrTheMeanOfTheMiddleTwoAndLeavesTheInputUnsorted() {
        double[] odd = {5, 1, 3};
        double[] even = {4, 1, 3, 2};
        assertThat(Timing.median(odd)).isEqualTo(3);
        assertThat(Timing.median(even)).isEqualTo(2.5);
        assertThat(odd).containsExactly(5, 1, 3);
        assertThat(even).containsExactly(4, 1, 3, 2);
    }

    @Test
    void bestSecondsRunsOneWarmUpPlusRepeatTimedRunsAndReturnsTheFastest() {
        AtomicInteger calls = new AtomicInteger();
        double best = Timing.bestSeconds(4, () -> {
            if (calls.incrementAndGet() == 3) {
                busyWait(50_000_000); // one slow run must not be the reported best
            }
        });
        assertThat(calls.get()).isEqualTo(5);
        assertThat(best).isGreaterThanOrEqualTo(0).isLessThan(0.05);
    }

    private static void busyWait(long nanos) {
        long t = System.nanoTime();
        while (System.nanoTime() - t < nanos) {
            Thread.onSpinWait();
        }
    }

    @Test
    void peakHeapCoversAnAllocationMadeAfterTheReset() {
        Timing.resetPeaks();
        long[] block = new long[4 << 20]; // 32 MB
        block[block.length - 1] = 1;
        assertThat(Timing.peakHeapBytes()).isGreaterThanOrEqualTo(8L * block.length);
    }
}
