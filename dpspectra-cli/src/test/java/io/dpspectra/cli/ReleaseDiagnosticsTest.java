package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.Release;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The release file holds the release alone: facts learned from the data without privacy
 * go to {@code --diagnostics FILE} (or stderr with --verbose), marked as not private, for every releasing
 * command; models and covariance files still read back, old ones with a diagnostics block included.
 */
class ReleaseDiagnosticsTest {
    /** Keys that are learned from the data without privacy: none may appear anywhere in a release. */
    private static final Set<String> CURATOR_ONLY = Set.of("rows", "clippedRows", "l1ClippedRows", "l2ClippedRows",
            "proposals", "proposalsMedian", "proposalsMean", "fitSeconds", "readSeconds", "nonZeros", "input",
            "diagnostics", "resamples", "gapTestPassed", "threshold", "iterationsRun");

    @TempDir
    Path dir;

    static Stream<Arguments> releasingCommands() {
        return Stream.of(
                Arguments.of(List.of("fit", "--algorithm", "analyze-gauss", "-k", "2", "--delta", "1e-6")),
                Arguments.of(List.of("fit", "--algorithm", "k-dp-ojas", "-k", "1", "--delta", "1e-6")),
                Arguments.of(List.of("fit", "--algorithm", "dp-power-method", "-k", "1", "--delta", "1e-6",
                        "--l1-bound", "2")),
                Arguments.of(List.of("fit", "--algorithm", "exact", "-k", "1")),
                Arguments.of(List.of("covariance", "--algorithm", "ad")),
                Arguments.of(List.of("covariance", "--algorithm", "kt")),
                Arguments.of(List.of("covariance", "--algorithm", "laplace")),
                Arguments.of(List.of("covariance", "--algorithm", "gaussian", "--delta", "1e-6")),
                Arguments.of(List.of("fit", "--algorithm", "analyze-gauss", "-k", "auto:0.9", "--delta", "1e-6",
                        "--center", "private")));
    }

    @ParameterizedTest
    @MethodSource("releasingCommands")
    void theReleaseHoldsNoCuratorFactAndTheDiagnosticsHoldThemMarkedNotPrivate(List<String> command) throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(300, 4) + "3,0,0,0\n");
        Path out = dir.resolve("release.json");
        List<String> args = new ArrayList<>(command);
        if (!command.contains("exact")) {
            args.addAll(List.of("--epsilon", "2", "--seed", "1"));
        }
        args.addAll(List.of("--clip-norm", "1", "--output", out.toString(), csv.toString()));
        Cli.Released rd = Cli.runWithDiagnostics(dir, args.toArray(new String[0]));
        assertThat(rd.result().exitCode()).as(rd.result().toString()).isZero();
        JsonNode release = Json.MAPPER.readTree(out.toFile());
        assertThat(keysAnywhere(release)).as("keys of the release").doesNotContainAnyElementsOf(CURATOR_ONLY);
        assertThat(release.get("preprocessing").get("boundPolicy").asText()).isEqualTo("clip");
        JsonNode g = release.get("guarantee");
        if (!g.isNull()) {
            // the reference cites the paper and its algorithm, never a file the user does not have
            assertThat(g.get("reference").asText()).containsPattern("Algorithm|Fig\\.|Section")
                    .doesNotContain("spec").doesNotContain(".txt").doesNotContain(".md").doesNotContain("§");
        }
        JsonNode diag = rd.diagnostics();
        assertThat(diag.get(Release.NOT_PRIVATE_KEY).asText()).contains("WITHOUT differential privacy");
        assertThat(diag.get("rows").asLong()).isEqualTo(301);
        assertThat(diag.get("clippedRows").asLong()).isEqualTo(1);
        assertThat(diag.get("input").asText()).isEqualTo(csv.toString());
    }

    @Test
    void spectralKeepsTheMatrixFactsOutOfTheRelease() throws Exception {
        Path edges = Cli.write(dir, "g.csv", "u,v\n0,1\n1,2\n2,0\n3,4\n");
        Cli.Released rd = Cli.runWithDiagnostics(dir, "spectral", "--matrix", edges.toString(), "-k", "1",
                "--nodes", "5", "--epsilon", "1", "--delta", "1e-6", "--seed", "1");
        assertThat(rd.result().exitCode()).as(rd.result().toString()).isZero();
        assertThat(keysAnywhere(Json.MAPPER.readTree(rd.result().out()))).doesNotContainAnyElementsOf(CURATOR_ONLY);
        assertThat(rd.diagnostics().get("nonZeros").asInt()).isEqualTo(8);
    }

    @Test
    void verbosePrintsTheDiagnosticsOnStderrMarkedNotPrivateAndNothingElseChanges() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(100, 3));
        String[] args = {"fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
            "--clip-norm", "1", "--seed", "3", csv.toString()};
        Cli.Result quiet = Cli.run(args);
        String[] verboseArgs = java.util.Arrays.copyOf(args, args.length + 1);
        verboseArgs[args.length] = "--verbose";
        Cli.Result verbose = Cli.run(verboseArgs);
        assertThat(verbose.out()).isEqualTo(quiet.out());
        assertThat(quiet.err()).doesNotContain("\"rows\"");
        assertThat(verbose.err()).contains("NOT private").contains("\"rows\" : 100");
    }

    @Test
    void diagnosticsAndOutputMustBeDifferentFilesAndAFailureWritesNeither() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        Path out = dir.resolve("m.json");
        Cli.Result same = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta",
                "1e-6", "--clip-norm", "1", "--output", out.toString(), "--diagnostics", dir.resolve("./m.json").toString(),
                csv.toString());
        assertThat(same.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(same.err()).contains("--diagnostics and --output name the same file");
        Path bad = Cli.write(dir, "bad.csv", "a,b\n1,2\n3,x\n");
        Cli.Result failed = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta",
                "1e-6", "--clip-norm", "1", "--output", out.toString(), "--diagnostics", dir.resolve("d.json").toString(),
                bad.toString());
        assertThat(failed.exitCode()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(Cli.files(dir)).containsExactlyInAnyOrder("bad.csv", "data.csv");
    }

    @Test
    void transformReadsNewModelsAndOldModelsWithADiagnosticsBlockAndRefusesADiagnosticsFile() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        Path model = dir.resolve("model.json");
        Path diag = dir.resolve("diag.json");
        Cli.Result fit = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "1", "--seed", "2", "-o", model.toString(), "--diagnostics", diag.toString(),
                csv.toString());
        assertThat(fit.exitCode()).as(fit.toString()).isZero();
        Cli.Result t = Cli.run("transform", "--model", model.toString(), csv.toString());
        assertThat(t.exitCode()).as(t.toString()).isZero();
        assertThat(t.out().lines().count()).isEqualTo(51);

        Path old = Cli.write(dir, "old.json", "{\"algorithm\":\"analyze-gauss\",\"dimension\":3,\"k\":1,"
                + "\"columns\":[\"f1\",\"f2\",\"f3\"],\"components\":[[1,0,0]],\"guarantee\":null,"
                + "\"input\":{\"file\":\"x.csv\",\"normBound\":1.0},\"diagnostics\":{\"rows\":50,\"clippedRows\":0}}");
        Cli.Result fromOld = Cli.run("evaluate", "--model", old.toString(), csv.toString());
        assertThat(fromOld.exitCode()).as(fromOld.toString()).isZero();

        Cli.Result notJson = Cli.run("transform", "--model", csv.toString(), csv.toString());
        assertThat(notJson.exitCode()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(notJson.err()).contains("is not a JSON file (it stops being JSON at line 1, column")
                .doesNotContain("token").doesNotContain("expecting");
        Cli.Result wrong = Cli.run("transform", "--model", diag.toString(), csv.toString());
        assertThat(wrong.exitCode()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(wrong.err()).contains("is a diagnostics file").contains("not a model");
    }

    @Test
    void aDocumentedRefusalExitsFiveAndItsResultRecordsTheBudgetSpentThoughNothingWasReleased() throws Exception {
        // two orthogonal rows: the eigengap is 0, far below DP-Gauss-2's threshold
        Path csv = Cli.write(dir, "flat.csv", "a,b\n1,0\n0,1\n");
        Path out = dir.resolve("refused.json");
        Cli.Released rd = Cli.runWithDiagnostics(dir, "fit", "--algorithm", "dp-gauss-2", "-k", "1", "--epsilon", "1",
                "--delta", "1e-6", "--clip-norm", "1", "--seed", "1", "-o", out.toString(), csv.toString());
        Cli.Result r = rd.result();
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.MECHANISM_REFUSED);
        assertThat(r.err()).contains("refused to release").contains("counts as spent").doesNotContain("bug")
                .doesNotContain("Exception").contains("hint: ");
        JsonNode record = Json.MAPPER.readTree(out.toFile());
        assertThat(record.get(Release.RELEASED_KEY).asBoolean()).isFalse();
        assertThat(record.get("guarantee").get("epsilon").asDouble()).isEqualTo(1.0);
        assertThat(record.has("components")).isFalse();
        assertThat(rd.diagnostics().get("gapTestPassed").asBoolean()).isFalse();
        Cli.Result t = Cli.run("transform", "--model", out.toString(), csv.toString());
        assertThat(t.exitCode()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(t.err()).contains("records a refusal: nothing was released");
    }

    private static List<String> keysAnywhere(JsonNode node) {
        List<String> keys = new ArrayList<>();
        if (node.isObject()) {
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                keys.add(k);
                keys.addAll(keysAnywhere(node.get(k)));
            }
        } else if (node.isArray()) {
            node.forEach(c -> keys.addAll(keysAnywhere(c)));
        }
        return keys;
    }
}
