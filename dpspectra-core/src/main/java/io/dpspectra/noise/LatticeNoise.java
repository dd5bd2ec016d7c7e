package io.dpspectra.noise;

import java.util.Objects;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToLongFunction;

/**
 * What {@link GaussianNoise} and {@link LaplaceNoise} share: a random source, the per-value mechanism
 * (round the value to the granularity g, add an exact lattice sample times g), and the bulk path.
 *
 * <p>Bulk path ({@link #prepare}, used by {@link #addNoiseInPlace}): the lattice samples do not depend
 * on the values, so they can be drawn before the values exist. For more than {@value #CHUNK} values
 * they are drawn in chunks of {@value #CHUNK}; chunk c draws from the c-th {@link RandomSource#split()
 * split} of the source, the splits being taken in order on the calling thread when the noise is
 * prepared. The chunks are drawn by the common fork-join pool's workers, in the background from the
 * moment of preparation, and by the caller of {@link Noise.Prepared#addTo}, which joins in until every
 * chunk is done; they use {@link #bulkLattice}, the subclass's fastest sampler of the same law. Every value gets an independent exact sample of the same law; with the seeded source
 * the output depends only on the seed, the scale and the length, not on the cores or the scheduling.
 * Within a chunk the words come through a {@link WordBuffer}, so the secure source's lock is taken
 * once per 512 words. {@code addTo} validates every value before it changes any, so a bad value (NaN or
 * infinite) leaves the array untouched.
 */
abstract sealed class LatticeNoise implements Noise permits GaussianNoise, LaplaceNoise {
    /** Values per chunk of the bulk path; up to this many are drawn on the caller's thread. */
    static final int CHUNK = 1 << 14;

    private final RandomSource random;

    LatticeNoise(RandomSource random) {
        this.random = Objects.requireNonNull(random, "random");
    }

    /**
     * The lattice gℤ for one noise scale, with its exact sampler: the one place where a value is rounded
     * to the lattice and a sample is added, for single values and for the bulk path alike.
     */
    static final class Lattice {
        final double g;
        private final ToLongFunction<RandomSource> draw;

        /** draw: an exact sample of the lattice law (redrawn here while |k| ≥ 2^53). */
        Lattice(double g, ToLongFunction<RandomSource> draw) {
            this.g = g;
            this.draw = draw;
        }

        /** An exact lattice sample k, |k| &lt; 2^53 so that k·g is exact. */
        long sample(RandomSource source) {
            long k;
            do {
                k = draw.applyAsLong(source);
            } while (!Granularity.representable(k));
            return k;
        }

        /** The released value: value rounded to gℤ plus k·g (throws on a NaN or infinite value). */
        double release(double value, long k) {
            return Granularity.release(value, k, g);
        }
    }

    /** The lattice and sampler for noise of the given scale (checks the scale). */
    abstract Lattice lattice(double scale);

    /**
     * As {@link #lattice}, for drawing more than {@value #CHUNK} values: may spend a table build on a
     * faster sampler of the same law ({@link GaussianNoise} does; the build, about 1.5 ms, is what some
     * 20,000 samples save).
     */
    Lattice bulkLattice(double scale) {
        return lattice(scale);
    }

    @Override
    public final double addNoise(double value, double scale) {
        Lattice lattice = lattice(scale);
        return lattice.release(value, lattice.sample(random));
    }

    @Override
    public final void addNoiseInPlace(double[] values, double scale) {
        prepare(values.length, scale).addTo(values);
    }

    @Override
    public final Prepared prepare(int count, double scale) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, got " + count);
        }
        Lattice lattice = count > CHUNK ? bulkLattice(scale) : lattice(scale);
        if (count <= CHUNK) {
            return values -> {
                checkValues(values, count);
                for (int i = 0; i < count; i++) {
                    values[i] = lattice.release(values[i], lattice.sample(random));
                }
            };
        }
        return new Drawing(lattice, count, random);
    }

    @Override
    public final Stream stream(long count, double scale) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, got " + count);
        }
        if (count <= CHUNK) {
            Lattice lattice = lattice(scale);
            long[] left = {count};
            return values -> {
                for (double v : values) {
                    Granularity.checkFinite(v);
                }
                takeFromStream(left, values);
                for (int i = 0; i < values.length; i++) {
                    values[i] = lattice.release(values[i], lattice.sample(random));
                }
            };
        }
        return new Streaming(bulkLattice(scale), count, random);
    }

    /** Counts {@code values.length} off what a stream has left, or throws when too few are left. */
    static void takeFromStream(long[] left, double[] values) {
        if (values.length > left[0]) {
            throw new IllegalStateException("this noise stream has " + left[0] + " values left but " + values.length
                    + " were asked for; create the stream for every value it will noise");
        }
        left[0] -= values.length;
    }

    /**
     * A stream of more than one chunk: chunk c drawn from the c-th split of the source (taken on the calling
     * thread when chunk c − 1 is started on, or at creation for chunk 0) by a pool worker in the background, or by
     * the caller if it needs the chunk before a worker has begun it.
     */
    private static final class Streaming implements Stream {
        private final Lattice lattice;
        private final RandomSource random;
        private final long count;
        private final long[] left;
        private long started;
        private Chunk current;
        private Chunk next;
        private int position;

        Streaming(Lattice lattice, long count, RandomSource random) {
            this.lattice = lattice;
            this.random = random;
            this.count = count;
            this.left = new long[] {count};
            this.next = startChunk();
        }

        /** The next chunk of the stream, begun in the background; null when every chunk has been started. */
        private Chunk startChunk() {
            long from = started * CHUNK;
            if (from >= count) {
                return null;
            }
            started++;
            Chunk c = new Chunk(lattice, random.split(), (int) Math.min(CHUNK, count - from));
            ForkJoinPool.commonPool().execute(c::drawIfUnclaimed);
            return c;
        }

        @Override
        public void addTo(double[] values) {
            checkValues(values, values.length);
            takeFromStream(left, values);
            for (int i = 0; i < values.length; i++) {
                if (current == null || position == current.samples.length) {
                    current = next.await();
                    next = startChunk();
                    position = 0;
                }
                values[i] = lattice.release(values[i], current.samples[position++]);
            }
        }
    }

    /** One chunk of a stream's lattice samples, drawn once by whoever claims it first. */
    private static final class Chunk {
        private final Lattice lattice;
        private final long[] samples;
        private final AtomicBoolean claimed = new AtomicBoolean();
        private RandomSource source;
        private boolean done;
        private Throwable failure;

        Chunk(Lattice lattice, RandomSource source, int size) {
            this.lattice = lattice;
            this.source = source;
            this.samples = new long[size];
        }

        void drawIfUnclaimed() {
            if (!claimed.compareAndSet(false, true)) {
                return;
            }
            Throwable f = null;
            try {
                RandomSource words = WordBuffer.over(source);
                source = null;
                for (int i = 0; i < samples.length; i++) {
                    samples[i] = lattice.sample(words);
                }
            } catch (RuntimeException | Error e) {
                f = e;
            }
            synchronized (this) {
                failure = f;
                done = true;
                notifyAll();
            }
        }

        /** Draws the chunk here unless a worker has begun it, waits for it, and returns it. */
        Chunk await() {
            drawIfUnclaimed();
            synchronized (this) {
                while (!done) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while drawing noise", e);
                    }
                }
            }
            if (failure != null) {
                throw new IllegalStateException("drawing the noise failed: " + failure.getMessage(), failure);
            }
            return this;
        }
    }

    /** Throws, naming the problem, unless values has the prepared length and every value can be released. */
    private static void checkValues(double[] values, int count) {
        checkPreparedLength(values, count);
        for (double v : values) {
            Granularity.checkFinite(v); // throws on NaN and infinities
        }
    }

    /** Throws unless noise prepared for {@code count} values meets an array of that length. */
    static void checkPreparedLength(double[] values, int count) {
        if (values.length != count) {
            throw new IllegalArgumentException("noise was prepared for " + count + " values but " + values.length
                    + " were given; prepare it for the array it is added to");
        }
    }

    /** Lattice noise being drawn in chunks by the pool's workers and, once it is added, by its caller. */
    private static final class Drawing implements Prepared {
        private final Lattice lattice;
        private final long[] noise; // the lattice sample k per value
        private final RandomSource[] sources;
        private final AtomicInteger next = new AtomicInteger();
        private final AtomicInteger done = new AtomicInteger();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private boolean added;

        Drawing(Lattice lattice, int count, RandomSource random) {
            this.lattice = lattice;
            this.noise = new long[count];
            this.sources = new RandomSource[(count + CHUNK - 1) / CHUNK];
            for (int c = 0; c < sources.length; c++) {
                sources[c] = random.split();
            }
            int helpers = Math.min(sources.length - 1, ForkJoinPool.getCommonPoolParallelism());
            for (int h = 0; h < helpers; h++) {
                ForkJoinPool.commonPool().execute(this::work);
            }
        }

        /** Draws unclaimed chunks until none is left. */
        private void work() {
            for (int c = next.getAndIncrement(); c < sources.length; c = next.getAndIncrement()) {
                try {
                    RandomSource source = WordBuffer.over(sources[c]);
                    sources[c] = null;
                    for (int i = c * CHUNK, end = Math.min(noise.length, i + CHUNK); i < end; i++) {
                        noise[i] = lattice.sample(source);
                    }
                } catch (RuntimeException | Error e) {
                    failure.compareAndSet(null, e);
                } finally {
                    synchronized (this) {
                        done.incrementAndGet();
                        notifyAll();
                    }
                }
            }
        }

        @Override
        public void addTo(double[] values) {
            if (added) {
                throw new IllegalStateException("this noise was already added once; prepare fresh noise for "
                        + "each release (reusing noise would break the privacy guarantee)");
            }
            checkValues(values, noise.length);
            added = true;
            work();
            synchronized (this) {
                while (done.get() < sources.length) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while drawing noise", e);
                    }
                }
            }
            Throwable f = failure.get();
            if (f != null) {
                throw new IllegalStateException("drawing the noise failed: " + f.getMessage(), f);
            }
            for (int i = 0; i < values.length; i++) {
                values[i] = lattice.release(values[i], noise[i]);
            }
        }
    }
}
