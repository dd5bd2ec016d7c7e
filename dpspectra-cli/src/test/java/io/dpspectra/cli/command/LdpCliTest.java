package io.dpspectra.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.Cli;
import io.dpspectra.cli.command.LdpCommand;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.Release;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** dpspectra ldp randomize | aggregate: the client and server of local-DP PCA. */
class LdpCliTest {
    @TempDir
    Path dir;

    private Path randomize(String format, String epsilon, String name) throws Exception {
        Path csv = dir.resolve("records.csv");
        if (!Files.exists(csv)) {
            Cli.write(dir, "records.csv", Cli.smallCsv(300, 4));
        }
        Path out = dir.resolve(name);
        Cli.Result r = Cli.run("ldp", "randomize", "--epsilon", epsilon, "--delta", "1e-6", "--clip-norm", "1",
                "--report-format", format, "--seed", "5", csv.toString(), "--output", out.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("wrote 300 reports");
        return out;
    }

    @Test
    void randomizeThenAggregateReleasesAnOrthonormalBasisWithTheReportsGuarantee() throws Exception {
        for (String format : List.of("binary", "json-lines")) {
            Path reports = randomize(format, "2", "reports-" + format);
            Cli.Result r = Cli.run("ldp", "aggregate", "--components", "2", reports.toString());
            assertThat(r.exitCode()).as(r.toString()).isZero();
            JsonNode j = Json.MAPPER.readTree(r.out());
            assertThat(j.get("components").size()).isEqualTo(2);
            assertThat(j.get("guarantee").get("epsilon").asDouble()).isEqualTo(2.0);
            assertThat(j.get("guarantee").get("sensitivity").asText()).contains("sqrt(2)");
            assertThat(j.get("reports").asLong()).isEqualTo(300); // public in the local model
            assertThat(j.get("preprocessing").get("clipNorm").asDouble()).isEqualTo(1.0);
            assertThat(j.has("diagnostics")).isFalse();
            assertThat(j.has("input")).isFalse();
            double norm = 0;
            for (JsonNode x : j.get("components").get(0)) {
                norm += x.asDouble() * x.asDouble();
            }
            assertThat(norm).isCloseTo(1, org.assertj.core.api.Assertions.within(1e-9));
        }
    }

    @Test
    void theAggregateReleaseIsAModelForTransformAndEvaluateWithTheClientsClipping() throws Exception {
        Path reports = randomize("binary", "2", "reports.bin");
        Path release = dir.resolve("release.json");
        assertThat(Cli.run("ldp", "aggregate", "-k", "2", "-o", release.toString(), reports.toString()).exitCode())
                .isZero();
        Path rows = Cli.write(dir, "rows.csv", "a,b,c,d\n0.1,0.2,0.3,0.1\n30,40,0,0\n");
        Cli.Result t = Cli.run("transform", "--model", release.toString(), rows.toString());
        assertThat(t.exitCode()).as(t.toString()).isZero();
        String[] lines = t.out().split("\n");
        assertThat(lines).hasSize(3);
        assertThat(lines[0]).isEqualTo("pc1,pc2");
        // the row of norm 50 is clipped to the clients' bound 1 before the projection, as its report was
        double y1 = Double.parseDouble(lines[2].split(",")[0]);
        double y2 = Double.parseDouble(lines[2].split(",")[1]);
        assertThat(Math.hypot(y1, y2)).isLessThanOrEqualTo(1 + 1e-12);
        Cli.Result e = Cli.run("evaluate", "--model", release.toString(), dir.resolve("records.csv").toString());
        assertThat(e.exitCode()).as(e.toString()).isZero();
        assertThat(Json.MAPPER.readTree(e.out()).get("capturedVarianceRatio").asDouble()).isBetween(0.0, 1.0 + 1e-9);
    }

    @Test
    void sparseAggregateReportsItsSupport() throws Exception {
        Path reports = randomize("binary", "2", "reports.bin");
        Cli.Result r = Cli.run("ldp", "aggregate", "--components", "1", "--sparse", reports.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertThat(j.get("algorithm").asText()).isEqualTo("ldp-sparse");
        assertThat(j.get("support")).isNotNull();
    }

    @Test
    void mixedParametersAreRefusedWithTheLineAndNothingIsWritten() throws Exception {
        Path a = randomize("json-lines", "2", "a.jsonl");
        Path b = randomize("json-lines", "1", "b.jsonl");
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(a));
        lines.add(7, Files.readAllLines(b).get(0));
        Path mixed = Files.write(dir.resolve("mixed.jsonl"), lines);
        Path release = dir.resolve("release.json");
        Cli.Result r = Cli.run("ldp", "aggregate", "--components", "2", mixed.toString(), "--output", release.toString());
        assertThat(r.exitCode()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(r.err()).contains("mixed.jsonl line 8").contains("epsilon 1.0 differs from 2.0");
        assertThat(release).doesNotExist();
        Cli.Result skipped = Cli.run("ldp", "aggregate", "--components", "2", "--skip-invalid", mixed.toString());
        assertThat(skipped.exitCode()).as(skipped.toString()).isZero();
        assertThat(skipped.err()).contains("skipped report at").contains("line 8");
        assertThat(Json.MAPPER.readTree(skipped.out()).get("reports").asLong()).isEqualTo(300);
    }

    @Test
    void curatorFactsGoToTheDiagnosticsFile() throws Exception {
        Path reports = randomize("binary", "2", "d.bin");
        Cli.Released rd = Cli.runWithDiagnostics(dir, "ldp", "aggregate", "--components", "2", "--output",
                dir.resolve("release.json").toString(), reports.toString());
        assertThat(rd.result().exitCode()).as(rd.result().toString()).isZero();
        assertThat(rd.diagnostics().get(Release.NOT_PRIVATE_KEY).asText()).contains("WITHOUT differential privacy");
        assertThat(rd.diagnostics().get("input").asText()).isEqualTo(reports.toString());
        assertThat(rd.diagnostics().get("refusedReports").asInt()).isZero();
    }

    @Test
    void badOptionsAreUsageErrors() throws Exception {
        Path reports = randomize("binary", "2", "r.bin");
        assertThat(Cli.run("ldp", "aggregate", "--components", "9", reports.toString()).exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(Cli.run("ldp", "aggregate", "--components", "1", "--lambda", "0.1", reports.toString()).exitCode())
                .isEqualTo(ExitCodes.USAGE);
        Cli.Result r = Cli.run("ldp", "randomize", "--epsilon", "1", "--delta", "0", "--clip-norm", "1",
                dir.resolve("records.csv").toString(), "--output", dir.resolve("x").toString());
        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("delta");
        assertThat(dir.resolve("x")).doesNotExist();
    }

    @Test
    void randomizeChargesTheLedgerOncePerRunAndRefusesAnOverspendWithoutWriting() throws Exception {
        Path csv = Cli.write(dir, "records.csv", Cli.smallCsv(300, 4));
        Path ledger = dir.resolve("records.ledger");
        assertThat(Cli.run("ledger", "init", "--epsilon", "1.5", "--delta", "1e-5", ledger.toString()).exitCode())
                .isZero();
        Path out = dir.resolve("r.bin");
        Cli.Result r = Cli.run("ldp", "randomize", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1", "--seed",
                "5", "--ledger", ledger.toString(), csv.toString(), "--output", out.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        // 300 records, one charge: the unit is one record and each gets one report
        assertThat(Files.readString(ledger)).contains("epsilon=1.0").contains("ldp randomize on");
        Path again = dir.resolve("again.bin");
        Cli.Result over = Cli.run("ldp", "randomize", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1",
                "--seed", "5", "--ledger", ledger.toString(), csv.toString(), "--output", again.toString());
        assertThat(over.exitCode()).as(over.toString()).isEqualTo(4);
        assertThat(over.err()).contains("refuses").contains("leaving (ε=0.5");
        assertThat(again).doesNotExist();
    }

    /** The Randomize command of a command line, for its test hooks. */
    private static LdpCommand.Randomize randomizer(picocli.CommandLine cl) {
        return (LdpCommand.Randomize) cl.getSubcommands().get("ldp").getSubcommands().get("randomize").getCommand();
    }

    /** Before every report carried its place in its file, 60 of 200 reports cut at a boundary were aggregated. */
    @Test
    void aReportFileCutAtAReportBoundaryIsRefusedAndWithSkippingTheMissingAreCounted() throws Exception {
        Path reports = randomize("binary", "2", "whole.bin");
        byte[] bytes = Files.readAllBytes(reports);
        int record = io.dpspectra.local.LocalReportFormat.binaryRecordBytes(4);
        Path cut = Files.write(dir.resolve("cut.bin"), java.util.Arrays.copyOf(bytes, 60 * record));
        Path release = dir.resolve("release.json");
        Cli.Result r = Cli.run("ldp", "aggregate", "--components", "2", cut.toString(), "--output", release.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(r.err()).contains("reports missing at " + cut + " end").contains("after report 60 of 300")
                .contains("reports 61 to 300 (240) are missing").contains("--skip-invalid");
        assertThat(release).doesNotExist();
        Cli.Released skipped = Cli.runWithDiagnostics(dir, "ldp", "aggregate", "--components", "2", "--skip-invalid",
                cut.toString());
        assertThat(skipped.result().exitCode()).as(skipped.result().toString()).isZero();
        assertThat(skipped.result().err()).contains("aggregated 60 reports; 0 refused, 240 missing from " + cut);
        assertThat(Json.MAPPER.readTree(skipped.result().out()).get("reports").asLong()).isEqualTo(60);
        assertThat(skipped.diagnostics().get("missingReports").asLong()).isEqualTo(240);
    }

    /** Before the bound, one report with an entry of 1e9 was aggregated and decided the released component. */
    @Test
    void aReportWithAnEntryBeyondTheHonestBoundIsRefusedOrDroppedAndCounted() throws Exception {
        Path reports = randomize("json-lines", "2", "honest.jsonl");
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(reports));
        lines.set(41, lines.get(41).replaceFirst("\"values\":\\[[^,]*,", "\"values\":[1.0E9,"));
        Path poisoned = Files.write(dir.resolve("poisoned.jsonl"), lines);
        Cli.Result r = Cli.run("ldp", "aggregate", "--components", "1", poisoned.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(r.err()).contains("line 42").contains("value 1 is 1.0E9").contains("beyond");
        Cli.Result skipped = Cli.run("ldp", "aggregate", "--components", "1", "--skip-invalid", poisoned.toString());
        assertThat(skipped.exitCode()).as(skipped.toString()).isZero();
        assertThat(skipped.err()).contains("aggregated 299 reports; 1 refused, 0 missing");
        assertThat(Json.MAPPER.readTree(skipped.out()).get("reports").asLong()).isEqualTo(299);
    }

    /** Before the JSON parser, a space after a colon made every report unreadable. */
    @Test
    void jsonLinesWithSpacesAfterColonsAreRead() throws Exception {
        Path reports = randomize("json-lines", "2", "compact.jsonl");
        List<String> spaced = Files.readAllLines(reports).stream().map(l -> l.replace("\":", "\": ").replace(",", ", "))
                .toList();
        Path pretty = Files.write(dir.resolve("spaced.jsonl"), spaced);
        Cli.Result a = Cli.run("ldp", "aggregate", "--components", "2", reports.toString());
        Cli.Result b = Cli.run("ldp", "aggregate", "--components", "2", pretty.toString());
        assertThat(b.exitCode()).as(b.toString()).isZero();
        assertThat(b.out()).isEqualTo(a.out());
    }

    @Test
    void randomizeStatesALargeOutputBeforeWritingAndRefusesOneTheDiskCannotHold() throws Exception {
        Path csv = Cli.write(dir, "records.csv", Cli.smallCsv(300, 4));
        Path out = dir.resolve("big.bin");
        long bytes = 300L * io.dpspectra.local.LocalReportFormat.binaryRecordBytes(4);
        Cli.Result stated = Cli.run(cl -> randomizer(cl).stateSizeAbove = 1000, "ldp", "randomize", "--epsilon", "1",
                "--delta", "1e-6", "--clip-norm", "1", "--seed", "5", csv.toString(), "--output", out.toString());
        assertThat(stated.exitCode()).as(stated.toString()).isZero();
        assertThat(stated.err()).contains("writing 300 reports of p(p+1)/2 = 10 numbers each to " + out + ": "
                + String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1e6));
        assertThat(Files.size(out)).isEqualTo(bytes);
        Cli.Result quiet = Cli.run("ldp", "randomize", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1",
                "--seed", "5", csv.toString(), "--output", dir.resolve("small.bin").toString());
        assertThat(quiet.err()).doesNotContain("writing 300 reports");

        Path full = dir.resolve("full.bin");
        Cli.Result refused = Cli.run(cl -> randomizer(cl).usableSpace = d -> bytes - 1, "ldp", "randomize",
                "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1", csv.toString(), "--output", full.toString());
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(refused.err()).contains("--output " + full + " needs").contains("free").contains("nothing was written");
        assertThat(Cli.files(dir)).doesNotContain("full.bin").noneMatch(f -> f.endsWith(".tmp"));
    }
}
