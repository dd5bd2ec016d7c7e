package io.dpspectra.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.data.BinaryRows;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Backend;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Gram benchmark's data and its report. */
class GramBenchmarkTest {
    @TempDir
    Path dir;

    private static double[] firstRows(RowSource rows, int count) {
        int d = rows.dimension();
        double[] x = new double[count * d];
        try (RowCursor c = rows.open()) {
            assertThat(c.nextBlock(x, count, d)).isEqualTo(count);
        }
        return x;
    }

    @Test
    void benchmarkDataIsTheSameOnEveryPassUniformInMinusOneOneAndDiffersBetweenSeeds() {
        RowSource a = GramBenchmark.benchmarkData(50, 7, 3);
        double[] first = firstRows(a, 50);
        assertThat(firstRows(a, 50)).containsExactly(first);
        for (double v : first) {
            assertThat(v).isGreaterThanOrEqualTo(-1).isLessThan(1);
        }
        assertThat(firstRows(GramBenchmark.benchmarkData(50, 7, 4), 50)).isNotEqualTo(first);
        try (RowCursor c = a.open()) {
            double[] row = new double[7];
            int n = 0;
            while (c.next(row)) {
                n++;
            }
            assertThat(n).isEqualTo(50);
        }
    }

    @Test
    void reportListsItsKeysInOrderAndItsRatesFollowFromTheSecondsAndNdSquaredFlops() throws Exception {
        Path file = dir.resolve("b.dpsr");
        BinaryRows.write(GramBenchmark.benchmarkData(300, 20, 1), file);
        Map<String, Object> out = GramBenchmark.run(BinaryRows.open(file), Backend.PURE_JAVA, 64, 2);
        assertThat(List.copyOf(out.keySet())).containsExactly("benchmark", "backend", "rows", "dim", "blockRows",
                "repeat", "flopConvention", "streamedClippedSeconds", "streamedClippedGflops", "inMemorySeconds",
                "inMemoryGflops");
        assertThat(out.get("rows")).isEqualTo(300L);
        assertThat(out.get("dim")).isEqualTo(20);
        double flops = 300.0 * 20 * 20;
        for (String part : List.of("streamedClipped", "inMemory")) {
            double seconds = (double) out.get(part + "Seconds");
            assertThat(seconds).isPositive().isFinite();
            assertThat((double) out.get(part + "Gflops")).isCloseTo(flops / seconds / 1e9,
                    org.assertj.core.data.Percentage.withPercentage(1e-9));
        }
    }

    @Test
    void aMatrixTooLargeForOneArrayIsRefusedBeforeAnyTiming() {
        assertThat(GramBenchmark.fitsInMemory(46_000, 46_000)).isTrue();
        assertThat(GramBenchmark.fitsInMemory(50_000, 50_000)).isFalse();
    }
}
