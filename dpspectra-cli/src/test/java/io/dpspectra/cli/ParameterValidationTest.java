package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad parameters are exit 2 with a one-line readable error, before any data is read or written. */
class ParameterValidationTest {
    @TempDir
    Path dir;
    Path csv;
    Path out;

    @BeforeEach
    void setUp() throws Exception {
        csv = Cli.write(dir, "data.csv", Cli.smallCsv(20, 3));
        out = dir.resolve("model.json");
    }

    private void assertUsageError(Cli.Result r, String mentions) throws Exception {
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).as(r.toString()).startsWith("dpspectra: error: ").contains(mentions);
        assertThat(r.err()).as("no stack trace without --verbose").doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
        assertThat(Cli.files(dir)).containsExactly("data.csv");
    }

    /**
     * Each row: what is wrong, the command line (placeholders {csv}, {out} and {dir} for the fixture paths,
     * split at spaces), and what the error must mention. k is checked against the file's width (CsvRows).
     */
    static Stream<Arguments> usageErrors() {
        return Stream.of(
            Arguments.of("epsilon zero is a usage error",
                "fit --algorithm analyze-gauss -k 1 --epsilon 0 --delta 1e-6 --clip-norm 1 --output {out} {csv}",
                "epsilon"),
            Arguments.of("negative epsilon is a usage error for covariance",
                "covariance --algorithm laplace --epsilon -1 --clip-norm 1 {csv}",
                "epsilon"),
            Arguments.of("delta one is a usage error",
                "fit --algorithm analyze-gauss -k 1 --epsilon 1 --delta 1 --clip-norm 1 --output {out} {csv}",
                "delta"),
            Arguments.of("gaussian mechanism without delta is a usage error",
                "fit --algorithm analyze-gauss -k 1 --epsilon 1 --clip-norm 1 {csv}",
                "delta"),
            Arguments.of("missing epsilon for a private algorithm is a usage error",
                "fit --algorithm analyze-gauss -k 1 --delta 1e-6 --clip-norm 1 {csv}",
                "--epsilon"),
            Arguments.of("missing norm bound is a usage error",
                "fit --algorithm analyze-gauss -k 1 --epsilon 1 --delta 1e-6 {csv}",
                "--clip-norm"),
            Arguments.of("both norm bounds are a usage error",
                "fit --algorithm analyze-gauss -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 --norm-bound 1 {csv}",
                "mutually exclusive"),
            Arguments.of("non positive clip norm is a usage error",
                "fit --algorithm exact -k 1 --clip-norm 0 {csv}",
                "--clip-norm must be > 0"),
            Arguments.of("unknown algorithm is a usage error",
                "fit --algorithm nope -k 1 --epsilon 1 --clip-norm 1 {csv}",
                "nope"),
            Arguments.of("unknown neighbouring is a usage error",
                "fit --algorithm analyze-gauss -k 1 --epsilon 1 --delta 1e-6 --neighbouring sideways"
                        + " --clip-norm 1 {csv}",
                "sideways"),
            Arguments.of("unknown option is a usage error",
                "fit --algorithm analyze-gauss -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 --frobnicate {csv}",
                "--frobnicate"),
            Arguments.of("missing command is a usage error",
                "",
                "command"),
            Arguments.of("output into a missing directory is a usage error",
                "fit --algorithm analyze-gauss -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1"
                        + " --output {dir}/no/such/dir/m.json {csv}",
                "does not exist"),
            Arguments.of("more components than columns is a usage error",
                "fit --algorithm analyze-gauss -k 4 --epsilon 1 --delta 1e-6 --clip-norm 1 --output {out} {csv}",
                "components"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("usageErrors")
    void badParametersAreAUsageError(String what, String commandLine, String mentions) throws Exception {
        String[] args = commandLine.isEmpty() ? new String[0] : commandLine.split(" ");
        for (int i = 0; i < args.length; i++) { // after splitting, so that paths may contain spaces
            args[i] = args[i].replace("{csv}", csv.toString()).replace("{out}", out.toString())
                    .replace("{dir}", dir.toString());
        }
        assertUsageError(Cli.run(args), mentions);
    }

    @Test
    void missingInputFileIsADataError() throws Exception {
        Cli.Result r = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1",
                "--delta", "1e-6", "--clip-norm", "1", dir.resolve("absent.csv").toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(r.err()).startsWith("dpspectra: error: ").contains("absent.csv").contains("does not exist");
    }

    @Test
    void verbosePrintsTheStackTrace() throws Exception {
        Cli.Result r = Cli.run("fit", "--verbose", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "0",
                "--delta", "1e-6", "--clip-norm", "1", csv.toString());
        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("\tat ");
    }
}
