package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.output.ExitCodes;
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
        // in the user's words: no Java class, method or field names, no doubled prefixes, no parser internals
        assertThat(r.err()).as(r.toString()).doesNotContainPattern("\\b[a-z]+[A-Z][A-Za-z]*\\b")
                .doesNotContain("Exception").doesNotContain("Error:").doesNotContain("error: error")
                .doesNotContain("index").doesNotContain("picocli").doesNotContain(".tmp").doesNotContain("\u001b");
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
                "components"),
            Arguments.of("a second input file is named as such",
                "fit --algorithm analyze-gauss -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 {csv} {csv}",
                "unexpected second input file"),
            Arguments.of("an unknown command suggests the nearest one",
                "fitt --algorithm exact",
                "unknown command 'fitt'\nhint: did you mean 'fit'?"),
            Arguments.of("an unknown option suggests the nearest one",
                "fit --algorithm analyze-gauss -k 1 --epsilonn 1 --delta 1e-6 --clip-norm 1 {csv}",
                "unknown option --epsilonn\nhint: did you mean --epsilon?"),
            Arguments.of("a misspelt required option is named, not reported missing",
                "fit --algorthm analyze-gauss -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 {csv}",
                "unknown option --algorthm\nhint: did you mean --algorithm?"),
            Arguments.of("missing options are listed as typed",
                "fit {csv}",
                "missing --algorithm NAME and --components K"),
            Arguments.of("a non-number says so",
                "fit --algorithm analyze-gauss -k x --epsilon 1 --delta 1e-6 --clip-norm 1 {csv}",
                "--components must be a whole number"),
            Arguments.of("a non-number epsilon says so",
                "fit --algorithm analyze-gauss -k 1 --epsilon abc --delta 1e-6 --clip-norm 1 {csv}",
                "--epsilon: 'abc' is not a number"),
            Arguments.of("a bad choice lists the choices",
                "fit --algorithm exact -k 1 --clip-norm 1 --format xml {csv}",
                "--format must be one of json, compact, table, npy, got 'xml'"),
            Arguments.of("an option given twice says so",
                "fit --algorithm analyze-gauss -k 1 --epsilon 1 --epsilon 2 --delta 1e-6 --clip-norm 1 {csv}",
                "--epsilon E was given twice"),
            Arguments.of("both bounds name both options",
                "fit --algorithm exact -k 1 --clip-norm 1 --norm-bound 2 {csv}",
                "--clip-norm, --norm-bound are mutually exclusive: give only one of them"),
            Arguments.of("column numbers are 1-based",
                "fit --algorithm analyze-gauss -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 --columns 0 {csv}",
                "column numbers are 1-based: 0 names no column"),
            Arguments.of("a bad gradient clip names the option typed",
                "fit --algorithm k-dp-ojas -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 --gradient-clip -1 {csv}",
                "--gradient-clip must be > 0"),
            Arguments.of("a block size below k names the options typed",
                "fit --algorithm private-power -k 2 --block-size 1 --epsilon 1 --delta 1e-6 --clip-norm 1 {csv}",
                "--block-size must be >= --components = 2"),
            Arguments.of("an epsilon too small to calibrate noise says so",
                "covariance --algorithm laplace --epsilon 1e-300 --clip-norm 1 {csv}",
                "is too small"),
            Arguments.of("an option the algorithm does not use is refused",
                "fit --algorithm analyze-gauss -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 --paper-literal {csv}",
                "--paper-literal does not apply to --algorithm analyze-gauss"),
            Arguments.of("an output that is the input is refused",
                "fit --algorithm exact -k 1 --clip-norm 1 --output {csv} {csv}",
                "is the input file"),
            Arguments.of("diagnostics and output in one file is refused",
                "fit --algorithm exact -k 1 --clip-norm 1 --output {out} --diagnostics {out} {csv}",
                "--diagnostics and --output name the same file"),
            Arguments.of("an unwritable output says so",
                "fit --algorithm exact -k 1 --clip-norm 1 --output /proc/dpspectra-test.json {csv}",
                "--output /proc/dpspectra-test.json"),
            Arguments.of("control bytes from the command line are escaped",
                "fit --algorithm \u001b[31mred -k 1 --epsilon 1 --clip-norm 1 {csv}",
                "unknown --algorithm '\\u001b[31mred'"),
            Arguments.of("an inapplicable covariance option is refused",
                "covariance --algorithm laplace --skip-last-vector --epsilon 1 --clip-norm 1 {csv}",
                "--skip-last-vector does not apply to --algorithm laplace"),
            Arguments.of("a sampler under add-remove is refused",
                "covariance --algorithm it-u --neighbouring add-remove --epsilon 1 --clip-norm 1 {csv}",
                "replace neighbouring only"));
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
    void controlBytesFromAnInputFileAreEscapedInTheMessage() throws Exception {
        Path bad = Cli.write(dir, "bad.csv", "a,b\n1,2\n3,x\u001b[2Jx\n");
        Cli.Result r = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "1", bad.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(r.err()).doesNotContain("\u001b").contains("x\\u001b[2Jx");
    }

    @Test
    void verbosePrintsTheStackTrace() throws Exception {
        Cli.Result r = Cli.run("fit", "--verbose", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "0",
                "--delta", "1e-6", "--clip-norm", "1", csv.toString());
        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("\tat ");
    }
}
