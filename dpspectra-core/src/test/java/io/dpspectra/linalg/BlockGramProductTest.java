package io.dpspectra.linalg;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.noise.RandomSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BlockGramProductTest {

    @ParameterizedTest(name = "native backend = {0}")
    @ValueSource(booleans = {true, false})
    void accumulatesBtBWBlockByBlockOnBothBackends(boolean useDefault) {
        Backend be = useDefault ? Backend.DEFAULT : Backend.PURE_JAVA;
        RandomSource r = RandomSource.seededForReproducibility(3);
        int d = 17;
        int p = 3;
        int n = 50;
        double[] rows = new double[n * d];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = r.standardNormal();
        }
        Matrix w = new Matrix(d, p);
        for (int i = 0; i < w.data().length; i++) {
            w.data()[i] = r.standardNormal();
        }
        // naive XᵀX·W
        Matrix expected = new Matrix(d, p);
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < p; c++) {
                double z = 0;
                for (int j = 0; j < d; j++) {
                    z += rows[i * d + j] * w.get(j, c);
                }
                for (int j = 0; j < d; j++) {
                    expected.add(j, c, rows[i * d + j] * z);
                }
            }
        }
        BlockGramProduct kernel = new BlockGramProduct(d, p, be);
        Matrix y = new Matrix(d, p);
        double[] block = new double[7 * d];
        for (int start = 0; start < n; start += 7) {
            int count = Math.min(7, n - start);
            System.arraycopy(rows, start * d, block, 0, count * d);
            kernel.accumulate(block, count, w, y);
        }
        assertThat(y.minus(expected).maxAbs()).isLessThan(1e-10 * expected.maxAbs());
    }

    @ParameterizedTest(name = "d = {0}")
    @ValueSource(ints = {1, 10, 1000, 100_000})
    void defaultBlockIsAboutQuarterMegabyteWithinLimits(int d) {
        int b = BlockGramProduct.defaultBlockRows(d);
        assertThat(b).isBetween(8, 4096);
        if (d >= 8 && d <= 4096) {
            assertThat((long) b * d * 8).isBetween(128L * 1024, 256L * 1024);
        }
    }

    @org.junit.jupiter.api.Test
    void theLeafFoldsSparseBlocksOverTheirNonZerosAsDenseOnesAreFolded() {
        RandomSource r = RandomSource.seededForReproducibility(8);
        int d = 400;
        int p = 3;
        Matrix w = new Matrix(d, p);
        for (int i = 0; i < w.data().length; i++) {
            w.data()[i] = r.standardNormal();
        }
        // 1 entry in 20 non-zero (the sparse kernel), then the same rows with every entry non-zero (dgemm)
        for (double density : new double[] {0.05, 1.0}) {
            int n = 256;
            double[] rows = new double[n * d];
            for (int i = 0; i < rows.length; i++) {
                rows[i] = r.nextDouble() < density ? r.standardNormal() : 0;
            }
            Matrix naive = new Matrix(d, p);
            for (int i = 0; i < n; i++) {
                for (int c = 0; c < p; c++) {
                    double z = 0;
                    for (int j = 0; j < d; j++) {
                        z += rows[i * d + j] * w.get(j, c);
                    }
                    for (int j = 0; j < d; j++) {
                        naive.add(j, c, rows[i * d + j] * z);
                    }
                }
            }
            double[] out = new double[d * p];
            java.util.Arrays.fill(out, Double.NaN);   // contents undefined on entry
            RowBlocks.Leaf leaf = BlockGramProduct.leaf(w);
            leaf.apply(rows, 0, n, out);
            double scale = 0;
            for (double v : naive.data()) {
                scale = Math.max(scale, Math.abs(v));
            }
            for (int i = 0; i < out.length; i++) {
                assertThat(Math.abs(out[i] - naive.data()[i])).as("density %s, entry %d", density, i)
                        .isLessThanOrEqualTo(1e-12 * scale);
            }
            double[] again = new double[d * p];
            leaf.apply(rows, 0, n, again);
            assertThat(again).as("the same block, the same bits").isEqualTo(out);
        }
    }
}
