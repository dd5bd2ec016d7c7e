package io.dpspectra.bench;

import static io.dpspectra.bench.Timing.secondsSince;

import io.dpspectra.data.BinaryRows;
import io.dpspectra.data.RowCursor;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AdaptiveOjaPca;
import io.dpspectra.pca.KDpOja;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.util.List;

/**
 * The streaming cost of k-DP-Ojas (or k-dp-pca-adaptive) against a plain pass that only sums the rows of the same
 * BinaryRows file (the I/O floor). Both read the file in blocks, so the heap stays O(dk) plus one block. The plain
 * pass runs first and last (the faster of the two is the floor: the page cache).
 */
public final class OjaBenchmark {
    /** The algorithms this benchmark times, by their command-line names. */
    public static final List<String> ALGORITHMS = List.of("k-dp-ojas", "k-dp-pca-adaptive");

    private OjaBenchmark() {
    }

    /**
     * What one run measured.
     *
     * @param plainFirst the first plain pass, in seconds
     * @param plainLast  the last plain pass, in seconds
     * @param fit        the streaming fit (epsilon 1, delta 1e-6), in seconds
     * @param subspace   the fit's release, for its diagnostics (batch size, steps per round)
     */
    public record Result(double plainFirst, double plainLast, double fit, PrivateSubspace subspace) {
        /**
         * The floor: the faster plain pass.
         *
         * @return seconds
         */
        public double plain() {
            return Math.min(plainFirst, plainLast);
        }
    }

    /**
     * Runs the measurement.
     *
     * @param rows      the file's rows
     * @param algorithm one of {@link #ALGORITHMS}; k-dp-pca-adaptive uses B = floor(sqrt(n)) and its default steps
     * @param k         components
     * @param clip      the L2 row bound of the k-DP-Ojas run
     * @param random    the noise source (seeded for experiments, secure otherwise)
     * @return what was measured
     */
    public static Result run(BinaryRows rows, String algorithm, int k, double clip, RandomSource random) {
        if (!ALGORITHMS.contains(algorithm)) {
            throw new IllegalArgumentException("algorithm must be one of " + ALGORITHMS + ", got " + algorithm);
        }
        double plain1 = plainPass(rows);
        long t0 = System.nanoTime();
        PrivateSubspace s = algorithm.equals("k-dp-ojas")
                ? KDpOja.builder().components(k).randomSource(random).build().fit(rows.clipL2(clip), PrivacyParams.of(1, 1e-6))
                : AdaptiveOjaPca.builder().components(k).randomSource(random).build().fit(rows, PrivacyParams.of(1, 1e-6));
        double oja = secondsSince(t0);
        double plain2 = plainPass(rows);
        return new Result(plain1, plain2, oja, s);
    }

    private static double plainPass(BinaryRows rows) {
        int d = rows.dimension();
        int block = Math.max(1, (1 << 16) / d);
        double[] buf = new double[block * d];
        double sum = 0;
        long t0 = System.nanoTime();
        try (RowCursor c = rows.open()) {
            int got;
            while ((got = c.nextBlock(buf, block, d)) > 0) {
                for (int i = 0; i < got * d; i++) {
                    sum += buf[i];
                }
            }
        }
        double s = secondsSince(t0);
        if (Double.isNaN(sum)) {
            System.err.println("(sum is NaN)");
        }
        return s;
    }
}
