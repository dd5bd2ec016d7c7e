package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sampling mechanisms through the CLI: covariance --algorithm it-u|ad|kt, fit --algorithm it-u|ad, and ridge. */
class CovarianceCliTest {
    @TempDir
    Path dir;

    private static JsonNode json(String s) throws Exception {
        return Json.MAPPER.readTree(s);
    }

    @Test
    void samplingAlgorithmsReleaseASymmetricMatrixWithUnitEigenvectorsAndProposalCounts() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(200, 4));
        for (String alg : List.of("it-u", "ad", "kt")) {
            Cli.Released rd = Cli.runWithDiagnostics(dir, "covariance", "--algorithm", alg, "--epsilon", "2",
                    "--clip-norm", "1", "--seed", "3", csv.toString());
            Cli.Result r = rd.result();
            assertThat(r.exitCode()).as(r.toString()).isZero();
            JsonNode j = json(r.out());
            JsonNode m = j.get("matrix");
            assertThat(m.size()).isEqualTo(4);
            for (int i = 0; i < 4; i++) {
                assertThat(m.get(i).size()).isEqualTo(4);
                for (int k = 0; k < 4; k++) {
                    assertThat(m.get(i).get(k).asDouble()).isEqualTo(m.get(k).get(i).asDouble());
                }
            }
            JsonNode vecs = j.get("eigenvectors");
            assertThat(vecs.size()).isEqualTo(4);
            for (JsonNode v : vecs) {
                assertThat(v.size()).isEqualTo(4);
                double s = 0;
                for (JsonNode x : v) {
                    s += x.asDouble() * x.asDouble();
                }
                assertThat(s).isCloseTo(1.0, org.assertj.core.api.Assertions.within(1e-9));
            }
            for (JsonNode l : j.get("eigenvalues")) {
                assertThat(l.asDouble()).isBetween(-1e-9, 200.0 + 1e-9);
            }
            assertThat(j.get("guarantee").get("epsilon").asDouble()).isEqualTo(2.0);
            assertThat(j.get("guarantee").get("delta").asDouble()).isZero();
            assertThat(j.has("diagnostics")).as("the release holds the release alone").isFalse();
            assertThat(rd.diagnostics().get("proposals").size()).isEqualTo(4);
            assertThat(rd.diagnostics().get("rows").asInt()).isEqualTo(200);
        }
    }

    @Test
    void samplingAlgorithmsRefuseAddRemoveNeighbouring() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        Cli.Result r = Cli.run("covariance", "--algorithm", "ad", "--epsilon", "1", "--neighbouring", "add-remove",
                "--clip-norm", "1", csv.toString());
        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("replace");
    }

    @Test
    void fitWithItuAndAdGivesOrthonormalComponents() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(300, 5));
        for (String alg : List.of("it-u", "ad")) {
            Cli.Result r = Cli.run("fit", "--algorithm", alg, "--components", "2", "--epsilon", "1",
                    "--clip-norm", "1", "--seed", "4", csv.toString());
            assertThat(r.exitCode()).as(r.toString()).isZero();
            JsonNode comps = json(r.out()).get("components");
            assertThat(comps.size()).isEqualTo(2);
            double dot = 0;
            for (int i = 0; i < 5; i++) {
                dot += comps.get(0).get(i).asDouble() * comps.get(1).get(i).asDouble();
            }
            assertThat(dot).isCloseTo(0.0, org.assertj.core.api.Assertions.within(1e-9));
        }
    }

    @Test
    void ridgeFromAReleasedCovarianceSolvesTheNormalEquationsOfTheRelease() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(200, 3));
        Path cov = dir.resolve("cov.json");
        Cli.Result rel = Cli.run("covariance", "--algorithm", "ad", "--epsilon", "5", "--clip-norm", "1",
                "--seed", "7", "-o", cov.toString(), csv.toString());
        assertThat(rel.exitCode()).as(rel.toString()).isZero();
        Cli.Result r = Cli.run("ridge", "--covariance", cov.toString(), "--target", "f1", "--alpha", "2");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode j = json(r.out());
        JsonNode m = json(Files.readString(cov)).get("matrix");
        double w2 = j.get("weights").get("f2").asDouble();
        double w3 = j.get("weights").get("f3").asDouble();
        // (A + 2I) w = b on the released matrix
        double r1 = (m.get(1).get(1).asDouble() + 2) * w2 + m.get(1).get(2).asDouble() * w3 - m.get(1).get(0).asDouble();
        double r2 = m.get(2).get(1).asDouble() * w2 + (m.get(2).get(2).asDouble() + 2) * w3 - m.get(2).get(0).asDouble();
        assertThat(Math.abs(r1) + Math.abs(r2)).isLessThan(1e-9);
        assertThat(j.get("guarantee").get("epsilon").asDouble()).isEqualTo(5.0);
        Cli.Result byIndex = Cli.run("ridge", "--covariance", cov.toString(), "--target", "1", "--alpha", "2");
        assertThat(json(byIndex.out()).get("weights")).isEqualTo(j.get("weights"));
        Cli.Result bad = Cli.run("ridge", "--covariance", cov.toString(), "--target", "nope", "--alpha", "2");
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("nope");
    }

    private static double[] vectorBudgets(Cli.Released r) throws Exception {
        assertThat(r.result().exitCode()).as(r.result().toString()).isZero();
        JsonNode e = r.diagnostics().get("epsilonVectors");
        double[] out = new double[e.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = e.get(i).asDouble();
        }
        return out;
    }

    @Test
    void skipLastVectorMovesTheLastVectorsBudgetToTheOthersInCovarianceAndFit() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(200, 4));
        String[] common = {"--epsilon", "2", "--clip-norm", "1", "--seed", "3", csv.toString()};
        Cli.Released paper = Cli.runWithDiagnostics(dir, concat(new String[] {"covariance", "--algorithm", "it-u"},
                common));
        Cli.Released skip = Cli.runWithDiagnostics(dir, concat(new String[] {"covariance", "--algorithm", "it-u", "--skip-last-vector"},
                common));

        // the vector budget epsilon/2 = 1: over d = 4 vectors by default, over the first 3 with the flag
        assertThat(vectorBudgets(paper)).containsExactly(new double[] {0.25, 0.25, 0.25, 0.25},
                org.assertj.core.api.Assertions.within(1e-12));
        assertThat(vectorBudgets(skip)).containsExactly(new double[] {1 / 3.0, 1 / 3.0, 1 / 3.0, 0},
                org.assertj.core.api.Assertions.within(1e-12));
        assertThat(json(skip.result().out()).get("guarantee").get("epsilon").asDouble()).isEqualTo(2.0);

        Cli.Released ad = Cli.runWithDiagnostics(dir, concat(new String[] {"fit", "--algorithm", "ad",
            "--components", "4", "--skip-last-vector"}, common));
        double[] adBudgets = vectorBudgets(ad);
        assertThat(adBudgets[3]).isZero();
        assertThat(adBudgets[0] + adBudgets[1] + adBudgets[2]).isCloseTo(1.0,
                org.assertj.core.api.Assertions.within(1e-12));
    }

    @Test
    void skipLastVectorIsRefusedForAlgorithmsOtherThanTheIterativeSamplers() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        for (String alg : List.of("kt", "laplace")) {
            Cli.Result r = Cli.run("covariance", "--algorithm", alg, "--skip-last-vector", "--epsilon", "1",
                    "--clip-norm", "1", csv.toString());
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("--skip-last-vector does not apply to --algorithm " + alg)
                    .contains("drop --skip-last-vector");
        }
        Cli.Result fit = Cli.run("fit", "--algorithm", "private-power", "--components", "2", "--skip-last-vector",
                "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1", csv.toString());
        assertThat(fit.exitCode()).as(fit.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(fit.err()).contains("--skip-last-vector does not apply to --algorithm private-power")
                .contains("it-u, ad");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
