package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Every command that takes {@code --ledger}, found in picocli's model of the command tree (so a new one is
 * covered, or this test names it), refuses an overspend before it reads anything and records what it spends;
 * a run refused before its first row is read (a missing input, a width too large for memory) is not charged.
 */
class LedgerChargeTest {
    @TempDir
    Path dir;

    /**
     * A run of each command that takes --ledger, spending epsilon = 0.5: {ledger}, {data} (the rows or
     * matrix it reads) and {out} are filled in.
     */
    private static final Map<String, List<String>> RUNS = Map.of(
            "fit", List.of("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "0.5", "--delta", "1e-6",
                    "--clip-norm", "1", "--ledger", "{ledger}", "-o", "{out}", "{data}"),
            "covariance", List.of("covariance", "--algorithm", "laplace", "--epsilon", "0.5", "--clip-norm", "1",
                    "--ledger", "{ledger}", "-o", "{out}", "{data}"),
            "spectral", List.of("spectral", "--matrix", "{graph}", "--nodes", "3", "-k", "1", "--epsilon", "0.5",
                    "--delta", "1e-6", "--ledger", "{ledger}", "-o", "{out}"),
            "ldp randomize", List.of("ldp", "randomize", "--epsilon", "0.5", "--delta", "1e-6", "--clip-norm", "1",
                    "--ledger", "{ledger}", "--output", "{out}", "{data}"),
            "schema draft", List.of("schema", "draft", "--private-epsilon", "0.5", "--ledger", "{ledger}", "-o",
                    "{out}", "{data}"));

    /** The commands whose options include --ledger, by their names under 'dpspectra'. */
    static List<String> commandsTakingALedger() {
        List<String> found = new ArrayList<>();
        collect(Main.newCommandLine(), found);
        return found;
    }

    private static void collect(CommandLine cl, List<String> found) {
        if (cl.getCommandSpec().findOption("--ledger") != null) {
            found.add(cl.getCommandSpec().qualifiedName().substring("dpspectra ".length()));
        }
        cl.getSubcommands().values().forEach(sub -> collect(sub, found));
    }

    @Test
    void everyCommandThatTakesALedgerIsExercisedHere() {
        assertThat(new TreeSet<>(commandsTakingALedger())).as("add a run of each new --ledger command to RUNS")
                .isEqualTo(new TreeSet<>(RUNS.keySet()));
    }

    @ParameterizedTest
    @MethodSource("commandsTakingALedger")
    void refusesAnOverspendBeforeReadingAndRecordsItsSpend(String command) throws Exception {
        // enough rows for a private schema draft at epsilon = 0.5 over 3 columns (its planner refuses 60 rows)
        Path data = Cli.write(dir, "data.csv", Cli.smallCsv(5000, 3));
        Path graph = Cli.write(dir, "graph.csv", "u,v\n0,1\n1,2\n2,0\n");
        Path out = dir.resolve("out.json");

        // too little left: refused with exit 4 although the data file does not exist (nothing was read)
        Path small = dir.resolve("small.ledger");
        assertThat(Cli.run("ledger", "init", "--epsilon", "0.4", "--delta", "1e-5", small.toString()).exitCode()).isZero();
        byte[] before = Files.readAllBytes(small);
        Cli.Result refused = Cli.run(args(command, small, dir.resolve("absent.csv"), dir.resolve("absent-graph.csv"),
                out));
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCodes.BUDGET_REFUSED);
        assertThat(refused.err()).contains("leaving");
        assertThat(Files.readAllBytes(small)).isEqualTo(before);
        assertThat(out).doesNotExist();

        // enough left: the spend is recorded, once, with what the command spent and its name
        Path ledger = dir.resolve("budget.ledger");
        assertThat(Cli.run("ledger", "init", "--epsilon", "1.2", "--delta", "1e-5", ledger.toString()).exitCode()).isZero();
        Cli.Result ran = Cli.run(args(command, ledger, data, graph, out));
        assertThat(ran.exitCode()).as(ran.toString()).isZero();
        JsonNode spends = Json.MAPPER.readTree(Cli.run("ledger", "show", ledger.toString()).out()).get("spends");
        assertThat(spends).hasSize(1);
        assertThat(spends.get(0).get("epsilon").asDouble()).isEqualTo(0.5);
        assertThat(spends.get(0).get("purpose").asText()).startsWith(command);

        // spends add up: a second run fits (1.0 of 1.2), a third does not and changes nothing
        Files.deleteIfExists(out);
        assertThat(Cli.run(args(command, ledger, data, graph, out)).exitCode()).isZero();
        byte[] twice = Files.readAllBytes(ledger);
        Files.deleteIfExists(out);
        Cli.Result third = Cli.run(args(command, ledger, data, graph, out));
        assertThat(third.exitCode()).as(third.toString()).isEqualTo(ExitCodes.BUDGET_REFUSED);
        assertThat(Files.readAllBytes(ledger)).isEqualTo(twice);
        assertThat(out).doesNotExist();
    }

    @ParameterizedTest
    @MethodSource("commandsTakingALedger")
    void aRunRefusedBeforeItsFirstRowIsNotCharged(String command) throws Exception {
        Path ledger = dir.resolve("budget.ledger");
        assertThat(Cli.run("ledger", "init", "--epsilon", "10", "--delta", "1e-5", ledger.toString()).exitCode()).isZero();
        byte[] before = Files.readAllBytes(ledger);
        Path out = dir.resolve("out.json");
        Cli.Result missing = Cli.run(args(command, ledger, dir.resolve("absent.csv"), dir.resolve("absent-graph.csv"),
                out));
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(missing.err()).contains("does not exist");
        assertThat(Files.readAllBytes(ledger)).as("charged for a missing input").isEqualTo(before);
        assertThat(out).doesNotExist();
    }

    /** d * d beyond one Java array: refused by the memory check, which runs after the data's width is known. */
    @Test
    void aDxDReleaseRefusedForMemoryIsNotCharged() throws Exception {
        int d = 46_341;
        StringBuilder wide = new StringBuilder(4 * d);
        for (int row = 0; row < 2; row++) {
            for (int j = 0; j < d; j++) {
                wide.append(j > 0 ? "," : "").append(j == row ? "0.5" : "0");
            }
            wide.append('\n');
        }
        Path data = Cli.write(dir, "wide.csv", wide.toString());
        Path ledger = dir.resolve("budget.ledger");
        assertThat(Cli.run("ledger", "init", "--epsilon", "10", "--delta", "1e-5", ledger.toString()).exitCode()).isZero();
        byte[] before = Files.readAllBytes(ledger);
        for (String command : List.of("fit", "covariance")) {
            Path out = dir.resolve(command + ".json");
            List<String> run = new ArrayList<>(List.of(args(command, ledger, data, data, out)));
            run.add(run.size() - 1, "--header");
            run.add(run.size() - 1, "absent");
            Cli.Result r = Cli.run(run.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("exceed what one Java array can hold");
            assertThat(Files.readAllBytes(ledger)).as(command + " charged for a refusal on memory").isEqualTo(before);
            assertThat(out).doesNotExist();
        }
    }

    private static String[] args(String command, Path ledger, Path data, Path graph, Path out) {
        List<String> run = RUNS.get(command);
        assertThat(run).as("a run of '" + command + "' in RUNS").isNotNull();
        return run.stream().map(a -> a.replace("{ledger}", ledger.toString()).replace("{data}", data.toString())
                .replace("{graph}", graph.toString()).replace("{out}", out.toString())).toArray(String[]::new);
    }
}
