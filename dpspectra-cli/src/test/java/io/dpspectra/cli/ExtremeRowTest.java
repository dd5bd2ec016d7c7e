package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.release.Algorithms;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No data-dependent exception after the first private computation: every private algorithm, run as the
 * command line runs it, has the same outcome on D and on D′ = D plus one extreme but FINITE row (1e150 or
 * −1e150 in every cell, 1e-300 in every cell, 1e300 in one cell, {@link Double#MAX_VALUE} in every cell).
 * A release (exit 0) or a documented private refusal (exit 5, itself an output of the mechanism) on D and an
 * error on D′ would tell D from D′ with certainty, whatever ε the release claims.
 *
 * <p>Each algorithm runs with a bound that clips the extreme rows onto an ordinary ball (--clip-norm 1) and
 * with one that lets a row of norm up to 1e100 through unclipped (--clip-norm 1e100), so that the
 * algorithm's own arithmetic meets rows far beyond the data's scale. The runs are seeded, so D and D′ differ
 * only in the extra row. Covered: every name of {@link Algorithms#privatePcaNames()} and {@link Algorithms#covarianceNames()};
 * the private preprocessing (--clip-norm private:Q, --center private, --components auto); ridge on a
 * covariance release; ldp randomize and aggregate; spectral on a graph with one extreme edge weight.
 */
class ExtremeRowTest {
    private static final int N = 400;
    private static final int D = 4;
    private static final String MAX = Double.toString(Double.MAX_VALUE);
    /** The extreme rows, by name: each is appended to D to make one D′. */
    private static final Map<String, String> EXTREMES = new LinkedHashMap<>();

    static {
        EXTREMES.put("1e150 everywhere", String.join(",", List.of("1e150", "1e150", "1e150", "1e150")));
        EXTREMES.put("-1e150 everywhere", String.join(",", List.of("-1e150", "-1e150", "-1e150", "-1e150")));
        EXTREMES.put("1e-300 everywhere", String.join(",", List.of("1e-300", "1e-300", "1e-300", "1e-300")));
        EXTREMES.put("1e300 in one cell", "1e300,0,0,0");
        EXTREMES.put("MAX_VALUE everywhere", String.join(",", List.of(MAX, MAX, MAX, MAX)));
    }

    @TempDir
    static Path dir;
    private static Path base;
    private static final Map<String, Path> NEIGHBOURS = new LinkedHashMap<>();

    @BeforeAll
    static void data() throws Exception {
        String csv = Cli.smallCsv(N, D);
        base = Cli.write(dir, "D.csv", csv);
        List<String> lines = List.of(csv.split("\n"));
        int i = 0;
        for (Map.Entry<String, String> e : EXTREMES.entrySet()) {
            // first (the first half of a first batch) and in the middle (other halves, later batches)
            for (int at : new int[] {1, N / 2 + 1}) {
                List<String> withRow = new ArrayList<>(lines);
                withRow.add(at, e.getValue());
                NEIGHBOURS.put(e.getKey() + " at data row " + at,
                        Cli.write(dir, "D" + (++i) + ".csv", String.join("\n", withRow) + "\n"));
            }
        }
    }

    /** The outcome class of a run: a private outcome (release, or a documented refusal), or its error code. */
    private static String outcome(Cli.Result r) {
        return r.exitCode() == ExitCodes.OK || r.exitCode() == ExitCodes.MECHANISM_REFUSED ? "private outcome"
                : "exit " + r.exitCode();
    }

    /**
     * Runs {@code args} with INPUT = D and with INPUT = each D′ (the last argument "INPUT" is replaced), and
     * asserts that D gives a private outcome and every D′ the same outcome class.
     */
    private static void sameOutcomeOnEveryNeighbour(String... args) {
        Cli.Result onD = Cli.run(withInput(args, base));
        assertThat(outcome(onD)).as("on D: %s", onD).isEqualTo("private outcome");
        for (Map.Entry<String, Path> e : NEIGHBOURS.entrySet()) {
            Cli.Result onNeighbour = Cli.run(withInput(args, e.getValue()));
            assertThat(outcome(onNeighbour)).as("D plus a row of %s: %s", e.getKey(), onNeighbour)
                    .isEqualTo(outcome(onD));
        }
    }

    private static String[] withInput(String[] args, Path input) {
        String[] out = args.clone();
        for (int i = 0; i < out.length; i++) {
            if (out[i].equals("INPUT")) {
                out[i] = input.toString();
            }
        }
        return out;
    }

    static Stream<Arguments> fitAlgorithms() {
        List<Arguments> a = new ArrayList<>();
        for (String name : Algorithms.privatePcaNames()) {
            for (String bound : List.of("1", "1e100")) {
                a.add(Arguments.of(name, bound));
            }
        }
        return a.stream();
    }

    @ParameterizedTest(name = "fit --algorithm {0} --clip-norm {1}")
    @MethodSource("fitAlgorithms")
    void everyFitAlgorithmHasTheSameOutcomeWithAnExtremeRow(String name, String bound) {
        sameOutcomeOnEveryNeighbour("fit", "--algorithm", name, "-k", "1", "--epsilon", "1", "--delta", "1e-5",
                "--clip-norm", bound, "--seed", "7", "--format", "compact", "INPUT");
    }

    static Stream<Arguments> covarianceAlgorithms() {
        List<Arguments> a = new ArrayList<>();
        for (String name : Algorithms.covarianceNames()) {
            for (String bound : List.of("1", "1e100")) {
                a.add(Arguments.of(name, bound));
            }
        }
        return a.stream();
    }

    @ParameterizedTest(name = "covariance --algorithm {0} --clip-norm {1}")
    @MethodSource("covarianceAlgorithms")
    void everyCovarianceMechanismHasTheSameOutcomeWithAnExtremeRow(String name, String bound) {
        sameOutcomeOnEveryNeighbour("covariance", "--algorithm", name, "--epsilon", "1", "--delta",
                name.equals("gaussian") ? "1e-5" : "0", "--clip-norm", bound, "--seed", "7", "--format", "compact",
                "INPUT");
    }

    static Stream<Arguments> privatePreprocessing() {
        return Stream.of(
                Arguments.of((Object) new String[] {"fit", "--algorithm", "analyze-gauss", "-k", "1", "--delta", "1e-5",
                    "--clip-norm", "private:0.9"}),
                Arguments.of((Object) new String[] {"fit", "--algorithm", "k-dp-ojas", "-k", "1", "--delta", "1e-5",
                    "--clip-norm", "private:0.9"}),
                Arguments.of((Object) new String[] {"fit", "--algorithm", "analyze-gauss", "-k", "1", "--delta", "1e-5",
                    "--clip-norm", "1e100", "--center", "private"}),
                Arguments.of((Object) new String[] {"fit", "--algorithm", "k-dp-pca-adaptive", "-k", "1", "--delta",
                    "1e-5", "--clip-norm", "private:0.5", "--center", "private"}),
                Arguments.of((Object) new String[] {"fit", "--algorithm", "analyze-gauss", "-k", "auto:0.9", "--delta",
                    "1e-5", "--clip-norm", "1e100"}),
                Arguments.of((Object) new String[] {"fit", "--algorithm", "dp-power-method", "-k", "auto:0.9",
                    "--delta", "1e-5", "--clip-norm", "1e100"}),
                Arguments.of((Object) new String[] {"covariance", "--algorithm", "laplace", "--clip-norm", "private:0.9",
                    "--center", "private"}),
                Arguments.of((Object) new String[] {"covariance", "--algorithm", "gaussian", "--delta", "1e-5",
                    "--clip-norm", "1e100", "--center", "private"}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("privatePreprocessing")
    void privatePreprocessingHasTheSameOutcomeWithAnExtremeRow(String[] command) {
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(List.of("--epsilon", "1", "--seed", "7", "--format", "compact", "INPUT"));
        sameOutcomeOnEveryNeighbour(args.toArray(new String[0]));
    }

    /** ridge reads a covariance release, so its input is the release of D or D′ (post-processing of it). */
    @Test
    void ridgeOnTheCovarianceOfEveryNeighbourFits() throws Exception {
        for (Path input : inputs()) {
            for (String bound : List.of("1", "1e100")) {
                Path cov = dir.resolve("cov-" + bound + "-" + input.getFileName() + ".json");
                Cli.Result c = Cli.run("covariance", "--algorithm", "gaussian", "--epsilon", "1", "--delta", "1e-5",
                        "--clip-norm", bound, "--seed", "7", "--output", cov.toString(), input.toString());
                assertThat(c.exitCode()).as("%s %s", input, c).isZero();
                Cli.Result r = Cli.run("ridge", "--covariance", cov.toString(), "--target", "1", "--alpha", "1");
                assertThat(r.exitCode()).as("%s %s", input, r).isZero();
            }
        }
    }

    /** Every record is a client; an extreme record is clipped on its client like any other, and aggregated. */
    @Test
    void ldpRandomizeAndAggregateReportEveryNeighbour() {
        for (Path input : inputs()) {
            for (String bound : List.of("1", "1e100")) {
                Path reports = dir.resolve("reports-" + bound + "-" + input.getFileName() + ".bin");
                Cli.Result r = Cli.run("ldp", "randomize", "--epsilon", "1", "--delta", "1e-5", "--clip-norm", bound,
                        "--seed", "7", input.toString(), "--output", reports.toString());
                assertThat(r.exitCode()).as("%s %s", input, r).isZero();
                Cli.Result a = Cli.run("ldp", "aggregate", "--components", "1", reports.toString());
                assertThat(a.exitCode()).as("%s %s", input, a).isZero();
            }
        }
    }

    /**
     * spectral takes a matrix, not rows: its unit is one entry (an edge), and D′ is the graph plus one edge of an
     * extreme weight. Within the readers' domain (|weight| ≤ 1e150) the power iterations release as on D; a weight
     * beyond it is refused while the file is read, before any noise (exit 3), like a NaN cell.
     */
    @Test
    void spectralHasTheSameOutcomeWithAnExtremeEdgeWeight() throws Exception {
        StringBuilder edges = new StringBuilder();
        for (int u = 0; u < 30; u++) {
            edges.append(u).append(',').append((u + 1) % 30).append(",1\n");
            edges.append(u).append(',').append((u + 7) % 30).append(",1\n");
        }
        Path graph = Cli.write(dir, "graph.csv", edges.toString());
        Map<String, Path> inDomain = new LinkedHashMap<>();
        Map<String, Path> beyond = new LinkedHashMap<>();
        int i = 0;
        for (String w : List.of("1e150", "-1e150", "1e-300", "1e300", MAX)) {
            Path g = Cli.write(dir, "graph" + (++i) + ".csv", edges + "3,11," + w + "\n");
            (Math.abs(Double.parseDouble(w)) <= 1e150 ? inDomain : beyond).put(w, g);
        }
        for (String noise : List.of("entry", "spectral", "laplace", "row-l1")) {
            String[] args = {"spectral", "--matrix", "GRAPH", "--nodes", "30", "-k", "2", "--noise", noise, "--epsilon",
                "1", "--delta", "1e-5", "--seed", "7"};
            Cli.Result onD = Cli.run(withGraph(args, graph));
            assertThat(outcome(onD)).as("%s %s", noise, onD).isEqualTo("private outcome");
            for (Map.Entry<String, Path> e : inDomain.entrySet()) {
                Cli.Result r = Cli.run(withGraph(args, e.getValue()));
                assertThat(outcome(r)).as("--noise %s, an edge of weight %s: %s", noise, e.getKey(), r)
                        .isEqualTo(outcome(onD));
            }
            for (Map.Entry<String, Path> e : beyond.entrySet()) {
                Cli.Result r = Cli.run(withGraph(args, e.getValue()));
                assertThat(r.exitCode()).as("--noise %s, an edge of weight %s: %s", noise, e.getKey(), r)
                        .isEqualTo(ExitCodes.BAD_DATA);
                assertThat(r.err()).contains("line 61").contains("1.0E150");
            }
        }
    }

    private static String[] withGraph(String[] args, Path graph) {
        String[] out = args.clone();
        out[java.util.Arrays.asList(out).indexOf("GRAPH")] = graph.toString();
        return out;
    }

    private static List<Path> inputs() {
        List<Path> all = new ArrayList<>();
        all.add(base);
        all.addAll(NEIGHBOURS.values());
        return all;
    }

    @Test
    void theNeighboursReallyHoldTheExtremeRows() throws Exception {
        assertThat(NEIGHBOURS).hasSize(2 * EXTREMES.size());
        for (Map.Entry<String, Path> e : NEIGHBOURS.entrySet()) {
            List<String> lines = Files.readAllLines(e.getValue());
            assertThat(lines).hasSize(N + 2); // header, N rows, the extreme row
            String name = e.getKey();
            int at = Integer.parseInt(name.substring(name.lastIndexOf(' ') + 1));
            assertThat(lines.get(at)).isEqualTo(EXTREMES.get(name.substring(0, name.indexOf(" at data row"))));
        }
    }
}
