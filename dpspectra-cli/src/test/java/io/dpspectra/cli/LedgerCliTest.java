package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
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

    @Test
    void aZcdpLedgerAdmitsFourGaussianFitsThatBasicCompositionRefusesAndRefusesWhenRhoIsExhausted() throws Exception {
        Path data = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        Path basic = dir.resolve("basic.ledger");
        Path zcdp = dir.resolve("zcdp.ledger");
        assertThat(Cli.run("ledger", "init", "--epsilon", "1", "--delta", "1e-6", basic.toString()).exitCode()).isZero();
        Cli.Result init = Cli.run("ledger", "init", "--accounting", "zcdp", "--epsilon", "1", "--delta", "1e-6",
                zcdp.toString());
        assertThat(init.exitCode()).as(init.toString()).isZero();
        String[] fit = {"fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "0.3", "--delta", "1e-8",
            "--clip-norm", "1", "--ledger"};
        int basicAdmitted = 0;
        int zcdpAdmitted = 0;
        for (int i = 0; i < 4; i++) {
            basicAdmitted += Cli.run(concat(fit, basic.toString(), data.toString())).exitCode() == 0 ? 1 : 0;
            Cli.Result r = Cli.run(concat(fit, zcdp.toString(), data.toString()));
            assertThat(r.exitCode()).as(r.toString()).isZero();
            zcdpAdmitted++;
        }
        assertThat(basicAdmitted).isEqualTo(3); // 4 x 0.3 > 1
        assertThat(zcdpAdmitted).isEqualTo(4);
        com.fasterxml.jackson.databind.JsonNode show = Json.MAPPER.readTree(Cli.run("ledger", "show", zcdp.toString()).out());
        assertThat(show.get("accounting").asText()).isEqualTo("zcdp");
        assertThat(show.get("spentBasic").get("epsilon").asDouble()).isCloseTo(1.2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(show.get("spentZcdp").get("epsilon").asDouble()).isLessThan(1.0);
        assertThat(show.get("spends").get(0).get("rho").asDouble()).isPositive();
        // a large Gaussian fit no longer fits the remaining rho: refused before reading (the file does not exist)
        Cli.Result big = Cli.run(concat(new String[] {"fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "0.9",
            "--delta", "1e-8", "--clip-norm", "1", "--ledger"}, zcdp.toString(), dir.resolve("absent.csv").toString()));
        assertThat(big.exitCode()).as(big.toString()).isEqualTo(ExitCodes.BUDGET_REFUSED);
        assertThat(big.err()).contains("leaving rho=");
        // a ledger made for pure epsilon cannot use zCDP
        assertThat(Cli.run("ledger", "init", "--accounting", "zcdp", "--epsilon", "1", dir.resolve("p").toString())
                .exitCode()).isEqualTo(2);
    }

    /**
     * The yardstick of PLD accounting: from a (1, 1e-6) ledger, analyze-gauss releases of (0.25, 1e-8) each. Basic
     * composition admits 4 and zCDP 12; the exact composition of the Gaussian mechanisms admits 20, and the 21st is
     * refused before any data is read (its input does not exist).
     */
    @Test
    void aPldLedgerAdmitsTwentyAnalyzeGaussFitsAndRefusesTheTwentyFirstBeforeReadingData() throws Exception {
        Path data = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        Path pld = dir.resolve("pld.ledger");
        Cli.Result init = Cli.run("ledger", "init", "--accounting", "pld", "--epsilon", "1", "--delta", "1e-6",
                pld.toString());
        assertThat(init.exitCode()).as(init.toString()).isZero();
        assertThat(init.err()).contains("PLD accounting");
        String[] fit = {"fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "0.25", "--delta", "1e-8",
            "--clip-norm", "1", "--ledger"};
        for (int i = 0; i < 20; i++) {
            Cli.Result r = Cli.run(concat(fit, pld.toString(), data.toString()));
            assertThat(r.exitCode()).as("fit %s: %s", i + 1, r).isZero();
        }
        String before = Files.readString(pld);
        Cli.Result refused = Cli.run(concat(fit, pld.toString(), dir.resolve("absent.csv").toString()));
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCodes.BUDGET_REFUSED);
        assertThat(refused.err()).contains("PLD accounting").contains("leaving one more Gaussian release")
                .doesNotContainIgnoringCase("no such file").doesNotContainIgnoringCase("cannot read");
        assertThat(Files.readString(pld)).isEqualTo(before);
        com.fasterxml.jackson.databind.JsonNode show = Json.MAPPER.readTree(Cli.run("ledger", "show", pld.toString()).out());
        assertThat(show.get("accounting").asText()).isEqualTo("pld");
        assertThat(show.get("spends")).hasSize(20);
        assertThat(show.get("spentBasic").get("epsilon").asDouble()).isCloseTo(5.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(show.get("spentPld").get("epsilon").asDouble()).isLessThanOrEqualTo(1.0).isGreaterThan(0.95);
        assertThat(show.get("spends").get(0).get("profile").asText()).startsWith("Gaussian noise, mu = ");
        // a PLD ledger needs a delta, and only the three accountings exist
        assertThat(Cli.run("ledger", "init", "--accounting", "pld", "--epsilon", "1", dir.resolve("p").toString())
                .exitCode()).isEqualTo(2);
        Cli.Result bad = Cli.run("ledger", "init", "--accounting", "rdp", "--epsilon", "1", "--delta", "1e-6",
                dir.resolve("q").toString());
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("basic, zcdp or pld");
    }

    /**
     * What a PLD ledger records for each kind of release: the Gaussian-only estimators (private-power with delta,
     * k-dp-ojas, dp-ggd) as a Gaussian mechanism, pure-epsilon releases as pure, and releases of no tighter known
     * profile (dp-sggd's subsampled steps, whose rate needs the row count) as their (epsilon, delta) point.
     */
    @Test
    void aPldLedgerRecordsWhatEachReleaseRan() throws Exception {
        Path data = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        Path pld = dir.resolve("kinds.ledger");
        assertThat(Cli.run("ledger", "init", "--accounting", "pld", "--epsilon", "8", "--delta", "1e-5",
                pld.toString()).exitCode()).isZero();
        String[][] releases = {
            {"fit", "--algorithm", "private-power", "-k", "1", "--iterations", "3", "--epsilon", "0.5", "--delta",
                "1e-7"},
            {"fit", "--algorithm", "k-dp-ojas", "-k", "1", "--epsilon", "0.5", "--delta", "1e-7"},
            {"fit", "--algorithm", "dp-ggd", "-k", "1", "--iterations", "5", "--epsilon", "0.5", "--delta", "1e-7"},
            {"fit", "--algorithm", "dp-sggd", "-k", "1", "--iterations", "5", "--batch-size", "5", "--epsilon", "0.5",
                "--delta", "1e-7"},
            {"covariance", "--algorithm", "laplace", "--epsilon", "0.5"},
        };
        for (String[] r : releases) {
            Cli.Result run = Cli.run(concat(r, "--clip-norm", "1", "--ledger", pld.toString(), data.toString()));
            assertThat(run.exitCode()).as(run.toString()).isZero();
        }
        java.util.List<String> profiles = Files.readAllLines(pld).stream().filter(l -> l.startsWith("spend "))
                .map(l -> l.replaceAll(".* profile=(\\S+) .*", "$1")).toList();
        assertThat(profiles).hasSize(5);
        assertThat(profiles.subList(0, 3)).allSatisfy(p -> assertThat(p).startsWith("gaussian(mu="));
        assertThat(profiles.get(3)).isEqualTo("point(epsilon=0.5,delta=1.0E-7)");
        assertThat(profiles.get(4)).isEqualTo("pure(epsilon=0.5)");
        // the three Gaussian releases compose to less than their basic sum, and the ledger says so
        com.fasterxml.jackson.databind.JsonNode show = Json.MAPPER.readTree(Cli.run("ledger", "show", pld.toString()).out());
        assertThat(show.get("spentPld").get("epsilon").asDouble())
                .isLessThan(show.get("spentBasic").get("epsilon").asDouble());
    }

    private static String[] concat(String[] head, String... tail) {
        String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}
