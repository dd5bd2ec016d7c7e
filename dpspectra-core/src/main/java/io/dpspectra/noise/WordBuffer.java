package io.dpspectra.noise;

/**
 * A {@link RandomSource} that hands out random words from a buffer refilled in bulk, for ONE thread.
 *
 * <p>Two uses: {@link SecureRandomSource} keeps its AES keystream in one (and guards it with its lock),
 * and {@link #over(RandomSource)} gives a thread-confined view of any source, so that a worker drawing
 * millions of noise values takes the source's lock once per {@value #WORDS} words instead of once per
 * word (and, with the secure source, receives the keystream without a copy). Words a view has buffered but not used are discarded: discarding uniform words biases nothing.
 *
 * <p>{@link #nextBoolean()} and power-of-two bounds up to 2⁸ take bits of a cached word instead of a
 * whole word (the exact discrete samplers ask for such bounds in their inner loops), and a bound of 1
 * takes none. Not thread-safe.
 */
abstract class WordBuffer implements RandomSource {
    /** Words per refill of a view: 16 KiB, one block of the secure source's keystream. */
    static final int WORDS = 2048;

    private final long[] words;
    private int position;
    private long bits;
    private int bitsLeft;

    WordBuffer(int size) {
        words = new long[size];
        position = size;
    }

    /** Overwrites every element of {@code words} with fresh uniformly random words. */
    abstract void refill(long[] words);

    /** A thread-confined buffered view of {@code source}; splits and seededness are the source's. */
    static RandomSource over(RandomSource source) {
        return new WordBuffer(WORDS) {
            @Override
            void refill(long[] words) {
                source.nextLongs(words);
            }

            @Override
            public RandomSource split() {
                return source.split();
            }

            @Override
            public boolean isSeeded() {
                return source.isSeeded();
            }
        };
    }

    @Override
    public long nextLong() {
        if (position == words.length) {
            refill(words);
            position = 0;
        }
        return words[position++];
    }

    /** The buffered words first, then whole refills straight into {@code out}, then a refill for the rest. */
    @Override
    public void nextLongs(long[] out) {
        int n = out.length;
        int from = Math.min(n, words.length - position);
        System.arraycopy(words, position, out, 0, from);
        position += from;
        if (from == 0 && n == words.length) {
            refill(out); // an empty buffer and an array of exactly one refill: no copy at all
            return;
        }
        while (from < n) {
            refill(words);
            int take = Math.min(n - from, words.length);
            System.arraycopy(words, 0, out, from, take);
            position = take;
            from += take;
        }
    }

    @Override
    public boolean nextBoolean() {
        return takeBits(1) != 0;
    }

    /**
     * As the interface's rejection sampler, but a bound of 1 takes no randomness and a power-of-two
     * bound up to 2⁸ takes just its bits from the cached word.
     */
    @Override
    public long nextLong(long bound) {
        if (bound == 1) {
            return 0;
        }
        if (bound > 1 && bound <= 256 && (bound & (bound - 1)) == 0) {
            return takeBits(Long.numberOfTrailingZeros(bound));
        }
        return RandomSource.super.nextLong(bound);
    }

    /** The next {@code n} (1..8) bits of the cached word as a number in [0, 2ⁿ). */
    private long takeBits(int n) {
        if (bitsLeft < n) {
            bits = nextLong();
            bitsLeft = Long.SIZE;
        }
        long v = bits & ((1L << n) - 1);
        bits >>>= n;
        bitsLeft -= n;
        return v;
    }
}
