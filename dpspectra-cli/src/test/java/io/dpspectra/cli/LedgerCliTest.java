package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerCliTest {
    @TempDir
    Path dir;

    @Test
    void theSecondReleaseThatWouldExceedTheLedgerIsRefusedBeforeReadingData() throws Exception {
        Path ledger = dir.resolve("budget.ledger");
        assertThat(Cli.run("ledger", "init", "--epsilon", "1.5", "--delta", "1e-6", ledger.toString()).exitCode()).isZero();
        Path data = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        Cli.Result first = Cli.run("covariance", "--algorithm", "laplace", "--epsilon", "1", "--clip-norm", "1",
                "--ledger", ledger.toString(), data.toString());
        assertThat(first.exitCode()).as(first.toString()).isZero();
        // the second call names a file that cannot be read: it must be refused on the budget before any read
        Path unreadable = dir.resolve("no-such-data.csv");
        Cli.Result second = Cli.run("covariance", "--algorithm", "laplace", "--epsilon", "1", "--clip-norm", "1",
                "--ledger", ledger.toString(), unreadable.toString());
        assertThat(second.exitCode()).as(second.toString()).isEqualTo(ExitCodes.BUDGET_REFUSED);
        assertThat(second.err()).contains("leaving (ε=0.5, δ=1.0E-6)");
        Cli.Result show = Cli.run("ledger", "show", ledger.toString());
        assertThat(show.exitCode()).isZero();
        assertThat(Json.MAPPER.readTree(show.out()).get("spends")).hasSize(1);
        // within what remains, it is accepted and recorded
        Cli.Result third = Cli.run("fit", "--algorithm", "it-u", "-k", "1", "--epsilon", "0.5", "--clip-norm", "1",
                "--ledger", ledger.toString(), data.toString());
        assertThat(third.exitCode()).as(third.toString()).isZero();
        // it-u without --eigenvalues gives the whole budget to the vector and releases no eigenvalues
        assertThat(Json.MAPPER.readTree(third.out()).has("explainedVariance")).isFalse();
        assertThat(third.out()).contains("vectors only");
        assertThat(Files.readString(ledger)).contains("fit --algorithm it-u");
    }
}
