package io.dpspectra.data.csv;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.data.GramPass;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Gram pass over a CSV file larger than the heap succeeds in a JVM started with -Xmx64m: the reader
 * holds a few pieces of the file, never the file or its rows.
 */
class CsvPeakHeapTest {
    @TempDir
    Path dir;

    /** Run in the child JVM: one Gram pass over args[0]; prints the row count. */
    public static void main(String[] args) {
        GramPass pass = GramPass.of(CsvRows.open(Path.of(args[0])));
        System.out.println("rows=" + pass.rows());
    }

    @Test
    void aGramPassOverAFileLargerThanTheHeapRunsAt64Megabytes() throws Exception {
        Path csv = dir.resolve("large.csv");
        SplittableRandom rnd = new SplittableRandom(11);
        int d = 30;
        long n = 0;
        try (BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.US_ASCII)) {
            StringBuilder sb = new StringBuilder();
            for (; n < 130_000; n++) {
                sb.setLength(0);
                for (int j = 0; j < d; j++) {
                    sb.append(j == 0 ? "" : ",").append(rnd.nextGaussian());
                }
                w.write(sb.append('\n').toString());
            }
        }
        assertThat(Files.size(csv)).isGreaterThan(64L << 20);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                CsvPeakHeapTest.class.getName(), csv.toString())).redirectErrorStream(true).start();
        String out;
        try (var in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("rows=" + n);
    }
}
