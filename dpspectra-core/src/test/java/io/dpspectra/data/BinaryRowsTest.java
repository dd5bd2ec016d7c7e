package io.dpspectra.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.linalg.Backend;
import io.dpspectra.linalg.Matrix;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BinaryRowsTest {
    @TempDir
    Path dir;

    private static double[][] randomRows(int n, int d, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double[][] rows = new double[n][d];
        for (double[] r : rows) {
            for (int j = 0; j < d; j++) {
                r[j] = rnd.nextDouble(-3, 3);
            }
        }
        return rows;
    }

    @Test
    void roundTripPreservesEveryValueExactlyThroughNextAndNextBlock() {
        // 1.4 MB of data, more than the 1 MiB read buffer: a row straddles a refill
        double[][] rows = randomRows(2500, 70, 1);
        Path file = dir.resolve("x.dpsr");
        assertThat(BinaryRows.write(InMemoryRows.of(rows), file)).isEqualTo(2500);
        BinaryRows b = BinaryRows.open(file);
        assertThat(b.size()).isEqualTo(2500);
        assertThat(b.dimension()).isEqualTo(70);
        double[] row = new double[70];
        try (RowCursor c = b.open()) {
            for (double[] expected : rows) {
                assertThat(c.next(row)).isTrue();
                assertThat(row).containsExactly(expected);
            }
            assertThat(c.next(row)).isFalse();
            assertThat(c.rowsRead()).isEqualTo(2500);
        }
        double[] block = new double[333 * 70];
        int seen = 0;
        try (RowCursor c = b.open()) {
            int k;
            while ((k = c.nextBlock(block, 333, 70)) > 0) {
                for (int i = 0; i < k; i++) {
                    for (int j = 0; j < 70; j++) {
                        assertThat(block[i * 70 + j]).isEqualTo(rows[seen + i][j]);
                    }
                }
                seen += k;
            }
        }
        assertThat(seen).isEqualTo(2500);
    }

    @Test
    void truncatedFileIsRejectedNamingFileAndSizes() throws IOException {
        Path file = dir.resolve("t.dpsr");
        BinaryRows.write(InMemoryRows.of(randomRows(10, 4, 2)), file);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(raf.length() - 8);
        }
        assertThatThrownBy(() -> BinaryRows.open(file)).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("truncated")
                .hasMessageContaining("rows=10");
    }

    @Test
    void badMagicIsRejectedNamingFile() throws IOException {
        Path file = dir.resolve("m.dpsr");
        BinaryRows.write(InMemoryRows.of(randomRows(3, 2, 3)), file);
        byte[] bytes = Files.readAllBytes(file);
        bytes[0] = 'X';
        Files.write(file, bytes);
        assertThatThrownBy(() -> BinaryRows.open(file)).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("magic");
    }

    @Test
    void failedWriteLeavesNeitherTargetNorTemporaryFile() throws IOException {
        RowSource failing = new RowSource() {
            @Override
            public int dimension() {
                return 2;
            }

            @Override
            public RowCursor open() {
                return new RowCursor() {
                    private long n;

                    @Override
                    public boolean next(double[] into) {
                        if (n == 5) {
                            throw new InvalidDataException("row 6 is malformed");
                        }
                        n++;
                        into[0] = n;
                        into[1] = -n;
                        return true;
                    }

                    @Override
                    public String position() {
                        return "row " + n;
                    }

                    @Override
                    public long rowsRead() {
                        return n;
                    }

                    @Override
                    public void close() {
                    }
                };
            }
        };
        Path file = dir.resolve("f.dpsr");
        assertThatThrownBy(() -> BinaryRows.write(failing, file)).isInstanceOf(InvalidDataException.class);
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s).isEmpty();
        }
    }

    @Test
    void gramPassOverClippedBinaryRowsEqualsGramOfClippedRowsInMemory() {
        double[][] rows = randomRows(700, 9, 4);
        Path file = dir.resolve("g.dpsr");
        BinaryRows.write(InMemoryRows.of(rows), file);
        double bound = 2.0;
        for (Backend backend : new Backend[] {Backend.DEFAULT, Backend.PURE_JAVA}) {
            ClippedRows clipped = BinaryRows.open(file).clipL2(bound);
            GramPass pass = GramPass.of(clipped, backend, 64, n -> { });
            assertThat(pass.rows()).isEqualTo(700);
            Matrix expected = new Matrix(9, 9);
            long clippedCount = 0;
            for (double[] r : rows) {
                double norm = 0;
                for (double v : r) {
                    norm += v * v;
                }
                norm = Math.sqrt(norm);
                double s = norm > bound ? bound / norm : 1.0;
                clippedCount += norm > bound ? 1 : 0;
                for (int i = 0; i < 9; i++) {
                    for (int j = 0; j < 9; j++) {
                        expected.add(i, j, r[i] * s * r[j] * s);
                    }
                }
            }
            assertThat(clippedCount).isPositive();
            assertThat(clipped.clippedRows()).isEqualTo(clippedCount);
            assertThat(pass.gram().minus(expected).maxAbs()).isLessThan(1e-12 * expected.maxAbs());
        }
    }

    @Test
    void rejectingSourceFailsOnTheFirstRowOverTheBoundInBlockMode() {
        double[][] rows = {{0.1, 0.1}, {0.2, 0.2}, {3, 4}};
        Path file = dir.resolve("r.dpsr");
        BinaryRows.write(InMemoryRows.of(rows), file);
        assertThatThrownBy(() -> GramPass.of(BinaryRows.open(file).requireL2(1.0)))
                .isInstanceOf(InvalidDataException.class).hasMessageContaining("row 3");
    }

    /**
     * A non-finite cell of a .dpsr is refused with the reader's error (its row and column) whether the rows are read
     * as they are or through the L2 clip of a block (which leaves the reader's check until the clip refuses a row),
     * in a block of many rows and with rows clipped before it.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {9, 300})
    void aNonFiniteCellIsRefusedWithTheSameErrorThroughTheClipOfABlock(int d) throws IOException {
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            Path file = dir.resolve("bad.dpsr");
            SplittableRandom rnd = new SplittableRandom(4);
            try (BinaryRows.Writer w = BinaryRows.Writer.create(file, d)) {
                double[] block = new double[300 * d];
                for (int i = 0; i < block.length; i++) {
                    block[i] = 3 * rnd.nextDouble(-1, 1);
                }
                block[236 * d + 4] = bad;   // row 237, column 5
                block[250 * d + 1] = Double.NaN;   // a later one, not named
                w.append(block, 300);
                w.finish();
            }
            BinaryRows rows = BinaryRows.open(file);
            String expected = file + " row 237 column 5 is " + (Double.isNaN(bad) ? "NaN" : String.valueOf(bad));
            for (RowSource source : List.of(rows, rows.clipL2(1.0), rows.clipL2(100.0), Clipping.l1(1.0).clip(rows))) {
                assertThatThrownBy(() -> {
                    try (RowCursor c = source.open()) {
                        double[] block = new double[128 * d];
                        while (c.nextBlock(block, 128, d) > 0) {
                            // read on
                        }
                    }
                }).isInstanceOf(InvalidDataException.class).hasMessageStartingWith(expected);
            }
            assertThatThrownBy(() -> GramPass.of(rows.clipL2(1.0))).isInstanceOf(InvalidDataException.class)
                    .hasMessageStartingWith(expected);
        }
    }

    /**
     * Clipped rows read from a .dpsr in blocks (taken by the clip in small pieces as they are read, for widths where a
     * block is one piece and where it is many) have the bits of the same rows read one by one and clipped alone.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {9, 300, 5000})
    void clippedBlockReadsOfADpsrHaveTheBitsOfRowByRowClipping(int d) {
        int n = 211;
        Path file = dir.resolve("c.dpsr");
        BinaryRows.write(InMemoryRows.of(randomRows(n, d, 8)), file);
        BinaryRows rows = BinaryRows.open(file);
        double bound = Math.sqrt(3.0 * d);   // about half of the rows (uniform entries in [-3, 3)) are above it
        double[] expected = new double[n * d];
        try (RowCursor c = rows.open()) {
            double[] row = new double[d];
            for (int i = 0; c.next(row); i++) {
                Clipping.l2(bound).clipInPlace(row);
                System.arraycopy(row, 0, expected, i * d, d);
            }
        }
        ClippedRows clipped = rows.clipL2(bound);
        double[] actual = new double[n * d];
        int read = 0;
        try (RowCursor c = clipped.open()) {
            double[] block = new double[50 * d];
            int got;
            while ((got = c.nextBlock(block, 50, d)) > 0) {
                System.arraycopy(block, 0, actual, read * d, got * d);
                read += got;
            }
        }
        assertThat(read).isEqualTo(n);
        assertThat(java.util.Arrays.mismatch(actual, expected)).as("the first cell that differs").isEqualTo(-1);
        assertThat(clipped.clippedRows()).isBetween(20L, n - 20L);
    }

    @Test
    void aClippedReadIntoABlockTooSmallIsRefusedBeforeAnyRowIsRead() {
        Path file = dir.resolve("s.dpsr");
        BinaryRows.write(InMemoryRows.of(randomRows(100, 300, 9)), file);
        try (RowCursor c = BinaryRows.open(file).clipL2(1.0).open()) {
            assertThatThrownBy(() -> c.nextBlock(new double[40 * 300], 50, 300))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not fit");
            assertThat(c.rowsRead()).isZero();
        }
    }
}
