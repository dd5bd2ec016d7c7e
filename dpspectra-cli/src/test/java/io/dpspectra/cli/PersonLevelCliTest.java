package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --privacy-unit}: the person's column groups rows, is never a feature, and is named in what is published. */
class PersonLevelCliTest {
    @TempDir
    Path dir;

    /** 30 persons with 6 rows each, interleaved (person i % 30), the id in the middle column. */
    private Path visits() throws Exception {
        StringBuilder sb = new StringBuilder("a,patient,b,c\n");
        for (int i = 0; i < 180; i++) {
            sb.append(String.format(Locale.ROOT, "%.4f,p%d,%.4f,%.4f%n", 0.5 * Math.sin(i), i % 30, 0.4 * Math.cos(i),
                    0.1 * (i % 5)));
        }
        return Cli.write(dir, "visits.csv", sb.toString());
    }

    @Test
    void aPersonLevelFitNamesTheColumnAndMAndCountsPersons() throws Exception {
        Path csv = visits();
        String[] args = {"fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
            "--clip-norm", "1", "--privacy-unit", "patient", "--max-rows-per-unit", "4", "--seed", "5",
            csv.toString()};
        Cli.Released rd = Cli.runWithDiagnostics(dir, args);
        assertThat(rd.result().exitCode()).as(rd.result().toString()).isZero();
        JsonNode j = Json.MAPPER.readTree(rd.result().out());
        assertThat(j.get("columns").toString()).isEqualTo("[\"a\",\"b\",\"c\"]"); // never a feature
        assertThat(j.get("guarantee").get("privacyUnit").asText()).contains("column 'patient'")
                .contains("at most 4 rows kept per person").contains("B/sqrt(4) = 0.500000");
        JsonNode unit = j.get("preprocessing").get("privacyUnit");
        assertThat(unit.get("column").asText()).isEqualTo("patient");
        assertThat(unit.get("maxRowsPerUnit").asInt()).isEqualTo(4);
        assertThat(rd.diagnostics().get("persons").asInt()).isEqualTo(30);
        assertThat(rd.diagnostics().get("rowsKept").asInt()).isEqualTo(120);
        assertThat(rd.result().err()).contains("grouping " + csv + " by column 'patient': at most 4 rows per person "
                + "kept; up to ").contains("kept rows of 3 values").contains("in memory; beyond that sorted and "
                + "spilled to " + System.getProperty("java.io.tmpdir"));
        assertThat(rd.diagnostics().get("spilled").asBoolean()).isFalse();
        // the seeded random selection and noise reproduce
        assertThat(Json.MAPPER.readTree(Cli.run(args).out()).get("components")).isEqualTo(j.get("components"));
    }

    /** The rows of {@link #visits()}, the id first, a label last, and a header line or none. */
    private Path visitsIdFirst(String name, boolean header, char sep) throws Exception {
        StringBuilder sb = new StringBuilder(header ? "# visits, id first\npatient,a,b,c,label\n".replace(',', sep) : "");
        for (int i = 0; i < 180; i++) {
            sb.append(String.format(Locale.ROOT, "p%d,%.4f,%.4f,%.4f,yes%n", i % 30, 0.5 * Math.sin(i), 0.4 * Math.cos(i),
                    0.1 * (i % 5)).replace(',', sep));
        }
        return Cli.write(dir, name, sb.toString());
    }

    @Test
    void everyCsvOptionOfARowLevelReadGivesTheSameRelease() throws Exception {
        String[] common = {"fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
            "--clip-norm", "1", "--privacy-unit", "patient", "--max-rows-per-unit", "4", "--seed", "5"};
        JsonNode base = Json.MAPPER.readTree(Cli.run(cat(common, visits().toString())).out());
        String[][] variants = {
            // the unit in column 1, the features by a range of numbers, the label left out by it; a comment line
            {"--columns", "2-4", "--comment-prefix", "#", visitsIdFirst("first.csv", true, ',').toString()},
            // no header: the columns named by --header-names (the header detected as absent, or said so)
            {"--header-names", "patient,a,b,c,label", "--exclude-columns", "label",
                visitsIdFirst("bare.csv", false, ',').toString()},
            {"--header-names", "patient,a,b,c,label", "--header", "absent", "--columns", "a-c",
                visitsIdFirst("bare2.csv", false, ',').toString()},
            // semicolons, detected; the comment line skipped as a line
            {"--skip-lines", "1", "--exclude-columns", "5", visitsIdFirst("semi.csv", true, ';').toString()},
        };
        for (String[] v : variants) {
            Cli.Result r = Cli.run(cat(common, v));
            assertThat(r.exitCode()).as(r.toString()).isZero();
            JsonNode j = Json.MAPPER.readTree(r.out());
            assertThat(j.get("columns")).as(String.join(" ", v)).isEqualTo(base.get("columns"));
            assertThat(j.get("components")).as(String.join(" ", v)).isEqualTo(base.get("components"));
            assertThat(j.get("guarantee")).as(String.join(" ", v)).isEqualTo(base.get("guarantee"));
        }
    }

    private static String[] cat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void covarianceMechanismsTakeAPersonAsTheUnit() throws Exception {
        Path csv = visits();
        for (String alg : new String[] {"gaussian", "laplace"}) {
            Cli.Result r = Cli.run("covariance", "--algorithm", alg, "--epsilon", "1", "--delta", "1e-6",
                    "--clip-norm", "1", "--privacy-unit", "patient", "--max-rows-per-unit", "3", csv.toString());
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(Json.MAPPER.readTree(r.out()).get("guarantee").get("privacyUnit").asText())
                    .contains("column 'patient'");
        }
    }

    @Test
    void wrongSettingsAreUsageErrorsWithNothingWrittenOrCharged() throws Exception {
        Path csv = visits();
        Path out = dir.resolve("release.json");
        Path ledger = dir.resolve("ledger.json");
        assertThat(Cli.run("ledger", "init", "--epsilon", "5", ledger.toString()).exitCode()).isZero();
        String before = Files.readString(ledger);
        String[][] cases = {
            {"--privacy-unit", "customer", "--max-rows-per-unit", "4"},               // not in the header
            {"--privacy-unit", "patient", "--max-rows-per-unit", "4", "--columns", "a,patient"}, // also a feature
            {"--privacy-unit", "patient"},                                            // M required
            {"--privacy-unit", "patient", "--max-rows-per-unit", "0"},
            {"--max-rows-per-unit", "4"},                                             // M without a unit
            {"--privacy-unit", "patient", "--max-rows-per-unit", "4", "--algorithm", "k-dp-ojas"},
            {"--privacy-unit", "patient", "--max-rows-per-unit", "4", "--norm-bound", "1"},
            {"--privacy-unit", "patient", "--max-rows-per-unit", "4", "--columns", "1-3"},        // by number
            {"--privacy-unit", "patient", "--max-rows-per-unit", "4", "--header", "absent"},     // no names
        };
        String[] expected = {"'customer' is not in the header", "also selected as a feature",
            "needs --max-rows-per-unit", "at least 1", "applies only with --privacy-unit",
            "k-dp-ojas does not support --privacy-unit", "--norm-bound", "also selected as a feature",
            "has no header (--header absent)"};
        for (int i = 0; i < cases.length; i++) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("fit", "-k", "1", "--epsilon",
                    "1", "--delta", "1e-6", "--output", out.toString(), "--ledger", ledger.toString(), csv.toString()));
            if (!java.util.Arrays.asList(cases[i]).contains("--algorithm")) {
                args.addAll(java.util.List.of("--algorithm", "analyze-gauss"));
            }
            if (!java.util.Arrays.asList(cases[i]).contains("--norm-bound")) {
                args.addAll(java.util.List.of("--clip-norm", "1"));
            }
            args.addAll(java.util.List.of(cases[i]));
            Cli.Result r = Cli.run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).as(String.join(" ", cases[i])).contains(expected[i]);
            assertThat(Files.exists(out)).isFalse();
            assertThat(Files.readString(ledger)).as("nothing charged").isEqualTo(before);
        }
    }

    @Test
    void localDpRefusesAPersonByName() throws Exception {
        Path csv = visits();
        Path out = dir.resolve("reports.bin");
        Cli.Result r = Cli.run("ldp", "randomize", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1",
                "--privacy-unit", "patient", "-o", out.toString(), csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("ldp randomize does not support --privacy-unit");
        assertThat(Files.exists(out)).isFalse();
    }

    @Test
    void theFrobeniusUnitBoundIsStatedAndRefusedByNameWhereATraceBoundIsNeeded() throws Exception {
        Path csv = visits();
        Cli.Released rd = Cli.runWithDiagnostics(dir, "fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon",
                "1", "--delta", "1e-6", "--clip-norm", "1", "--privacy-unit", "patient", "--max-rows-per-unit", "4",
                "--unit-bound", "frobenius", "--seed", "5", csv.toString());
        assertThat(rd.result().exitCode()).as(rd.result().toString()).isZero();
        JsonNode j = Json.MAPPER.readTree(rd.result().out());
        assertThat(j.get("guarantee").get("privacyUnit").asText()).contains("column 'patient'")
                .contains("B/4^(1/4) = 0.707107").contains("Frobenius norm <= B^2 = 1.00000")
                .contains("its trace is not bounded");
        // every kept row is clipped or scaled by the per-person bound by design: no warning to raise --clip-norm
        assertThat(rd.result().err()).doesNotContain("were clipped to the norm bound");
        JsonNode unit = j.get("preprocessing").get("privacyUnit");
        assertThat(unit.get("bound").asText()).isEqualTo("frobenius");
        assertThat(unit.get("rowBound").asDouble()).isCloseTo(Math.sqrt(0.5), org.assertj.core.data.Offset.offset(1e-12));
        Cli.Result cov = Cli.run("covariance", "--algorithm", "gaussian", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "1", "--privacy-unit", "patient", "--max-rows-per-unit", "3", "--unit-bound",
                "frobenius", csv.toString());
        assertThat(cov.exitCode()).as(cov.toString()).isZero();
        // the default is rows, and says so
        Cli.Result rows = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta",
                "1e-6", "--clip-norm", "1", "--privacy-unit", "patient", "--max-rows-per-unit", "4", csv.toString());
        assertThat(Json.MAPPER.readTree(rows.out()).get("preprocessing").get("privacyUnit").get("bound").asText())
                .isEqualTo("rows");

        Path out = dir.resolve("release.json");
        String[][] cases = {
            {"fit", "--algorithm", "it-u", "-k", "1", "--unit-bound", "frobenius"},
            {"fit", "--algorithm", "analyze-gauss", "--components", "auto:0.9", "--unit-bound", "frobenius"},
            {"covariance", "--algorithm", "laplace", "--unit-bound", "frobenius"},
            {"covariance", "--algorithm", "kt", "--unit-bound", "frobenius"},
            {"fit", "--algorithm", "analyze-gauss", "-k", "1", "--unit-bound", "trace"},
        };
        String[] expected = {"--algorithm it-u is calibrated to a trace, operator or L1 bound",
            "--components auto releases a private trace or spectrum", "--algorithm laplace is calibrated to a trace",
            "--algorithm kt is calibrated to a trace", "--unit-bound must be rows or frobenius, got 'trace'"};
        for (int i = 0; i < cases.length; i++) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(cases[i]));
            args.addAll(java.util.List.of("--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1", "--privacy-unit",
                    "patient", "--max-rows-per-unit", "4", "--output", out.toString(), csv.toString()));
            Cli.Result r = Cli.run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).as(String.join(" ", cases[i])).contains(expected[i]);
            if (i < 4) {
                assertThat(r.err()).contains("--unit-bound frobenius bounds only the Frobenius norm")
                        .contains("--unit-bound rows");
            }
            assertThat(Files.exists(out)).isFalse();
        }
        Cli.Result alone = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta",
                "1e-6", "--clip-norm", "1", "--unit-bound", "frobenius", csv.toString());
        assertThat(alone.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(alone.err()).contains("--unit-bound applies only with --privacy-unit");
    }

    @Test
    void standardInputIsGroupedAsTheFileIsAndAMissingUnitColumnThereIsChargedNothing() throws Exception {
        Path csv = visits();
        Path ledger = dir.resolve("ledger.json");
        assertThat(Cli.run("ledger", "init", "--epsilon", "5", "--delta", "1e-3", ledger.toString()).exitCode()).isZero();
        String before = Files.readString(ledger);
        Path[] out = {dir.resolve("from-file.json"), dir.resolve("from-stdin.json")};
        for (int i = 0; i < 2; i++) {
            String[] args = {"fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "private", "--center", "private", "--privacy-unit", "patient", "--max-rows-per-unit",
                "4", "--seed", "5", "--output", out[i].toString(), i == 0 ? csv.toString() : "-"};
            Cli.Result r = i == 0 ? Cli.run(args) : withStdin(Files.readString(csv), () -> Cli.run(args));
            assertThat(r.exitCode()).as(r.toString()).isZero();
            if (i == 1) {
                assertThat(r.err()).contains("grouping standard input by column 'patient'");
            }
        }
        assertThat(Files.readAllBytes(out[1])).isEqualTo(Files.readAllBytes(out[0]));
        // the unit column is looked for in the header read from standard input: refused before any row or charge
        Path refused = dir.resolve("refused.json");
        Cli.Result r = withStdin(Files.readString(csv), () -> Cli.run("fit", "--algorithm", "analyze-gauss", "-k",
                "1", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1", "--privacy-unit", "customer",
                "--max-rows-per-unit", "4", "--output", refused.toString(), "--ledger", ledger.toString(), "-"));
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("'customer' is not in the header");
        assertThat(Files.exists(refused)).isFalse();
        assertThat(Files.readString(ledger)).as("nothing charged").isEqualTo(before);
    }

    private static <T> T withStdin(String content, java.util.concurrent.Callable<T> run) throws Exception {
        java.io.InputStream saved = System.in;
        System.setIn(new java.io.ByteArrayInputStream(content.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        try {
            return run.call();
        } finally {
            System.setIn(saved);
        }
    }

    /** Runs with the grouping's memory set to {@code bytes} by its system property (null: the default). */
    private static <T> T withGroupingMemory(String bytes, java.util.concurrent.Callable<T> run) throws Exception {
        String before = System.getProperty(io.dpspectra.release.GroupingMemory.PROPERTY);
        try {
            if (bytes == null) {
                System.clearProperty(io.dpspectra.release.GroupingMemory.PROPERTY);
            } else {
                System.setProperty(io.dpspectra.release.GroupingMemory.PROPERTY, bytes);
            }
            return run.call();
        } finally {
            if (before == null) {
                System.clearProperty(io.dpspectra.release.GroupingMemory.PROPERTY);
            } else {
                System.setProperty(io.dpspectra.release.GroupingMemory.PROPERTY, before);
            }
        }
    }

    @Test
    void aFileWhoseKeptRowsOutgrowMemorySpillsAndReleasesTheSameBytes() throws Exception {
        Path csv = visits();
        Path spill = java.nio.file.Files.createDirectories(dir.resolve("spill"));
        Path[] out = {dir.resolve("in-memory.json"), dir.resolve("spilled.json")};
        Cli.Released[] runs = new Cli.Released[2];
        for (int i = 0; i < 2; i++) {
            String[] args = {"fit", "--algorithm", "analyze-gauss", "--components", "auto:0.8", "--epsilon", "1",
                "--delta", "1e-6", "--clip-norm", "private", "--center", "private", "--privacy-unit", "patient",
                "--max-rows-per-unit", "4", "--seed", "5", "--spill-dir", spill.toString(), "--output",
                out[i].toString(), csv.toString()};
            runs[i] = withGroupingMemory(i == 0 ? null : "2k", () -> Cli.runWithDiagnostics(dir, args));
            assertThat(runs[i].result().exitCode()).as(runs[i].result().toString()).isZero();
            assertThat(Cli.files(spill)).as("no spill file left").isEmpty();
        }
        // 2 KiB hold 23 kept rows of 3 values: the 120 kept rows spill, and the release is the same, byte for byte
        assertThat(runs[1].result().err()).contains("up to 23 kept rows of 3 values (2.0 KiB) in memory; beyond "
                + "that sorted and spilled to " + spill).contains("the kept rows outgrew memory: grouped by an "
                + "external sort in " + spill);
        assertThat(runs[0].result().err()).doesNotContain("outgrew memory");
        assertThat(Files.readAllBytes(out[1])).isEqualTo(Files.readAllBytes(out[0]));
        assertThat(runs[0].diagnostics().get("spilled").asBoolean()).isFalse();
        assertThat(runs[1].diagnostics().get("spilled").asBoolean()).isTrue();
        assertThat(runs[1].diagnostics().get("spillBytes").asLong()).isPositive();
        assertThat(runs[1].diagnostics().get("rowsKept")).isEqualTo(runs[0].diagnostics().get("rowsKept"));
    }

    @Test
    void aDataErrorAfterTheSpillKeepsItsMessageAndExitCodeAndLeavesNoFile() throws Exception {
        StringBuilder sb = new StringBuilder(Files.readString(visits()));
        sb.append("0.1,p3,oops,0.2\n");
        Path csv = Cli.write(dir, "bad.csv", sb.toString());
        Path spill = java.nio.file.Files.createDirectories(dir.resolve("spill"));
        Path out = dir.resolve("release.json");
        for (String memory : new String[] {null, "2k"}) {
            Cli.Result r = withGroupingMemory(memory, () -> Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1",
                    "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1", "--privacy-unit", "patient",
                    "--max-rows-per-unit", "4", "--spill-dir", spill.toString(), "--output", out.toString(),
                    csv.toString()));
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.BAD_DATA);
            assertThat(r.err()).contains("line 182, column 3 \"b\": value \"oops\" is not a number");
            assertThat(Files.exists(out)).isFalse();
            assertThat(Cli.files(spill)).isEmpty();
        }
    }

    @Test
    void aSpillDirectoryThatCannotHoldTheFilesIsAUsageErrorBeforeAnythingIsReadOrCharged() throws Exception {
        Path csv = visits();
        Path out = dir.resolve("release.json");
        Path ledger = dir.resolve("ledger.json");
        assertThat(Cli.run("ledger", "init", "--epsilon", "5", ledger.toString()).exitCode()).isZero();
        String before = Files.readString(ledger);
        Path missing = dir.resolve("no-such-dir");
        String[][] cases = {
            {"--privacy-unit", "patient", "--max-rows-per-unit", "4", "--spill-dir", missing.toString()},
            {"--privacy-unit", "patient", "--max-rows-per-unit", "4", "--spill-dir", csv.toString()},
            {"--spill-dir", dir.toString()},
        };
        String[] expected = {"--spill-dir: " + missing + " does not exist", "--spill-dir: " + csv
            + " is not a directory", "--spill-dir applies only with --privacy-unit"};
        for (int i = 0; i < cases.length; i++) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("fit", "--algorithm",
                    "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1", "--output",
                    out.toString(), "--ledger", ledger.toString(), csv.toString()));
            args.addAll(java.util.List.of(cases[i]));
            Cli.Result r = Cli.run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains(expected[i]);
            assertThat(Files.exists(out)).isFalse();
            assertThat(Files.readString(ledger)).as("nothing charged").isEqualTo(before);
        }
        assertThat(Cli.run("fit", "--help").out()).contains("--spill-dir=DIR");
    }
}
