package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.Release;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End-to-end runs of the commands on small files. These need the core packages: CsvRows/metrics/synthetic
 * (wp-data), BinaryRows (wp-linalg), ExactPca/AnalyzeGauss/GaussianCovariance/LaplaceCovariance (wp-algos)
 * and the noise samplers (wp-noise).
 */
class CommandsTest {
    @TempDir
    Path dir;

    private static JsonNode json(String text) throws Exception {
        return Json.MAPPER.readTree(text);
    }

    private static void assertUnitColumns(JsonNode components, int k, int d) {
        assertThat(components.size()).isEqualTo(k);
        for (JsonNode c : components) {
            assertThat(c.size()).isEqualTo(d);
            double s = 0;
            for (JsonNode v : c) {
                s += v.asDouble() * v.asDouble();
            }
            assertThat(s).isCloseTo(1.0, within(1e-9));
        }
    }

    @Test
    void analyzeGaussFitPrintsComponentsAndTheGuaranteeItSpent() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(200, 4));
        Cli.Released rd = Cli.runWithDiagnostics(dir, "fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon",
                "0.5", "--delta", "1e-6", "--clip-norm", "1", "--seed", "7", csv.toString());
        Cli.Result r = rd.result();
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode j = json(r.out());
        assertThat(j.get("algorithm").asText()).isEqualTo("analyze-gauss");
        assertUnitColumns(j.get("components"), 2, 4);
        JsonNode g = j.get("guarantee");
        assertThat(g.get("epsilon").asDouble()).isEqualTo(0.5);
        assertThat(g.get("delta").asDouble()).isEqualTo(1e-6);
        assertThat(g.get("neighbouring").asText()).isEqualTo("add-remove");
        assertThat(g.has("mechanism") && g.has("sensitivity") && g.has("privacyUnit") && g.has("reference")).isTrue();
        assertThat(j.get("seededNoise").asBoolean()).isTrue();
        assertThat(j.get("preprocessing").get("normBound").asDouble()).isEqualTo(1.0);
        assertThat(j.has("diagnostics") || j.has("rows") || j.has("input")).as("curator facts stay out").isFalse();
        assertThat(rd.diagnostics().get("rows").asInt()).isEqualTo(200);
        assertThat(rd.diagnostics().get("clippedRows").asInt()).isZero();
        assertThat(rd.diagnostics().get(Release.NOT_PRIVATE_KEY).asText()).contains("WITHOUT differential privacy");
        assertThat(r.err()).contains("--seed").contains("NOT private");
    }

    @Test
    void seededFitsAreReproducible() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(100, 3));
        String[] args = {"fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
            "--clip-norm", "1", "--seed", "3", csv.toString()};
        assertThat(json(Cli.run(args).out()).get("components"))
                .isEqualTo(json(Cli.run(args).out()).get("components"));
    }

    @Test
    void replaceNeighbouringIsRecordedInTheGuarantee() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(100, 3));
        Cli.Result r = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
                "--neighbouring", "replace", "--clip-norm", "1", csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(json(r.out()).get("guarantee").get("neighbouring").asText()).isEqualTo("replace");
    }

    @Test
    void exactFitHasNoGuaranteeAndWarns() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        Cli.Result r = Cli.run("fit", "--algorithm", "exact", "-k", "2", "--norm-bound", "1", csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode j = json(r.out());
        assertThat(j.get("guarantee").isNull()).isTrue();
        assertUnitColumns(j.get("components"), 2, 3);
        assertThat(j.get("explainedVariance").size()).isEqualTo(2);
        assertThat(r.err()).contains("NOT differentially private");
    }

    @Test
    void fitWithOutputWritesOnlyTheFileAndTableFormatIsReadable() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        Path out = dir.resolve("model.json");
        Cli.Result r = Cli.run("fit", "--algorithm", "exact", "-k", "1", "--clip-norm", "1", "--output",
                out.toString(), csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(json(Files.readString(out)).get("components").size()).isEqualTo(1);
        assertThat(Cli.files(dir)).containsExactlyInAnyOrder("data.csv", "model.json");

        Cli.Result t = Cli.run("fit", "--algorithm", "exact", "-k", "2", "--clip-norm", "1", "--format", "table",
                csv.toString());
        assertThat(t.out()).contains("f1", "f2", "f3", "PC1", "PC2", "NOT");
    }

    @Test
    void exactModelEvaluatedOnItsOwnDataCapturesAllVariance() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(80, 4));
        Path model = dir.resolve("model.json");
        assertThat(Cli.run("fit", "--algorithm", "exact", "-k", "2", "--norm-bound", "1", "--output",
                model.toString(), csv.toString()).exitCode()).isZero();
        Cli.Result r = Cli.run("evaluate", "--model", model.toString(), csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode j = json(r.out());
        assertThat(j.get("capturedVarianceRatio").asDouble()).isCloseTo(1.0, within(1e-9));
        assertThat(j.get("subspaceDistance").asDouble()).isCloseTo(0.0, within(1e-6));
    }

    @Test
    void transformPrintsOneCoordinateRowPerInputRow() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(30, 3));
        Path model = dir.resolve("model.json");
        assertThat(Cli.run("fit", "--algorithm", "exact", "-k", "2", "--clip-norm", "1", "--output",
                model.toString(), csv.toString()).exitCode()).isZero();
        Cli.Result r = Cli.run("transform", "--model", model.toString(), csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(31);
        assertThat(lines.get(0)).isEqualTo("pc1,pc2");
        // coordinates of a row in an orthonormal basis have at most the row's norm (< 1 here)
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",");
            double y1 = Double.parseDouble(cells[0]);
            double y2 = Double.parseDouble(cells[1]);
            assertThat(y1 * y1 + y2 * y2).isLessThanOrEqualTo(1.0);
        }
    }

    @Test
    void transformRejectsADimensionMismatch() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(30, 3));
        Path other = Cli.write(dir, "other.csv", Cli.smallCsv(30, 4));
        Path model = dir.resolve("model.json");
        assertThat(Cli.run("fit", "--algorithm", "exact", "-k", "1", "--clip-norm", "1", "--output",
                model.toString(), csv.toString()).exitCode()).isZero();
        Cli.Result r = Cli.run("transform", "--model", model.toString(), other.toString());
        assertThat(r.exitCode()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(r.err()).contains("4 columns").contains("dimension 3");
    }

    @Test
    void transformAndEvaluateRefuseComponentsThatAreNotOrthonormalSayingByHowMuch() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(30, 3));
        // unit columns 37 degrees apart: UᵀU has 0.8 off the diagonal
        Path skewed = Cli.write(dir, "skewed.json", "{\"components\": [[1, 0, 0], [0.8, 0.6, 0]]}");
        for (String command : new String[] {"transform", "evaluate"}) {
            Cli.Result r = Cli.run(command, "--model", skewed.toString(), csv.toString());
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.BAD_DATA);
            assertThat(r.err()).contains("not orthonormal (max |UᵀU - I| = 0.800").doesNotContain("Orthonormal.qr");
            assertThat(r.out()).isEmpty();
        }
        // rounding a released model to 9 digits keeps it a model
        Path rounded = Cli.write(dir, "rounded.json", "{\"components\": [[0.600000000, 0.800000000, 0]]}");
        assertThat(Cli.run("transform", "--model", rounded.toString(), csv.toString()).exitCode()).isZero();
    }

    @Test
    void convertedBinaryFileGivesTheSameExactComponentsAsTheCsv() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(60, 3));
        Path bin = dir.resolve("data.dpsr");
        assertThat(Cli.run("convert", csv.toString(), bin.toString()).exitCode()).isZero();
        JsonNode a = json(Cli.run("fit", "--algorithm", "exact", "-k", "1", "--clip-norm", "1", csv.toString()).out());
        JsonNode b = json(Cli.run("fit", "--algorithm", "exact", "-k", "1", "--clip-norm", "1", bin.toString()).out());
        JsonNode ca = a.get("components").get(0);
        JsonNode cb = b.get("components").get(0);
        double dot = 0;
        for (int i = 0; i < 3; i++) {
            dot += ca.get(i).asDouble() * cb.get(i).asDouble();
        }
        assertThat(Math.abs(dot)).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void generateWritesTheRequestedShapeAndIsDeterministicInTheSeed() throws Exception {
        Path a = dir.resolve("a.csv");
        Path b = dir.resolve("b.csv");
        String[] common = {"generate", "--model", "spiked", "--eigenvalues", "10,5", "--noise-sd", "0.5",
            "--rows", "25", "--dim", "6", "--seed", "11", "--output"};
        assertThat(Cli.run(concat(common, a.toString())).exitCode()).isZero();
        assertThat(Cli.run(concat(common, b.toString())).exitCode()).isZero();
        List<String> lines = Files.readAllLines(a);
        assertThat(lines).hasSize(26);
        assertThat(lines.get(0)).isEqualTo("x1,x2,x3,x4,x5,x6");
        assertThat(lines.get(1).split(",")).hasSize(6);
        assertThat(Files.readString(a)).isEqualTo(Files.readString(b));
        Path g = dir.resolve("g.dpsr");
        Cli.Result r = Cli.run("generate", "--model", "gaussian", "-k", "2", "--rows", "10", "--dim", "4",
                "--output", g.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(Files.readAllBytes(g)).startsWith("DPSR".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    @Test
    void covarianceReleasesASymmetricMatrixWithItsEigenpairs() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(100, 3));
        for (String alg : List.of("laplace", "gaussian")) {
            Cli.Result r = Cli.run("covariance", "--algorithm", alg, "--epsilon", "1", "--delta", "1e-6",
                    "--clip-norm", "1", csv.toString());
            assertThat(r.exitCode()).as(r.toString()).isZero();
            JsonNode j = json(r.out());
            JsonNode m = j.get("matrix");
            assertThat(m.size()).isEqualTo(3);
            for (int i = 0; i < 3; i++) {
                assertThat(m.get(i).size()).isEqualTo(3);
                for (int k = 0; k < 3; k++) {
                    assertThat(m.get(i).get(k).asDouble()).isEqualTo(m.get(k).get(i).asDouble());
                }
            }
            assertThat(j.get("eigenvalues").size()).isEqualTo(3);
            assertThat(j.get("eigenvectors").size()).isEqualTo(3);
            assertThat(j.get("guarantee").get("epsilon").asDouble()).isEqualTo(1.0);
        }
    }

    @Test
    void demoPrintsTheComponentsAndPrivacySpentAndWritesAPng() throws Exception {
        Cli.Result r = Cli.run("demo", "--output-dir", dir.toString(), "--seed", "5");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("alcohol", "proline", "PC1", "PC2", "captured variance", "epsilon = 1.0",
                "delta = 1.0E-5", "add-remove");
        Path png = dir.resolve("dpspectra-demo.png");
        byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(png), 8);
        assertThat(head).isEqualTo(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
        assertThat(Cli.files(dir)).containsExactly("dpspectra-demo.png");
    }

    private static String[] concat(String[] a, String b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + 1);
        r[a.length] = b;
        return r;
    }
}
