package io.dpspectra.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.BinaryRows;
import io.dpspectra.linalg.Backend;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pass benchmark's steps and its report. */
class PassBenchmarkTest {
    @TempDir
    Path dir;

    @Test
    void reportsEveryStepWithRatesAndRatiosThatFollowFromItsTimesAndTheTwoGramsAgreeBitForBit() {
        Path file = dir.resolve("p.dpsr");
        BinaryRows.write(GramBenchmark.benchmarkData(700, 30, 2), file);
        Map<String, Object> out = PassBenchmark.run(file, 1.0, 3, Backend.PURE_JAVA, 2);
        List<String> keys = new ArrayList<>(List.of("benchmark", "backend", "file", "rows", "dim", "gigabytes",
                "clipNorm", "p", "blockRows", "repeat", "cores", "loadAverageBefore"));
        for (String s : PassBenchmark.STEPS) {
            keys.addAll(List.of(s + "Seconds", s + "CpuSeconds", s + "GBps", s + "GBperCpuSecond"));
        }
        for (String suffix : List.of("", "Cpu")) {
            for (String r : List.of("decodeOverRaw", "decodeClipOverRaw", "streamingProductOverRaw",
                    "fileGramOverInMemory")) {
                keys.add(r + suffix);
            }
        }
        keys.addAll(List.of("gramsBitIdentical", "loadAverageAfter"));
        assertThat(List.copyOf(out.keySet())).containsExactlyElementsOf(keys);
        double gb = 8.0 * 700 * 30 / 1e9;
        assertThat((double) out.get("gigabytes")).isEqualTo(gb);
        for (String s : PassBenchmark.STEPS) {
            double seconds = (double) out.get(s + "Seconds");
            assertThat(seconds).isPositive().isFinite();
            assertThat((double) out.get(s + "GBps")).isCloseTo(gb / seconds, Percentage.withPercentage(1e-9));
        }
        assertThat((double) out.get("decodeClipOverRaw"))
                .isCloseTo((double) out.get("decodeClipSeconds") / (double) out.get("rawReadSeconds"),
                        Percentage.withPercentage(1e-9));
        assertThat((double) out.get("fileGramOverInMemory"))
                .isCloseTo((double) out.get("fileGramSeconds") / (double) out.get("inMemoryGramSeconds"),
                        Percentage.withPercentage(1e-9));
        assertThat(out.get("gramsBitIdentical")).isEqualTo(true);
    }

    @Test
    void refusesAClipNormThatIsNotPositiveAndABlockWiderThanTheRows() {
        Path file = dir.resolve("q.dpsr");
        BinaryRows.write(GramBenchmark.benchmarkData(10, 4, 1), file);
        assertThatThrownBy(() -> PassBenchmark.run(file, 0, 2, Backend.PURE_JAVA, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clipNorm > 0");
        assertThatThrownBy(() -> PassBenchmark.run(file, 1, 5, Backend.PURE_JAVA, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("p <= d");
    }
}
