package io.dpspectra.pca;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Projector;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The generic k-round deflation driver of [DS] Alg. 1 / Alg. 4 (BlackBoxPCA): round i hands the i-th
 * disjoint chunk of m = ⌊n/k⌋ consecutive samples and the implicit projector P_{i−1} = I − U Uᵀ to a
 * one-vector private oracle, and appends the (re-orthogonalised) returned direction to U.
 *
 * <p>Privacy: if the oracle is (ε, δ)-DP in its chunk for every projector (the unit being one A_i of
 * the chunk), the whole run is (ε, δ)-DP under replace-one with n and the order public, by parallel
 * composition over disjoint chunks ([DS] Lemma 15, Theorem 2; adaptivity is allowed because every
 * record is read by exactly one round, spec §0.2). Each round receives the FULL budget. The last
 * n − k·m samples are never read.
 *
 * <p>Reference: papers/kdp-pca-adaptive-noise.txt Alg. 1 and Alg. 4; spec stochastic-and-power-methods.md
 * §2.1, §8 #7, #10.
 *
 * <p>Cost: one pass over the samples in order (a single cursor); memory O(dk) plus the oracle's; no
 * d × d matrix.
 */
public final class Deflation {
    private Deflation() {
    }

    /** One-vector private oracle: returns a unit vector in Im(P) computed from its chunk only. */
    @FunctionalInterface
    public interface Oracle {
        /**
         * Computes round {@code round}'s unit vector from {@code chunk} alone, orthogonal to the directions already
         * found.
         *
         * @param chunk     the round's samples (read at most once)
         * @param projector P, the projection onto the complement of the earlier rounds' directions
         * @param round     the round, 1..k
         * @param budget    the (ε, δ) of this round
         * @param random    the randomness of the noise
         * @param log       receives the round's counters and facts
         * @return a unit vector in Im(P)
         */
        double[] topDirection(Chunk chunk, Projector projector, int round, PrivacyParams budget,
                              RandomSource random, Log log);
    }

    /** A bounded view of m consecutive samples of the stream. */
    public static final class Chunk {
        private final AiSource.Cursor cursor;
        private final long size;
        private long read;

        Chunk(AiSource.Cursor cursor, long size) {
            this.cursor = cursor;
            this.size = size;
        }

        /**
         * m, the number of samples in the chunk (public).
         *
         * @return m
         */
        public long size() {
            return size;
        }

        /**
         * Samples read so far.
         *
         * @return the count
         */
        public long read() {
            return read;
        }

        /**
         * The next sample of the chunk (valid until the next call), or null when the chunk is done.
         *
         * @return the sample, or null
         */
        public SampleMatrix next() {
            if (read >= size) {
                return null;
            }
            SampleMatrix s = cursor.next();
            if (s == null) {
                throw new IllegalStateException("the source ended after fewer rows than its declared size; "
                        + "n must be the exact number of rows");
            }
            read++;
            return s;
        }

        void drain() {
            while (next() != null) {
                // skip the samples the oracle did not use (they stay unread by later rounds too)
            }
        }
    }

    /** Mutable run counters that become diagnostics (per-round and totals). */
    public static final class Log {
        private final LinkedHashMap<String, Object> entries = new LinkedHashMap<>();

        /**
         * Adds {@code by} to the counter {@code key}.
         *
         * @param key the counter's name
         * @param by  the increment
         */
        public void count(String key, long by) {
            entries.merge(key, by, (a, b) -> ((Long) a) + ((Long) b));
        }

        /**
         * Sets a fact.
         *
         * @param key   the fact's name
         * @param value its value
         */
        public void note(String key, Object value) {
            entries.put(key, value);
        }

        /**
         * The value of a counter.
         *
         * @param key the counter's name
         * @return its value, 0 when never counted
         */
        public long counter(String key) {
            Object v = entries.get(key);
            return v instanceof Long l ? l : 0;
        }

        /**
         * Every counter and fact, in the order first set.
         *
         * @return the live map (not a copy)
         */
        public Map<String, Object> asMap() {
            return entries;
        }
    }

    /** The outcome of a run. */
    public record Result(Matrix basis, long chunkSize, long unusedSamples, Log log) {
    }

    /**
     * Runs k rounds over {@code n} samples of {@code source}.
     *
     * @param source the samples
     * @param n      the number of samples (public)
     * @param k      the number of rounds (components)
     * @param oracle the one-vector private oracle
     * @param budget the (ε, δ) of each round (parallel composition over disjoint chunks)
     * @param random the randomness of the noise
     * @return the d × k basis, the chunk size, the unused samples and the log
     */
    public static Result run(AiSource source, long n, int k, Oracle oracle, PrivacyParams budget,
                             RandomSource random) {
        Objects.requireNonNull(oracle, "oracle");
        Objects.requireNonNull(random, "random");
        int d = source.dimension();
        io.dpspectra.privacy.DpPreconditions.checkComponents(k, d);
        long m = n / k;
        if (m < 1) {
            throw new IllegalArgumentException("n = " + n + " rows cannot be split into k = " + k
                    + " disjoint chunks; supply at least k rows");
        }
        Log log = new Log();
        Projector p = Projector.identity(d);
        Matrix basis = new Matrix(d, k);
        try (AiSource.Cursor cursor = source.open()) {
            for (int i = 1; i <= k; i++) {
                Chunk chunk = new Chunk(cursor, m);
                double[] u = oracle.topDirection(chunk, p, i, budget, random, log);
                chunk.drain();
                if (u == null || u.length != d || !Vectors.isFinite(u)) {
                    throw new IllegalStateException("round " + i + " returned no finite direction");
                }
                double raw = Vectors.norm2(u);
                u = p.apply(p.apply(u)); // re-orthogonalise twice (floating point): post-processing
                if (!(Vectors.normalizeInPlace(u) > 1e-8 * raw)) {
                    u = randomUnit(p, random);
                    log.count("degenerateDirections", 1);
                }
                basis.setColumn(i - 1, u);
                p = p.extendedBy(u);
            }
        }
        log.note("chunkSize", m);
        log.note("unusedSamples", n - k * m);
        return new Result(basis, m, n - k * m, log);
    }

    /**
     * A uniformly random unit vector of Im(P) (non-private use: starting points, fallbacks).
     *
     * @param p      the projector
     * @param random the randomness
     * @return a new unit vector
     */
    public static double[] randomUnit(Projector p, RandomSource random) {
        int d = p.dimension();
        for (int attempt = 0; attempt < 100; attempt++) {
            double[] w = new double[d];
            for (int j = 0; j < d; j++) {
                w[j] = random.standardNormal();
            }
            p.applyInPlace(w);
            if (Vectors.normalizeInPlace(w) > 1e-12) {
                return w;
            }
        }
        throw new IllegalStateException("could not draw a unit vector in the complement of a rank-"
                + p.rank() + " subspace of R^" + d);
    }

    /**
     * The default minibatch size of the k-DP-PCA family, ⌊√n⌋ but at least 4 (App. G.1, spec §8 #8).
     *
     * @param n the total number of samples
     * @return max(4, ⌊√n⌋)
     */
    public static int defaultBatchSize(long n) {
        return (int) Math.max(4, Math.floor(Math.sqrt((double) n)));
    }

    /**
     * n: the source's known size, or one counting pass (n is public under replace-one).
     *
     * @param source the samples
     * @return n
     */
    public static long size(AiSource source) {
        if (source.knownSize().isPresent()) {
            return source.knownSize().getAsLong();
        }
        long n = 0;
        try (AiSource.Cursor c = source.open()) {
            while (c.next() != null) {
                n++;
            }
        }
        return n;
    }
}
