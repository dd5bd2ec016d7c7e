package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stochastic and power-method fit algorithms through the CLI: each runs, records its guarantee, and options
 * are validated.
 */
class StochasticPcaCliTest {
    @TempDir
    Path dir;

    private Path csv() throws Exception {
        return Cli.write(dir, "d.csv", Cli.smallCsv(400, 3));
    }

    @Test
    void everyStochasticAlgorithmFitsASmallFile() throws Exception {
        Path csv = csv();
        for (String alg : new String[] {"k-dp-ojas", "k-dp-pca", "k-dp-pca-adaptive", "dp-power-method"}) {
            Cli.Result r = Cli.run("fit", "--algorithm", alg, "-k", "1", "--epsilon", "1", "--delta", "1e-3",
                    "--seed", "1", "--clip-norm", "1", csv.toString());
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).contains("\"algorithm\"").contains(alg).contains("guarantee");
        }
        Cli.Result oja = Cli.run("fit", "--algorithm", "oja", "-k", "2", "--clip-norm", "1", csv.toString());
        assertThat(oja.exitCode()).as(oja.toString()).isZero();
        assertThat(oja.err()).contains("NOT differentially private");
        Cli.Result g2 = Cli.run("fit", "--algorithm", "dp-gauss-2", "-k", "1", "--epsilon", "1", "--delta", "1e-3",
                "--seed", "1", "--on-small-gap", "random-basis", "--clip-norm", "1", csv.toString());
        assertThat(g2.exitCode()).as(g2.toString()).isZero();
    }

    @Test
    void paperLiteralWarnsOnStderr() throws Exception {
        Cli.Result r = Cli.run("fit", "--algorithm", "k-dp-ojas", "-k", "1", "--epsilon", "1", "--delta", "1e-3",
                "--seed", "1", "--paper-literal", "--clip-norm", "1", csv().toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("NOT certified");
    }

    /** n = 400 (B = 20): PrivMean's 10 values per coordinate histogram cannot clear its threshold of thousands. */
    @Test
    void kDpPcaSaysOnStderrWhenItCannotRelease() throws Exception {
        Cli.Released rd = Cli.runWithDiagnostics(dir, "fit", "--algorithm", "k-dp-pca", "-k", "1", "--epsilon", "1",
                "--delta", "1e-3", "--seed", "1", "--clip-norm", "1", "--c1", "6", "--batch-use", "disjoint-halves",
                csv().toString());
        Cli.Result r = rd.result();
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("k-dp-pca cannot release at this size", "needs batch size B >=",
                "k-dp-pca-adaptive");
        assertThat(rd.diagnostics().get("preflight").asText()).contains("PrivMean: 10 values per coordinate histogram");
    }

    @Test
    void badStochasticOptionsAreUsageErrors() throws Exception {
        Path csv = csv();
        assertThat(Cli.run("fit", "--algorithm", "k-dp-ojas", "-k", "1", "--epsilon", "1", "--delta", "1e-3",
                "--learning-rate", "bogus", "--clip-norm", "1", csv.toString()).exitCode()).isEqualTo(2);
        assertThat(Cli.run("fit", "--algorithm", "k-dp-pca", "-k", "1", "--epsilon", "1", "--delta", "1e-3",
                "--batch-size", "2", "--clip-norm", "1", csv.toString()).exitCode()).isEqualTo(2);
        assertThat(Cli.run("fit", "--algorithm", "k-dp-ojas", "-k", "1", "--epsilon", "1", "--delta", "1e-3",
                "--neighbouring", "add-remove", "--clip-norm", "1", csv.toString()).exitCode()).isEqualTo(2);
        assertThat(Cli.run("fit", "--algorithm", "k-dp-pca", "-k", "1", "--epsilon", "1", "--delta", "1e-3",
                "--batch-use", "both", "--clip-norm", "1", csv.toString()).err()).contains("--batch-use");
        assertThat(Cli.run("fit", "--algorithm", "k-dp-pca-adaptive", "-k", "1", "--epsilon", "1", "--delta", "1e-3",
                "--radius-factor", "0.5", "--clip-norm", "1", csv.toString()).err()).contains("--radius-factor");
        assertThat(Cli.run("fit", "--algorithm", "k-dp-pca-adaptive", "-k", "1", "--epsilon", "1", "--delta", "1e-3",
                "--neighbouring", "add-remove", "--clip-norm", "1", csv.toString()).exitCode()).isEqualTo(2);
    }

    @Test
    void helpDocumentsTheStochasticOptions() {
        Cli.Result r = Cli.run("fit", "--help");
        assertThat(r.out()).contains("--batch-size", "--learning-rate", "--paper-literal", "--gradient-clip",
                "--public-range", "k-dp-ojas", "dp-gauss-2", "dp-power-method", "k-dp-pca-adaptive", "--c1", "--batch-use",
                "--radius-factor", "--public-eigenvalues");
    }
}
