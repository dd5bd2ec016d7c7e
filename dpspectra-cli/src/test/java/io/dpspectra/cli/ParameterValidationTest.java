package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void epsilonZeroIsAUsageError() throws Exception {
        assertUsageError(Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "0",
                "--delta", "1e-6", "--clip-norm", "1", "--output", out.toString(), csv.toString()), "epsilon");
    }

    @Test
    void negativeEpsilonIsAUsageErrorForCovariance() throws Exception {
        assertUsageError(Cli.run("covariance", "--algorithm", "laplace", "--epsilon", "-1",
                "--clip-norm", "1", csv.toString()), "epsilon");
    }

    @Test
    void deltaOneIsAUsageError() throws Exception {
        assertUsageError(Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1",
                "--delta", "1", "--clip-norm", "1", "--output", out.toString(), csv.toString()), "delta");
    }

    @Test
    void gaussianMechanismWithoutDeltaIsAUsageError() throws Exception {
        assertUsageError(Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1",
                "--clip-norm", "1", csv.toString()), "delta");
    }

    @Test
    void missingEpsilonForAPrivateAlgorithmIsAUsageError() throws Exception {
        assertUsageError(Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--delta", "1e-6",
                "--clip-norm", "1", csv.toString()), "--epsilon");
    }

    @Test
    void missingNormBoundIsAUsageError() throws Exception {
        assertUsageError(Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1",
                "--delta", "1e-6", csv.toString()), "--clip-norm");
    }

    @Test
    void bothNormBoundsAreAUsageError() throws Exception {
        assertUsageError(Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1",
                "--delta", "1e-6", "--clip-norm", "1", "--norm-bound", "1", csv.toString()), "mutually exclusive");
    }

    @Test
    void nonPositiveClipNormIsAUsageError() throws Exception {
        assertUsageError(Cli.run("fit", "--algorithm", "exact", "-k", "1",
                "--clip-norm", "0", csv.toString()), "--clip-norm must be > 0");
    }

    @Test
    void unknownAlgorithmIsAUsageError() throws Exception {
        assertUsageError(Cli.run("fit", "--algorithm", "nope", "-k", "1", "--epsilon", "1",
                "--clip-norm", "1", csv.toString()), "nope");
    }

    @Test
    void unknownNeighbouringIsAUsageError() throws Exception {
        assertUsageError(Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1",
                "--delta", "1e-6", "--neighbouring", "sideways", "--clip-norm", "1", csv.toString()), "sideways");
    }

    @Test
    void unknownOptionIsAUsageError() throws Exception {
        assertUsageError(Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1",
                "--delta", "1e-6", "--clip-norm", "1", "--frobnicate", csv.toString()), "--frobnicate");
    }

    @Test
    void missingCommandIsAUsageError() throws Exception {
        assertUsageError(Cli.run(), "command");
    }

    @Test
    void outputIntoAMissingDirectoryIsAUsageError() throws Exception {
        assertUsageError(Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1",
                "--delta", "1e-6", "--clip-norm", "1", "--output", dir.resolve("no/such/dir/m.json").toString(),
                csv.toString()), "does not exist");
    }

    /** Depends on CsvRows (wp-data): k is checked against the file's width. */
    @Test
    void moreComponentsThanColumnsIsAUsageError() throws Exception {
        assertUsageError(Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "4", "--epsilon", "1",
                "--delta", "1e-6", "--clip-norm", "1", "--output", out.toString(), csv.toString()), "components");
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
