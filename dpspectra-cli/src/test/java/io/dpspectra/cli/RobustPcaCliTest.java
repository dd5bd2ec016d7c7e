package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.Json;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.synthetic.Haystack;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The robust-PCA family of {@code fit}, end to end in-process. */
class RobustPcaCliTest {
    @TempDir
    Path dir;

    private Haystack.Sample sample;

    /** A haystack CSV (N = 600, D = 8, r = 2, half inliers) with rows scaled by 3 (the sphere map undoes it). */
    private Path haystack() throws Exception {
        sample = Haystack.generate(600, 8, 2, 0.5, RandomSource.seededForReproducibility(5));
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < 8; j++) {
            sb.append(j > 0 ? "," : "").append("x").append(j);
        }
        sb.append('\n');
        for (double[] row : sample.rows()) {
            for (int j = 0; j < 8; j++) {
                sb.append(j > 0 ? "," : "").append(3 * row[j]);
            }
            sb.append('\n');
        }
        return Cli.write(dir, "h.csv", sb.toString());
    }

    private static Matrix components(JsonNode j, int d) {
        JsonNode c = j.get("components");
        double[][] cols = new double[c.size()][d];
        for (int k = 0; k < c.size(); k++) {
            for (int i = 0; i < d; i++) {
                cols[k][i] = c.get(k).get(i).asDouble();
            }
        }
        return Matrix.fromColumns(cols);
    }

    @Test
    void dpSggdRecoversTheHaystackFromScaledRowsWithItsGuarantee() throws Exception {
        Path csv = haystack();
        Cli.Result r = Cli.run("fit", "--algorithm", "dp-sggd", "-k", "2", "--epsilon", "4", "--delta", "1e-3",
                "--clip-norm", "10", "--seed", "7", csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertThat(j.get("guarantee").get("epsilon").asDouble()).isEqualTo(4.0);
        assertThat(j.get("guarantee").get("neighbouring").asText()).isEqualTo("replace");
        assertThat(SubspaceMetrics.dR2(components(j, 8), sample.truth())).isLessThan(1e-2);
    }

    @Test
    void ggdIsFlaggedNotPrivateAndRecoversTheSubspace() throws Exception {
        Path csv = haystack();
        Cli.Result r = Cli.run("fit", "--algorithm", "ggd", "-k", "2", "--iterations", "300", "--clip-norm", "10",
                csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("NOT differentially private");
        assertThat(SubspaceMetrics.dR2(components(Json.MAPPER.readTree(r.out()), 8), sample.truth())).isLessThan(1e-4);
    }

    @Test
    void reaperStatesItsMemoryAndTimeBeforeItStarts() throws Exception {
        Path csv = haystack();
        Cli.Result r = Cli.run("fit", "--algorithm", "dp-md-reap", "-k", "2", "--iterations", "50", "--epsilon", "1",
                "--delta", "1e-3", "--clip-norm", "10", "--seed", "1", csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("REAPER at D = 8 needs about").contains("per iteration");
    }

    @Test
    void badRobustOptionsAreUsageErrorsNamingTheOption() throws Exception {
        Path csv = haystack();
        Cli.Result r = Cli.run("fit", "--algorithm", "dp-ggd", "-k", "2", "--epsilon", "1", "--delta", "1e-3",
                "--clip-norm", "10", "--row-norm", "cube", csv.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--row-norm");
        r = Cli.run("fit", "--algorithm", "dp-gd-reap", "-k", "2", "--epsilon", "1", "--delta", "1e-3",
                "--clip-norm", "10", "--restarts", "3", csv.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--restarts");
        r = Cli.run("fit", "--algorithm", "dp-sggd", "-k", "2", "--epsilon", "1", "--delta", "1e-3",
                "--clip-norm", "10", "--paper-literal", csv.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--paper-constant");
    }
}
