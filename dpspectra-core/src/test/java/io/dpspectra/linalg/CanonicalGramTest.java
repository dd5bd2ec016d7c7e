package io.dpspectra.linalg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * XᵀX is a function of the rows and their order alone: given row by row, in one block, or cut into
 * pieces at arbitrary rows, given to several Grams at their positions (on several threads, or serialised
 * as a cluster would ship them) and joined in any order, it has the same bits.
 */
class CanonicalGramTest {
    static List<Backend> backends() {
        return Backend.DEFAULT.isNative() ? List.of(Backend.PURE_JAVA, Backend.DEFAULT) : List.of(Backend.PURE_JAVA);
    }

    private static double[] rows(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) {
            x[i] = r.nextGaussian() * (i % d == 0 ? 3 : 0.5) + (i % d == 1 ? 1e3 : 0);
        }
        return x;
    }

    private static double[] rowByRow(double[] x, int n, int d, Backend backend) {
        Gram g = new Gram(d, backend);
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            System.arraycopy(x, i * d, row, 0, d);
            g.add(row);
        }
        assertThat(g.rowCount()).isEqualTo(n);
        return g.result().data();
    }

    /** The rows cut at random places, each piece given to one of several Grams, joined in a random order. */
    private static double[] inPieces(double[] x, int n, int d, Backend backend, SplittableRandom r, boolean ship)
            throws Exception {
        List<Gram> holders = new ArrayList<>();
        for (int h = 0; h < 1 + r.nextInt(6); h++) {
            holders.add(new Gram(d, backend));
        }
        List<int[]> pieces = new ArrayList<>();
        for (int start = 0; start < n; ) {
            int len = 1 + r.nextInt(r.nextBoolean() ? 40 : 700);
            len = Math.min(len, n - start);
            pieces.add(new int[] {start, len});
            start += len;
        }
        Collections.shuffle(pieces, new java.util.Random(r.nextLong()));   // test data order only
        for (int[] p : pieces) {
            holders.get(r.nextInt(holders.size())).addAt(p[0], x, p[0], p[1]);
        }
        if (ship) {
            List<Gram> shipped = new ArrayList<>();
            for (Gram g : holders) {
                shipped.add(roundTrip(g));
            }
            holders = shipped;
        }
        while (holders.size() > 1) {
            Gram a = holders.remove(r.nextInt(holders.size()));
            Gram b = holders.remove(r.nextInt(holders.size()));
            a.addGram(b);
            holders.add(a);
        }
        assertThat(holders.get(0).rowCount()).isEqualTo(n);
        return holders.get(0).result().data();
    }

    private static Gram roundTrip(Gram g) throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(g);
        }
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(
                new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            return (Gram) in.readObject();
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void theSameRowsGiveTheSameBitsHoweverTheyAreCutUpAndJoined(Backend backend) throws Exception {
        SplittableRandom r = new SplittableRandom(7);
        for (int d : new int[] {1, 5, 33}) {
            int block = Gram.blockRows(d);
            for (int n : new int[] {1, 257, block - 1, block, block + 1, 2 * block + 300}) {
                double[] x = rows(n, d, 31L * n + d);
                double[] reference = rowByRow(x, n, d, backend);
                Gram whole = new Gram(d, backend);
                whole.addBlock(x, n);
                assertThat(whole.result().data()).isEqualTo(reference);
                for (int trial = 0; trial < 4; trial++) {
                    assertThat(inPieces(x, n, d, backend, r, trial % 2 == 1)).as("d %d n %d trial %d", d, n, trial)
                            .isEqualTo(reference);
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void piecesGivenFromSeveralThreadsAtOnceGiveTheSameBits(Backend backend) throws Exception {
        int d = 20;
        int n = 20_000;
        double[] x = rows(n, d, 3);
        double[] reference = rowByRow(x, n, d, backend);
        for (int trial = 0; trial < 3; trial++) {
            Gram g = new Gram(d, backend);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
            try {
                List<java.util.concurrent.Future<?>> done = new ArrayList<>();
                for (int start = 0; start < n; start += 333) {
                    int s = start;
                    done.add(pool.submit(() -> g.addAt(s, x, s, Math.min(333, n - s))));
                }
                for (var f : done) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
            assertThat(g.result().data()).isEqualTo(reference);
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void theResultMatchesTheNaiveSum(Backend backend) {
        int d = 9;
        int n = 1000;
        double[] x = rows(n, d, 5);
        double[] got = rowByRow(x, n, d, backend);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                double s = 0;
                double abs = 0;
                for (int a = 0; a < n; a++) {
                    s += x[a * d + i] * x[a * d + j];
                    abs += Math.abs(x[a * d + i] * x[a * d + j]);
                }
                assertThat(Math.abs(got[j * d + i] - s)).isLessThanOrEqualTo(1e-12 * abs);
            }
        }
    }

    @Test
    void columnSumsAndProductsToo() {
        int d = 6;
        int n = 1500;
        double[] x = rows(n, d, 17);
        Matrix w = Matrix.fromRows(new double[][] {{1, 0}, {0.5, 1}, {-1, 2}, {0, 0}, {3, 1}, {0.25, -2}});
        for (RowBlocks.Leaf leaf : List.of(RowBlocks.columnSums(d), BlockGramProduct.leaf(w))) {
            RowBlocks whole = new RowBlocks(d, leaf);
            whole.add(0, x, 0, n);
            double[] reference = whole.result();
            SplittableRandom r = new SplittableRandom(23);
            for (int trial = 0; trial < 5; trial++) {
                List<RowBlocks> parts = new ArrayList<>();
                for (int start = 0; start < n; ) {
                    int len = Math.min(n - start, 1 + r.nextInt(400));
                    RowBlocks part = new RowBlocks(d, leaf);
                    part.add(start, x, start, len);
                    parts.add(part);
                    start += len;
                }
                Collections.shuffle(parts, new java.util.Random(trial));   // test data order only
                RowBlocks total = parts.remove(0);
                for (RowBlocks part : parts) {
                    total.merge(part);
                }
                assertThat(total.result()).isEqualTo(reference);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void missingOrRepeatedRowsAreRefused(Backend backend) {
        int d = 3;
        double[] x = rows(600, d, 9);
        Gram gap = new Gram(d, backend);
        gap.addAt(0, x, 0, 100);
        gap.addAt(300, x, 300, 100);
        assertThatThrownBy(gap::result).isInstanceOf(IllegalStateException.class).hasMessageContaining("never added");
        Gram twice = new Gram(d, backend);
        twice.addAt(0, x, 0, 100);
        assertThatThrownBy(() -> twice.addAt(50, x, 50, 10)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("row 50 was given twice");
        Gram shifted = new Gram(d, backend);
        shifted.addAt(256, x, 0, 256);
        assertThatThrownBy(shifted::result).isInstanceOf(IllegalStateException.class);
    }
}
