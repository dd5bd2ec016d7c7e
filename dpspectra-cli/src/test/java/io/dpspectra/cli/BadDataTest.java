package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.output.ExitCodes;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input data is exit 3 with a message naming the line (CSV) or row (.dpsr), and no output file is
 * written. A CSV is checked in a validation pass before any algorithm; a .dpsr file in the algorithm's pass.
 */
class BadDataTest {
    @TempDir
    Path dir;

    private Cli.Result fit(Path csv, String boundOption, Path out) {
        return Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
                boundOption, "1", "--output", out.toString(), csv.toString());
    }

    private void assertDataErrorNamingLine(Cli.Result r, int line) throws Exception {
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(r.err()).as(r.toString()).startsWith("dpspectra: error: ").containsPattern("line " + line + "\\b");
        assertThat(r.err()).doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void nanCellIsADataErrorNamingTheLineAndWritesNothing() throws Exception {
        Path csv = Cli.write(dir, "nan.csv", "a,b\n0.1,0.2\n0.3,NaN\n0.1,0.1\n");
        Path out = dir.resolve("model.json");
        assertDataErrorNamingLine(fit(csv, "--clip-norm", out), 3);
        assertThat(Cli.files(dir)).containsExactly("nan.csv");
    }

    @Test
    void raggedRowIsADataErrorNamingTheLineAndWritesNothing() throws Exception {
        Path csv = Cli.write(dir, "ragged.csv", "a,b\n0.1,0.2\n0.3,0.1\n0.1\n0.2,0.2\n");
        Path out = dir.resolve("model.json");
        assertDataErrorNamingLine(fit(csv, "--clip-norm", out), 4);
        assertThat(Cli.files(dir)).containsExactly("ragged.csv");
    }

    @Test
    void rowOverTheNormBoundIsADataErrorNamingTheLineAndWritesNothing() throws Exception {
        Path csv = Cli.write(dir, "big.csv", "a,b\n0.1,0.2\n0.3,0.1\n3.0,4.0\n0.2,0.2\n");
        Path out = dir.resolve("model.json");
        Cli.Result r = fit(csv, "--norm-bound", out);
        assertDataErrorNamingLine(r, 4);
        assertThat(r.err()).contains("5.0").contains("--clip-norm");
        assertThat(Cli.files(dir)).containsExactly("big.csv");
    }

    @Test
    void rowOverTheNormBoundInABinaryFileFailsInsideTheAlgorithmAndWritesNothing() throws Exception {
        Path csv = Cli.write(dir, "big.csv", "a,b\n0.1,0.2\n0.3,0.1\n3.0,4.0\n0.2,0.2\n");
        Path bin = dir.resolve("big.dpsr");
        assertThat(Cli.run("convert", csv.toString(), bin.toString()).exitCode()).isZero();
        Path out = dir.resolve("model.json");
        Cli.Result r = fit(bin, "--norm-bound", out);
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(r.err()).contains("big.dpsr row 3").contains("5.0").contains("--clip-norm").doesNotContain("\tat ");
        assertThat(Cli.files(dir)).containsExactlyInAnyOrder("big.csv", "big.dpsr");
    }

    @Test
    void theSameRowIsAcceptedWhenClipped() throws Exception {
        // with --clip-norm the row of norm 5 is scaled onto the bound instead of rejected; the run gets past
        // validation (its exit code then depends on the algorithm, which must not be a data error)
        Path csv = Cli.write(dir, "big.csv", "a,b\n0.1,0.2\n0.3,0.1\n3.0,4.0\n0.2,0.2\n");
        Cli.Result r = Cli.run("fit", "--algorithm", "exact", "-k", "1", "--clip-norm", "1", csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isNotEqualTo(ExitCodes.BAD_DATA);
    }

    @Test
    void nonNumericCellInConvertIsADataErrorAndLeavesNoOutput() throws Exception {
        Path csv = Cli.write(dir, "text.csv", "a,b\n0.1,0.2\n0.3,abc\n");
        Cli.Result r = Cli.run("convert", csv.toString(), dir.resolve("out.dpsr").toString());
        assertDataErrorNamingLine(r, 3);
        assertThat(Cli.files(dir)).containsExactly("text.csv");
    }
}
