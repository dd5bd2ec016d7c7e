package io.dpspectra.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.data.csv.CsvRows;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.noise.RandomSource;
import org.junit.jupiter.api.Test;

class ClippingTest {

    private static double[][] randomRows(int n, int d, long seed, double scale) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[i][j] = scale * r.standardNormal();
            }
        }
        return x;
    }

    private static long drain(RowSource src) {
        long n = 0;
        try (RowCursor c = src.open()) {
            double[] buf = new double[src.dimension()];
            while (c.next(buf)) {
                n++;
            }
        }
        return n;
    }

    @Test
    void l2ClippingBoundsEveryRowAndKeepsItsDirection() {
        Clipping c = Clipping.l2(1.0);
        double[] row = {3, 4};
        assertThat(c.clipInPlace(row)).isTrue();
        assertThat(Vectors.norm2(row)).isLessThanOrEqualTo(1.0).isCloseTo(1.0, within(1e-14));
        assertThat(row[0] / row[1]).isCloseTo(0.75, within(1e-14));
        double[] inside = {0.6, 0.8};
        assertThat(c.clipInPlace(inside)).as("a row exactly on the bound is not clipped").isFalse();
    }

    @Test
    void l1AndTraceClippingBoundTheirOwnMeasure() {
        double[] a = {3, -4};
        assertThat(Clipping.l1(2.0).clipInPlace(a)).isTrue();
        assertThat(Vectors.norm1(a)).isLessThanOrEqualTo(2.0).isCloseTo(2.0, within(1e-14));
        double[] b = {3, 4};
        assertThat(Clipping.trace(4.0).clipInPlace(b)).isTrue();
        assertThat(Vectors.norm2(b)).isCloseTo(2.0, within(1e-14));
        assertThat(Clipping.trace(4.0).measure(b)).isLessThanOrEqualTo(4.0);
    }

    @Test
    void traceClippingOfAHugeRowDoesNotOverflowToZero() {
        double[] row = {1e200, 1e200};
        assertThat(Clipping.trace(2.0).clipInPlace(row)).isTrue();
        assertThat(Vectors.norm2(row)).isCloseTo(Math.sqrt(2.0), within(1e-12));
    }

    /** Before the overflow-safe clip, a finite row whose norm overflowed was refused as "NaN or infinite". */
    @Test
    void aFiniteRowWhoseNormIsNotADoubleIsClippedOntoTheBoundInEveryNorm() {
        double max = Double.MAX_VALUE;
        for (Clipping c : new Clipping[] {Clipping.l2(2.0), Clipping.l1(2.0), Clipping.trace(2.0)}) {
            double[] row = {max, -max, max};
            assertThat(c.clipInPlace(row)).isTrue();
            assertThat(c.measure(row)).as("%s", c.norm()).isLessThanOrEqualTo(2.0).isCloseTo(2.0, within(1e-13));
            assertThat(row[0]).isEqualTo(-row[1]).isEqualTo(row[2]);
        }
        ClippedRows rejecting = Clipping.l2(1.0).reject(InMemoryRows.of(new double[][] {{0.1, 0.1}, {max, max}}));
        assertThatThrownBy(() -> drain(rejecting)).hasMessageContaining("row 2").hasMessageContaining("> bound")
                .hasMessageNotContaining("NaN");
    }

    @Test
    void clippingANonFiniteRowIsAnError() {
        assertThatThrownBy(() -> Clipping.l2(1).clipInPlace(new double[] {Double.NaN, 1}))
                .isInstanceOf(InvalidDataException.class).hasMessageContaining("NaN or infinite");
    }

    @Test
    void clipCountEqualsTheNumberOfRowsAboveTheBound() {
        double[][] x = randomRows(2000, 5, 11, 1.0);
        double bound = 2.2;
        long expected = 0;
        for (double[] r : x) {
            if (Vectors.norm2(r) > bound) {
                expected++;
            }
        }
        assertThat(expected).as("the test needs rows on both sides of the bound").isBetween(100L, 1900L);
        ClippedRows clipped = InMemoryRows.of(x).clipL2(bound);
        assertThat(clipped.clippedRows()).isEqualTo(-1);
        for (int pass = 0; pass < 2; pass++) {
            assertThat(drain(clipped)).isEqualTo(2000);
            assertThat(clipped.clippedRows()).isEqualTo(expected);
            assertThat(clipped.rowsInLastPass()).isEqualTo(2000);
        }
        try (RowCursor c = clipped.open()) {
            double[] buf = new double[5];
            while (c.next(buf)) {
                assertThat(Vectors.norm2(buf)).isLessThanOrEqualTo(bound);
            }
        }
    }

    @Test
    void blockReadsClipExactlyLikeRowReadsAndCountTheSame() {
        int n = 1003;
        int d = 7;
        double[][] x = randomRows(n, d, 12, 1.0);
        for (Clipping clipping : new Clipping[] {Clipping.l2(2.4), Clipping.l1(5.0), Clipping.trace(6.0)}) {
            ClippedRows rowWise = clipping.clip(InMemoryRows.of(x));
            ClippedRows blockWise = clipping.clip(InMemoryRows.of(x));
            double[] expected = new double[n * d];
            try (RowCursor c = rowWise.open()) {
                double[] buf = new double[d];
                for (int i = 0; c.next(buf); i++) {
                    System.arraycopy(buf, 0, expected, i * d, d);
                }
            }
            double[] actual = new double[n * d];
            int read = 0;
            try (RowCursor c = blockWise.open()) {
                double[] block = new double[64 * d];
                int got;
                while ((got = c.nextBlock(block, 64, d)) > 0) {
                    System.arraycopy(block, 0, actual, read * d, got * d);
                    read += got;
                }
            }
            assertThat(read).isEqualTo(n);
            assertThat(actual).as(clipping.describeNorm()).containsExactly(expected);
            assertThat(blockWise.clippedRows()).as("the count needs rows on both sides of the bound")
                    .isEqualTo(rowWise.clippedRows()).isBetween(50L, n - 50L);
            assertThat(blockWise.rowsInLastPass()).isEqualTo(n);
        }
    }

    /** The block clip (several rows at a time) gives each row the bits of its own clip, in every norm. */
    @Test
    void clippingTheRowsOfABlockGivesTheBitsAndTheCountOfClippingThemOneByOne() {
        int n = 517;
        int d = 33;
        double[][] x = randomRows(n, d, 5, 1.0);
        for (Clipping clipping : new Clipping[] {Clipping.l2(5.7), Clipping.l1(26.0), Clipping.trace(33.0)}) {
            double[] block = new double[(n + 1) * d];
            for (int i = 0; i < n; i++) {
                System.arraycopy(x[i], 0, block, (i + 1) * d, d);
            }
            double[] expected = block.clone();
            int expectedCount = 0;
            for (int i = 1; i <= n; i++) {
                if (clipping.clipInPlace(expected, i * d, d)) {
                    expectedCount++;
                }
            }
            assertThat(clipping.clipRowsInPlace(block, 1, n, d)).as(clipping.describeNorm()).isEqualTo(expectedCount)
                    .isBetween(50, n - 50);
            assertThat(block).as(clipping.describeNorm()).containsExactly(expected);
        }
    }

    /** A row that cannot be clipped is named by its row in the pass, whether the rows were read in blocks or not. */
    @Test
    void aNonFiniteRowMetInABlockIsNamedByItsRow() {
        RowSource withNaN = new RowSource() {
            @Override
            public int dimension() {
                return 2;
            }

            @Override
            public String describe() {
                return "rows with a NaN";
            }

            @Override
            public RowCursor open() {
                double[][] rows = {{3, 4}, {0.1, 0.1}, {5, Double.NaN}, {6, 8}};
                return new RowCursor() {
                    private int at;

                    @Override
                    public boolean next(double[] into) {
                        if (at == rows.length) {
                            return false;
                        }
                        System.arraycopy(rows[at++], 0, into, 0, 2);
                        return true;
                    }

                    @Override
                    public String position() {
                        return "row " + at;
                    }

                    @Override
                    public long rowsRead() {
                        return at;
                    }

                    @Override
                    public void close() {
                    }
                };
            }
        };
        ClippedRows rows = Clipping.l2(1.0).clip(withNaN);
        assertThatThrownBy(() -> {
            try (RowCursor c = rows.open()) {
                c.nextBlock(new double[8], 4, 2);
            }
        }).isInstanceOf(InvalidDataException.class).hasMessageContaining("row 3").hasMessageContaining("NaN or infinite");
    }

    @Test
    void blockReadsOfACsvNameTheFileLineOfARowOverTheBound(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path csv = dir.resolve("rows.csv");
        java.nio.file.Files.writeString(csv, "a,b\n0.1,0.2\n0.3,0.1\n3,4\n0,0\n");
        ClippedRows rows = CsvRows.builder(csv).build().requireL2(1.0);
        assertThatThrownBy(() -> {
            try (RowCursor c = rows.open()) {
                c.nextBlock(new double[8], 4, 2);
            }
        }).isInstanceOf(InvalidDataException.class).hasMessageContaining("row 3")
                .hasMessageContaining("rows.csv line 4").hasMessageContaining("L2 norm 5.0");
    }

    @Test
    void aPassClosedEarlyRecordsTheCountOfTheRowsItRead() {
        double[][] x = {{10, 0}, {0.1, 0}, {0, 10}, {5, 5}};
        ClippedRows clipped = InMemoryRows.of(x).clipL2(1);
        try (RowCursor c = clipped.open()) {
            double[] buf = new double[2];
            c.next(buf);
            c.next(buf);
        }
        assertThat(clipped.clippedRows()).isEqualTo(1);
        assertThat(clipped.rowsInLastPass()).isEqualTo(2);
    }

    @Test
    void boundsRecordTheUserGivenBoundAndPolicy() {
        RowSource rows = InMemoryRows.of(new double[][] {{1, 2}});
        assertThat(rows.clipL2(3).bounds()).contains(new DataBounds(DataBounds.Norm.L2, 3,
                DataBounds.Origin.USER_GIVEN, DataBounds.Policy.CLIP));
        assertThat(rows.requireL2(3).bounds().orElseThrow().policy()).isEqualTo(DataBounds.Policy.REJECT);
        assertThat(Clipping.trace(4).clip(rows).bounds().orElseThrow().l2Bound()).isEqualTo(2.0);
    }

    @Test
    void rejectModeNamesTheRowItsNormTheBoundAndTheRemedy() {
        RowSource rows = InMemoryRows.of(new double[][] {{0.1, 0.2}, {0.3, 0.1}, {3, 4}, {0, 0}});
        assertThatThrownBy(() -> drain(rows.requireL2(1.0))).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("row 3").hasMessageContaining("L2 norm 5.0")
                .hasMessageContaining("bound 1.0").hasMessageContaining("--clip-norm");
        assertThat(drain(rows.requireL2(5.0))).as("rows within the bound pass").isEqualTo(4);
        assertThatThrownBy(() -> drain(Clipping.l1(6.0).reject(rows))).hasMessageContaining("L1 norm 7.0");
    }

    @Test
    void badBoundsAreRefusedWithTheirValue() {
        assertThatThrownBy(() -> Clipping.l2(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got 0.0");
        assertThatThrownBy(() -> Clipping.l1(Double.NaN)).hasMessageContaining("NaN");
        assertThatThrownBy(() -> Clipping.trace(Double.POSITIVE_INFINITY)).hasMessageContaining("Infinity");
    }

    @Test
    void inMemoryRowsRefuseNonFiniteRaggedAndEmptyInput() {
        assertThatThrownBy(() -> InMemoryRows.of(new double[][] {{1, 2}, {3, Double.NaN}}))
                .isInstanceOf(InvalidDataException.class).hasMessageContaining("row 2 column 2 is NaN");
        assertThatThrownBy(() -> InMemoryRows.of(new double[][] {{Double.NEGATIVE_INFINITY}}))
                .hasMessageContaining("row 1 column 1 is -Infinity");
        assertThatThrownBy(() -> InMemoryRows.of(new double[][] {{1, 2}, {3}}))
                .hasMessageContaining("row 2 has 1 values but row 1 has 2");
        assertThatThrownBy(() -> InMemoryRows.of(new double[0][])).hasMessageContaining("no data rows");
        assertThatThrownBy(() -> InMemoryRows.of(new double[][] {{}})).hasMessageContaining("no columns");
    }

    @Test
    void inMemoryRowsAreACopy() {
        double[][] x = {{1, 2}};
        InMemoryRows rows = InMemoryRows.of(x);
        x[0][0] = 99;
        assertThat(rows.row(0)).containsExactly(1, 2);
    }
}
