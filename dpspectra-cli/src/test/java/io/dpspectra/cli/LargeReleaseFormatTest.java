package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.Tables;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output at scale: a readable table beyond 8 columns, one notation for eigenvalues,
 * compact JSON, NumPy .npy with the guarantee beside it, and --no-eigenvectors.
 */
class LargeReleaseFormatTest {
    @TempDir
    Path dir;

    private Path csv12() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int j = 1; j <= 12; j++) {
            sb.append(j > 1 ? "," : "").append(j == 3 ? "a_rather_long_column_name" : "c" + j);
        }
        sb.append('\n');
        sb.append(Cli.smallCsv(200, 12).lines().skip(1).collect(java.util.stream.Collectors.joining("\n")));
        return Cli.write(dir, "wide.csv", sb + "\n");
    }

    private String[] covariance(Path csv, String... extra) {
        String[] base = {"covariance", "--algorithm", "gaussian", "--epsilon", "1", "--delta", "1e-6", "--clip-norm",
            "1", "--seed", "4"};
        String[] all = java.util.Arrays.copyOf(base, base.length + extra.length + 1);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        all[all.length - 1] = csv.toString();
        return all;
    }

    @Test
    void aWideTableIsASummaryInOneNotation() throws Exception {
        Cli.Result r = Cli.run(covariance(csv12(), "--format", "table"));
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("12 x 12 matrix: its 10 largest entries (of 78 in the upper triangle)")
                .contains("a_rather_long_column_name").contains("eigenvalues (largest 10 of 12):")
                .contains("--format json, compact or npy");
        String table = r.out().substring(0, r.out().indexOf("(the full matrix"));
        assertThat(table.lines()).allSatisfy(l -> assertThat(l.length()).isLessThan(80));
        assertThat(Tables.values("eigenvalues", new double[] {100, 2.5, 1e-15}))
                .isEqualTo("eigenvalues: 100.000000 2.500000 0\n");
        assertThat(Tables.values("eigenvalues", new double[] {2e7, 3})).isEqualTo("eigenvalues: 2.000000e+07 3.000000e+00\n");
    }

    @Test
    void compactJsonIsOneLineWithTheSameContentAndNoEigenvectorsDropsThem() throws Exception {
        Path csv = csv12();
        JsonNode pretty = Json.MAPPER.readTree(Cli.run(covariance(csv)).out());
        Cli.Result compact = Cli.run(covariance(csv, "--format", "compact"));
        assertThat(compact.out().strip().lines().count()).isEqualTo(1);
        assertThat(Json.MAPPER.readTree(compact.out())).isEqualTo(pretty);
        assertThat(compact.out().length()).isLessThan(Cli.run(covariance(csv)).out().length());
        JsonNode lean = Json.MAPPER.readTree(Cli.run(covariance(csv, "--no-eigenvectors")).out());
        assertThat(lean.has("eigenvectors")).isFalse();
        assertThat(lean.get("eigenvalues")).isEqualTo(pretty.get("eigenvalues"));
    }

    @Test
    void npyHoldsTheMatrixAndTheGuaranteeTravelsBesideIt() throws Exception {
        Path csv = csv12();
        JsonNode pretty = Json.MAPPER.readTree(Cli.run(covariance(csv)).out());
        Path npy = dir.resolve("cov.npy");
        Cli.Result r = Cli.run(covariance(csv, "--format", "npy", "--output", npy.toString()));
        assertThat(r.exitCode()).as(r.toString()).isZero();
        byte[] bytes = Files.readAllBytes(npy);
        assertThat(new String(bytes, 1, 5, StandardCharsets.US_ASCII)).isEqualTo("NUMPY");
        int headerLength = (bytes[8] & 0xff) | (bytes[9] & 0xff) << 8;
        assertThat((10 + headerLength) % 64).isZero();
        String header = new String(bytes, 10, headerLength, StandardCharsets.US_ASCII);
        assertThat(header).contains("'descr': '<f8'").contains("'fortran_order': True").contains("'shape': (12, 12)");
        ByteBuffer data = ByteBuffer.wrap(bytes, 10 + headerLength, bytes.length - 10 - headerLength)
                .order(ByteOrder.LITTLE_ENDIAN);
        assertThat(bytes.length - 10 - headerLength).isEqualTo(8 * 144);
        for (int j = 0; j < 12; j++) {
            for (int i = 0; i < 12; i++) {
                assertThat(data.getDouble()).isCloseTo(pretty.get("matrix").get(i).get(j).asDouble(), within(0.0));
            }
        }
        JsonNode beside = Json.MAPPER.readTree(dir.resolve("cov.json").toFile());
        assertThat(beside.get("guarantee")).isEqualTo(pretty.get("guarantee"));
        assertThat(beside.get("matrix").get("file").asText()).isEqualTo("cov.npy");
        assertThat(beside.get("eigenvalues")).isEqualTo(pretty.get("eigenvalues"));

        Cli.Result noFile = Cli.run(covariance(csv, "--format", "npy"));
        assertThat(noFile.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noFile.err()).contains("--format npy writes a binary NumPy file and needs --output FILE.npy");
    }
}
