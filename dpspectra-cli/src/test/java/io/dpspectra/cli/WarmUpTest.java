package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.data.csv.CsvRows;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The release warm-up: when it warms the CSV parser, and that doing so starts no reader or parser thread. */
class WarmUpTest {

    @TempDir
    Path dir;

    private Path sparseFile(String name, long size) throws IOException {
        Path p = dir.resolve(name);
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.setLength(size);
        }
        return p;
    }

    @Test
    void theParserIsWarmedForATextFileOfSixteenMegabytesOrMoreOnly() throws IOException {
        Path big = sparseFile("big.csv", 16L << 20);
        Path small = sparseFile("small.csv", (16L << 20) - 1);
        Path binary = sparseFile("big.dpsr", 64L << 20);
        assertThat(Main.largeTextInput(new String[] {"fit", "--algorithm", "exact", big.toString()})).isTrue();
        assertThat(Main.largeTextInput(new String[] {"fit", "--algorithm", "exact", small.toString()})).isFalse();
        assertThat(Main.largeTextInput(new String[] {"fit", binary.toString()})).isFalse();
        assertThat(Main.largeTextInput(new String[] {"fit", "-", dir.toString(), "no-such-file.csv", "\0bad"}))
                .as("stdin, a directory, a missing file and an invalid path").isFalse();
    }

    @Test
    void warmingTheParserStartsNoThread() {
        java.util.Set<Thread> before = parserThreads();
        CsvRows.warmUpParser();
        assertThat(before).containsAll(parserThreads());
    }

    private static java.util.Set<Thread> parserThreads() {
        java.util.Set<Thread> out = new java.util.HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("dpspectra-csv")) {
                out.add(t);
            }
        }
        return out;
    }
}
