package io.dpspectra.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.cli.Cli;
import io.dpspectra.cli.Main;
import io.dpspectra.cli.command.MemoryCheck;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Large d: the memory of a d x d algorithm is estimated before any row is read and a
 * run that cannot fit is refused with the figure and the fix; d >= 46,341 never overflows an index; an
 * OutOfMemoryError that still happens is a clean exit with the same hint.
 */
class LargeDimensionTest {
    @TempDir
    Path dir;

    /** A CSV of {@code rows} rows of width d (header x1..xd), row i having 0.5 in column i+1 only. */
    private Path wide(int d, int rows) throws Exception {
        StringBuilder sb = new StringBuilder(d * 8);
        for (int j = 1; j <= d; j++) {
            sb.append(j > 1 ? "," : "").append('x').append(j);
        }
        sb.append('\n');
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < d; j++) {
                sb.append(j > 0 ? "," : "").append(j == i % d ? "0.5" : "0");
            }
            sb.append('\n');
        }
        return Cli.write(dir, "wide.csv", sb.toString());
    }

    @Test
    void aDxDAlgorithmBeyondTheArrayLimitIsRefusedBeforeReadingAndAStreamingOneRuns() throws Exception {
        int d = 46_341; // d * d > 2^31 - 1
        Path csv = wide(d, 10);
        for (String[] args : new String[][] {
            {"fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6"},
            {"covariance", "--algorithm", "laplace", "--epsilon", "1"}}) {
            String[] all = java.util.Arrays.copyOf(args, args.length + 3);
            all[args.length] = "--clip-norm";
            all[args.length + 1] = "1";
            all[args.length + 2] = csv.toString();
            Cli.Result r = Cli.run(all);
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("d = 46341").contains("exceed what one Java array can hold")
                    .contains("k-dp-ojas").doesNotContain("overflow").doesNotContain("Exception");
        }
        Path model = dir.resolve("model.json");
        Cli.Result stream = Cli.run("fit", "--algorithm", "streaming-power", "-k", "1", "--iterations", "2",
                "--norm-bound", "1", "-o", model.toString(), csv.toString());
        assertThat(stream.exitCode()).as(stream.toString()).isZero();
        Cli.Result t = Cli.run("transform", "--model", model.toString(), csv.toString());
        assertThat(t.exitCode()).as(t.toString()).isZero();
        assertThat(t.out().lines().count()).isEqualTo(11);
        Cli.Result e = Cli.run("evaluate", "--model", model.toString(), csv.toString());
        assertThat(e.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(e.err()).contains("evaluate").contains("exceed what one Java array can hold");
    }

    @Test
    void theEstimateNamesTheFigureAndTheFix() {
        assertThatThrownBy(() -> MemoryCheck.checkDense("--algorithm analyze-gauss", 20_000, 1L << 30))
                .isInstanceOfSatisfying(CliException.class, ex -> {
                    assertThat(ex.exitCode()).isEqualTo(ExitCodes.USAGE);
                    // 4 matrices of 20000^2 doubles = 12.8 GB
                    assertThat(ex.getMessage()).contains("needs about 12.8 GB").contains("d = 20000")
                            .contains("at most 1.1 GB");
                    assertThat(ex.hint()).contains("JAVA_OPTS=-Xmx").contains("k-dp-ojas");
                });
        MemoryCheck.checkDense("--algorithm analyze-gauss", 1000, 1L << 30); // 32 MB: fits
        // 12.8 GB * 1.25 + 256 MB = 16.3e9 bytes = 15.1 GiB, rounded up
        assertThat(MemoryCheck.suggestedHeap(12.8e9)).isEqualTo("16g");
    }

    @Command(name = "hungry")
    static final class Hungry implements Callable<Integer> {
        @Override
        public Integer call() {
            throw new OutOfMemoryError("Java heap space");
        }
    }

    @Test
    void anOutOfMemoryErrorIsACleanExitWithTheMemoryHint() {
        CommandLine cl = Main.configure(new CommandLine(new Hungry()));
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        assertThat(cl.execute()).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).startsWith("dpspectra: error: out of memory (Java heap space)")
                .contains("hint: Java may use at most").contains("JAVA_OPTS=-Xmx").doesNotContain("\tat ");
        assertThat(Files.exists(Path.of("hungry"))).isFalse();
    }
}
