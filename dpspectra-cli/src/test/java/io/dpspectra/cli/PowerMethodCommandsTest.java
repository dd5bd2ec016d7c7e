package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The power-method family of {@code fit} and the {@code spectral} command, end to end in-process. */
class PowerMethodCommandsTest {
    @TempDir
    Path dir;

    /** A 6-node graph: two triangles joined by one edge, as a symmetric MatrixMarket pattern file. */
    private Path twoTriangles() throws Exception {
        return Cli.write(dir, "g.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n6 6 7\n"
                + "2 1\n3 1\n3 2\n5 4\n6 4\n6 5\n4 3\n");
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
    void spectralPrivatePowerPrintsComponentsAndTheEntryLevelGuarantee() throws Exception {
        Cli.Released rd = Cli.runWithDiagnostics(dir, "spectral", "--algorithm", "private-power", "--matrix",
                twoTriangles().toString(), "--components", "2", "--iterations", "5", "--epsilon", "1", "--delta", "1e-6",
                "--seed", "3");
        Cli.Result r = rd.result();
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertUnitColumns(j.get("components"), 2, 6);
        assertThat(j.get("guarantee").get("neighbouring").asText()).isEqualTo("matrix-entry");
        assertThat(j.get("guarantee").get("epsilon").asDouble()).isEqualTo(1.0);
        assertThat(j.has("nonZeros") || j.has("diagnostics")).as("nnz depends on the entries: not in a private release")
                .isFalse();
        assertThat(rd.diagnostics().get("nonZeros").asInt()).isPositive();
        assertThat(j.get("dimension").asInt()).isEqualTo(6);
        // the exact (Gaussian DP) calibration of the p*L = 10 products on d = 6 coordinates
        assertThat(rd.diagnostics().get("sigma").asDouble()).isCloseTo(io.dpspectra.pca.PrivatePowerMethod.exactSigma(2, 5, 6,
                io.dpspectra.privacy.PrivacyParams.of(1, 1e-6)), within(1e-9));
    }

    @Test
    void spectralWritesOutputAtomicallyAndReadsEdgeLists() throws Exception {
        Path edges = Cli.write(dir, "g.csv", "u,v\n0,1\n1,2\n2,0\n3,4\n");
        Path out = dir.resolve("res.json");
        Cli.Released rd = Cli.runWithDiagnostics(dir, "spectral", "--matrix", edges.toString(), "-k", "1", "--noise",
                "laplace", "--sensitivity", "1.5", "--epsilon", "1", "--seed", "1", "--output", out.toString());
        Cli.Result r = rd.result();
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode j = Json.MAPPER.readTree(Files.readString(out));
        assertThat(j.get("guarantee").get("delta").asDouble()).isZero();
        assertThat(j.get("guarantee").get("neighbouring").asText()).isEqualTo("spectral-norm");
        assertThat(rd.diagnostics().get("sensitivityScale").asDouble()).isEqualTo(1.5);
        Cli.Released pd = Cli.runWithDiagnostics(dir, "spectral", "--matrix", edges.toString(), "-k", "1",
                "--symmetric-pairs", "--epsilon", "1", "--delta", "1e-6", "--seed", "1");
        Cli.Result pairs = pd.result();
        assertThat(pairs.exitCode()).as(pairs.toString()).isZero();
        JsonNode pj = Json.MAPPER.readTree(pairs.out());
        assertThat(pd.diagnostics().get("sensitivityScale").asDouble()).isCloseTo(Math.sqrt(2), within(1e-12));
        assertThat(pj.get("guarantee").get("privacyUnit").asText()).contains("symmetric pair");
        assertThat(pairs.err()).contains("--nodes");
    }

    @Test
    void spectralMalformedMatrixExitsThreeWithFileAndLineAndWritesNothing() throws Exception {
        Path bad = Cli.write(dir, "bad.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 4 1\n");
        Path out = dir.resolve("res.json");
        Cli.Result r = Cli.run("spectral", "--matrix", bad.toString(), "-k", "1", "--epsilon", "1", "--delta",
                "1e-6", "--output", out.toString());
        assertThat(r.exitCode()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(r.err()).contains("bad.mtx line 3").contains("outside [1, 3]");
        assertThat(out).doesNotExist();
    }

    @Test
    void spectralParameterErrorsExitTwo() throws Exception {
        String g = twoTriangles().toString();
        assertThat(Cli.run("spectral", "--matrix", g, "-k", "1", "--epsilon", "1").exitCode())
                .as("Gaussian noise without delta").isEqualTo(ExitCodes.USAGE);
        assertThat(Cli.run("spectral", "--matrix", g, "-k", "3", "--block-size", "2", "--epsilon", "1", "--delta",
                "1e-6").exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(Cli.run("spectral", "--matrix", g, "-k", "9", "--epsilon", "1", "--delta", "1e-6").exitCode())
                .isEqualTo(ExitCodes.USAGE);
        assertThat(Cli.run("spectral", "--matrix", g, "-k", "1", "--noise", "foo", "--epsilon", "1", "--delta",
                "1e-6").exitCode()).isEqualTo(ExitCodes.USAGE);
        // the exact calibration holds for every epsilon (Fig. 3's refused epsilon > 2.34 ln(1/delta)); it warns
        Cli.Result huge = Cli.run("spectral", "--matrix", g, "-k", "1", "--epsilon", "100", "--delta", "1e-6");
        assertThat(huge.exitCode()).as(huge.toString()).isZero();
        assertThat(huge.err()).contains("not meaningfully private");
    }

    @Test
    void fitPrivatePowerOnRowsReportsSpectralNoiseForTheRowRelation() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(300, 4));
        Cli.Released rd = Cli.runWithDiagnostics(dir, "fit", "--algorithm", "private-power", "-k", "2", "--iterations",
                "4", "--block-size", "3", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1", "--seed", "5",
                csv.toString());
        Cli.Result r = rd.result();
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertUnitColumns(j.get("components"), 2, 4);
        assertThat(j.get("guarantee").get("neighbouring").asText()).isEqualTo("add-remove");
        assertThat(rd.diagnostics().get("noise").asText()).isEqualTo("SPECTRAL_GAUSSIAN");
        // the multi-pass hint (convert to .dpsr) is for large files only
        assertThat(r.err()).doesNotContain("passes over");
        assertThat(rd.diagnostics().get("blockSize").asInt()).isEqualTo(3);
    }

    @Test
    void fitStreamingAndNoisyPowerAreMarkedNotPrivate() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(300, 4));
        for (String alg : new String[] {"streaming-power", "noisy-power"}) {
            Cli.Result r = Cli.run("fit", "--algorithm", alg, "-k", "1", "--iterations", "3", "--clip-norm", "1",
                    csv.toString());
            assertThat(r.exitCode()).as(r.toString()).isZero();
            JsonNode j = Json.MAPPER.readTree(r.out());
            assertThat(j.get("guarantee").isNull()).isTrue();
            assertThat(r.err()).contains("NOT differentially private");
            assertUnitColumns(j.get("components"), 1, 4);
        }
        assertThat(Cli.run("fit", "--algorithm", "streaming-power", "-k", "1", "--iterations", "0", "--clip-norm", "1",
                csv.toString()).exitCode()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void fitHelpListsThePowerMethodOptions() {
        assertThat(Cli.run("fit", "--help").out()).contains("--iterations", "--block-size", "--perturbation-sigma",
                "private-power", "streaming-power", "noisy-power");
        assertThat(Cli.run("--help").out()).contains("spectral");
    }
}
