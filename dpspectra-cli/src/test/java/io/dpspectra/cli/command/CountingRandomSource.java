package io.dpspectra.cli.command;

import io.dpspectra.noise.RandomSource;
import java.util.concurrent.atomic.AtomicLong;

/** Test support: a source that counts the random words drawn from it and from its splits. */
final class CountingRandomSource {
    private CountingRandomSource() {
    }

    /** {@code inner}, counting into {@code words} every word drawn from it and from its splits (bulk draws too). */
    static RandomSource counting(RandomSource inner, AtomicLong words) {
        return new RandomSource() {
            @Override
            public long nextLong() {
                words.incrementAndGet();
                return inner.nextLong();
            }

            @Override
            public void nextLongs(long[] w) {
                words.addAndGet(w.length);
                inner.nextLongs(w);
            }

            @Override
            public RandomSource split() {
                return counting(inner.split(), words);
            }

            @Override
            public boolean isSeeded() {
                return inner.isSeeded();
            }
        };
    }
}
