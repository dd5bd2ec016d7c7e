package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.SchemaJson;
import io.dpspectra.linalg.Vectors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The four real data sets through the tool alone, with the shipped schemas (adult, airfoil, wine) or a
 * drafted one (isolet5). Each test skips cleanly when its data set is absent. The shared folder is
 * {@code -Ddpspectra.datasets=DIR}, else {@code $DPSPECTRA_DATASETS}, else the first
 * {@code shared/datasets} found walking up from the working directory (the repository sits next to it).
 */
class RealDataPipelineTest {
    @TempDir
    Path dir;

    static Path datasets() {
        String p = System.getProperty("dpspectra.datasets", System.getenv("DPSPECTRA_DATASETS"));
        if (p != null && !p.isBlank()) {
            return Path.of(p);
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path c = d.resolve("shared/datasets");
            if (Files.isDirectory(c)) {
                return c;
            }
        }
        return Path.of("/nonexistent");
    }

    static Path dataset(String relative) {
        Path f = datasets().resolve(relative);
        assumeTrue(Files.isReadable(f), "data set " + relative + " absent");
        return f;
    }

    static Path schema(String name) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path c = d.resolve("docs/schemas/" + name);
            if (Files.isReadable(c)) {
                return c;
            }
        }
        throw new AssertionError("docs/schemas/" + name + " not found above " + Path.of("").toAbsolutePath());
    }

    private static JsonNode json(Cli.Result r) throws Exception {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return Json.MAPPER.readTree(r.out());
    }

    @Test
    void adultGoesToAPrivateTop2PcaWith108OneHotFeaturesAndNoClipping() throws Exception {
        Path adult = dataset("adult/adult.data.gz");
        Cli.Released rd = Cli.runWithDiagnostics(dir, "fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1",
                "--delta", "1e-6", "--schema", schema("adult.json").toString(), "--seed", "3", adult.toString());
        JsonNode m = json(rd.result());
        assertThat(m.get("dimension").asInt()).isEqualTo(108);
        assertThat(rd.diagnostics().path("clippedRows").asLong()).isZero(); // bound by construction
        assertThat(rd.diagnostics().path("rows").asLong()).isEqualTo(32_561);
        assertThat(m.path("preprocessing").path("normBound").asDouble()).isCloseTo(Math.sqrt(14),
                org.assertj.core.data.Offset.offset(1e-12));
        assertThat(m.path("preprocessing").path("normBoundOrigin").asText()).contains("by construction");
    }

    @Test
    void airfoilGivesAPrivateCovarianceWithPrivateCentringAndBoundAndARidgeFit() throws Exception {
        Path airfoil = dataset("airfoil/airfoil_self_noise.dat");
        Path cov = dir.resolve("cov.json");
        Cli.Result r = Cli.run("covariance", "--algorithm", "gaussian", "--epsilon", "1", "--delta", "1e-6",
                "--schema", schema("airfoil.json").toString(), "--center", "private:0.2", "--clip-norm", "private:0.95",
                "--seed", "4", "-o", cov.toString(), airfoil.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode c = Json.MAPPER.readTree(cov.toFile());
        JsonNode g = c.get("guarantee");
        assertThat(g.get("epsilon").asDouble()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(g.get("parts")).hasSize(3);
        assertThat(g.get("parts").get(0).get("mechanism").asText()).contains("quantile");
        // n = 1503 is public under replace: the automatic share is planned for it, more than the fixed 0.1 for the
        // 0.95-quantile of so few rows, at most half
        assertThat(g.get("parts").get(0).get("epsilon").asDouble()).isGreaterThan(0.1)
                .isLessThanOrEqualTo(io.dpspectra.data.AdaptiveQuantile.MAX_AUTO_SHARE);
        assertThat(g.get("parts").get(1).get("mechanism").asText()).contains("private mean (Gaussian");
        assertThat(g.get("parts").get(1).get("epsilon").asDouble()).isCloseTo(0.2, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(c.path("preprocessing").path("privateMean")).hasSize(6);
        assertThat(c.path("preprocessing").path("center").asText()).isEqualTo("private");
        Cli.Result ridge = Cli.run("ridge", "--covariance", cov.toString(), "--target", "scaled_sound_pressure_db",
                "--alpha", "1");
        assertThat(ridge.exitCode()).as(ridge.toString()).isZero();
        assertThat(Json.MAPPER.readTree(ridge.out()).get("weights")).hasSize(5);
    }

    @Test
    void wineSkipsItsTitleLineAndIgnoresItsLabel() throws Exception {
        Path wine = dataset("wine/wine_data.csv");
        JsonNode m = json(Cli.run("covariance", "--algorithm", "laplace", "--epsilon", "1", "--schema",
                schema("wine.json").toString(), "--seed", "5", wine.toString()));
        assertThat(m.get("dimension").asInt()).isEqualTo(13);
        assertThat(m.get("explainedVarianceRatio")).hasSize(13);
    }

    @Test
    void isolet5GoesThroughADraftedSchemaWithPrivateBoundsAndAutoK() throws Exception {
        Path isolet = dataset("isolet5/isolet5.csv.gz");
        Path draft = dir.resolve("isolet.json");
        Cli.Result d = Cli.run("schema", "draft", "-o", draft.toString(), isolet.toString());
        assertThat(d.exitCode()).as(d.toString()).isZero();
        String text = Files.readString(draft);
        assertThat(text).doesNotContain("\"min\""); // names and types only
        // the label is the last column: mark it ignored, as a user would
        JsonNode s = Json.MAPPER.readTree(text);
        ((com.fasterxml.jackson.databind.node.ObjectNode) s.get("columns").get(617)).put("type", "ignore");
        Files.writeString(draft, Json.write(s));
        JsonNode m = json(Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "auto:0.5", "--epsilon", "2", "--delta",
                "1e-6", "--schema",
                draft.toString(), "--clip-norm", "private:0.9", "--seed", "6", isolet.toString()));
        assertThat(m.get("dimension").asInt()).isEqualTo(617);
        int k = m.path("spectrum").path("chosenK").asInt();
        assertThat(k).isBetween(1, 617);
        assertThat(m.get("k").asInt()).isEqualTo(k);
        assertThat(m.path("guarantee").path("parts")).hasSize(3); // bound, spectrum, analyze-gauss
        assertThat(m.path("guarantee").path("epsilon").asDouble()).isCloseTo(2, org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void transformReplaysFitsPreprocessingOnAFreshFile() throws Exception {
        Path adult = dataset("adult/adult.data.gz");
        Path model = dir.resolve("m.json");
        Cli.Result fit = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6",
                "--schema", schema("adult.json").toString(), "--center", "private", "--seed", "7", "-o", model.toString(),
                adult.toString());
        assertThat(fit.exitCode()).as(fit.toString()).isZero();
        // a fresh file: three rows in adult's layout, not from the training data
        Path fresh = Cli.write(dir, "fresh.data", "50, Private, 200000, Masters, 14, Divorced, Sales, Unmarried, "
                + "White, Female, 0, 0, 45, Canada, >50K\n30, ?, 100000, HS-grad, 9, Never-married, ?, Own-child, Black, "
                + "Male, 500, 0, 20, ?, <=50K\n95, State-gov, 123456, Doctorate, 16, Widowed, Exec-managerial, "
                + "Not-in-family, Other, Female, 99999, 0, 99, Peru, >50K\n");
        Cli.Result t = Cli.run("transform", "--model", model.toString(), fresh.toString());
        assertThat(t.exitCode()).as(t.toString()).isZero();
        List<String> lines = t.out().lines().toList();
        assertThat(lines).hasSize(4);
        // recompute the preprocessing independently: schema map, minus the released mean, then project
        JsonNode m = Json.MAPPER.readTree(model.toFile());
        JsonNode pre = m.get("preprocessing");
        io.dpspectra.data.Schema schema = SchemaJson.parse(pre.get("schema")).schema();
        double[] mean = Json.MAPPER.convertValue(pre.get("privateMean"), double[].class);
        double bound = pre.get("normBound").asDouble();
        String[] cells = "50,Private,200000,Masters,14,Divorced,Sales,Unmarried,White,Female,0,0,45,Canada,>50K".split(",");
        double[] x = new double[108];
        schema.map(cells, x, true, new long[1], "test");
        for (int j = 0; j < 108; j++) {
            x[j] -= mean[j];
        }
        assertThat(Vectors.norm2(x)).isLessThanOrEqualTo(bound);
        String[] got = lines.get(1).split(",");
        for (int c = 0; c < 2; c++) {
            double expected = 0;
            for (int j = 0; j < 108; j++) {
                expected += m.get("components").get(c).get(j).asDouble() * x[j];
            }
            assertThat(Double.parseDouble(got[c])).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-9));
        }
        // a file with other columns is refused
        Path other = Cli.write(dir, "other.csv", "a,b\n1,2\n");
        Cli.Result bad = Cli.run("transform", "--model", model.toString(), other.toString());
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(bad.err()).contains("schema lists 15 columns");
    }

    @Test
    void adultTestWithItsTitleLineIsProjectedWithTheAdultModelKeepingTheIncomeLabel() throws Exception {
        Path model = dir.resolve("m.json");
        Cli.Result fit = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6",
                "--schema", schema("adult.json").toString(), "--seed", "7", "-o", model.toString(),
                dataset("adult/adult.data.gz").toString());
        assertThat(fit.exitCode()).as(fit.toString()).isZero();
        Path test = dataset("adult/adult.test.gz");
        // its first line is "|1x3 Cross validator"
        Cli.Result untitled = Cli.run("transform", "--model", model.toString(), test.toString());
        assertThat(untitled.exitCode()).isEqualTo(ExitCodes.BAD_DATA);
        Path out = dir.resolve("test-pcs.csv");
        Cli.Result t = Cli.run("transform", "--model", model.toString(), "--skip-lines", "1", "--keep-columns", "income",
                "-o", out.toString(), test.toString());
        assertThat(t.exitCode()).as(t.toString()).isZero();
        List<String> lines = Files.readAllLines(out);
        assertThat(lines.get(0)).isEqualTo("income,pc1,pc2");
        assertThat(lines).hasSize(16_282); // the 16,281 test rows
        assertThat(lines.subList(1, lines.size())).allMatch(l -> l.startsWith("<=50K.,") || l.startsWith(">50K.,"));
        assertThat(lines.stream().filter(l -> l.startsWith(">50K.,")).count()).isEqualTo(3846);
    }
}
