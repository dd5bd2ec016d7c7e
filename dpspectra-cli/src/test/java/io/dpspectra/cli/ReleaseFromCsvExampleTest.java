package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.Json;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/ReleaseFromCsv.java, launched as the Java guide shows it (a single-file source program on
 * dpspectra-core's classes and core's runtime class path only: no picocli, no Jackson), makes the release
 * {@code dpspectra fit --algorithm analyze-gauss --schema S --center private --components auto:0.9} makes for
 * the same seed, and prints its composed guarantee.
 */
class ReleaseFromCsvExampleTest {
    private static final String EPSILON = "1";
    private static final String DELTA = "1e-6";
    private static final String SEED = "42";

    /** The repository's root: the first directory up from here holding examples/ReleaseFromCsv.java. */
    private static Path root() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("examples/ReleaseFromCsv.java"))) {
                return d;
            }
        }
        throw new AssertionError("examples/ReleaseFromCsv.java not found above " + Path.of("").toAbsolutePath());
    }

    /** dpspectra-core's classes and its runtime dependencies, as the core build writes them. */
    private static String coreClassPath(Path root) throws IOException {
        Path core = root.resolve("dpspectra-core/target");
        String deps = Files.readString(core.resolve("runtime-classpath.txt"), StandardCharsets.UTF_8).trim();
        return core.resolve("classes") + (deps.isEmpty() ? "" : File.pathSeparator + deps);
    }

    /** A public schema and a CSV through it: 5 bounded numeric columns, one categorical, one ignored. */
    private static Path[] data(Path dir) throws IOException {
        Path schema = Cli.write(dir, "schema.json", """
                {"description": "five measurements in [-2, 2], a colour and an ignored id",
                 "format": {"separator": ",", "skipLines": 1},
                 "columns": [
                   {"name": "id", "type": "ignore"},
                   {"name": "a", "type": "numeric", "min": -2, "max": 2, "center": 0, "scale": 2},
                   {"name": "b", "type": "numeric", "min": -2, "max": 2, "center": 0, "scale": 2},
                   {"name": "c", "type": "numeric", "min": -2, "max": 2, "center": 0, "scale": 2},
                   {"name": "d", "type": "numeric", "min": -2, "max": 2},
                   {"name": "e", "type": "numeric", "min": -2, "max": 2},
                   {"name": "colour", "type": "categorical", "categories": ["red", "green", "blue"]}
                 ]}
                """);
        StringBuilder sb = new StringBuilder("id,a,b,c,d,e,colour\n");
        String[] colours = {"red", "green", "blue"};
        for (int i = 0; i < 2000; i++) {
            double t = Math.sin(0.37 * i) * 1.5; // one strong direction, values clamped at +-2 now and then
            sb.append(String.format(Locale.ROOT, "%d,%.4f,%.4f,%.4f,%.4f,%.4f,%s%n", i, t + 0.1 * Math.cos(i),
                    0.8 * t + 0.1 * Math.sin(1.7 * i), -0.6 * t, 0.3 * Math.cos(0.11 * i), 2.5 * Math.sin(0.05 * i),
                    colours[(i * 7) % 3]));
        }
        return new Path[] {schema, Cli.write(dir, "rows.csv", sb.toString())};
    }

    private record Run(int exitCode, String out, String err) {
    }

    private static Run example(Path root, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", coreClassPath(root), root.resolve("examples/ReleaseFromCsv.java").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(root.toFile()).start();
        p.getOutputStream().close();
        // the outputs are small: read them after the exit
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the example did not finish in 300 s");
        }
        return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void theExampleOnCoreAloneReleasesTheComponentsFitReleasesForTheSameSeed(@TempDir Path dir) throws Exception {
        Path root = root();
        Path[] in = data(dir);
        Path json = dir.resolve("fit.json");
        Cli.Result fit = Cli.run("fit", "--algorithm", "analyze-gauss", "--schema", in[0].toString(), "--center",
                "private", "--components", "auto:0.9", "--epsilon", EPSILON, "--delta", DELTA, "--seed", SEED,
                "--output", json.toString(), in[1].toString());
        assertThat(fit.exitCode()).as(fit.toString()).isZero();
        JsonNode release = Json.MAPPER.readTree(json.toFile());

        Path out = dir.resolve("components.csv");
        Run run = example(root, in[0].toString(), in[1].toString(), EPSILON, DELTA, SEED, out.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();

        // one component per line, d numbers each, equal to the command line's to 1e-9
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        JsonNode components = release.get("components");
        assertThat(lines).hasSize(components.size()).hasSize(release.get("k").asInt());
        int d = release.get("dimension").asInt();
        assertThat(d).isEqualTo(5 + 3); // five numeric columns and three one-hot cells
        for (int j = 0; j < lines.size(); j++) {
            String[] cells = lines.get(j).split(",");
            assertThat(cells).hasSize(d);
            for (int i = 0; i < d; i++) {
                assertThat(Double.parseDouble(cells[i])).as("component %d, entry %d", j + 1, i + 1)
                        .isCloseTo(components.get(j).get(i).asDouble(), within(1e-9));
            }
        }

        // the composed guarantee: the whole budget, then each part the CLI lists, in its order
        JsonNode g = release.get("guarantee");
        assertThat(g.get("composition").asText()).isEqualTo("basic");
        String[] printed = run.out().split("\\R");
        assertThat(printed[0]).startsWith("(ε=" + g.get("epsilon").asDouble() + ", δ=" + g.get("delta").asDouble()
                + ")-differential privacy").contains("basic composition of " + g.get("parts").size() + " parts");
        assertThat(printed).hasSize(1 + g.get("parts").size());
        for (int p = 0; p < g.get("parts").size(); p++) {
            JsonNode part = g.get("parts").get(p);
            assertThat(printed[1 + p]).contains(part.get("mechanism").asText())
                    .contains("ε=" + part.get("epsilon").asDouble());
        }
    }

    @Test
    void aBadArgumentIsRefusedBeforeAnyRowWithNothingWritten(@TempDir Path dir) throws Exception {
        Path root = root();
        Path[] in = data(dir);
        Path out = dir.resolve("components.csv");
        Run negative = example(root, in[0].toString(), in[1].toString(), "-1", DELTA, SEED, out.toString());
        assertThat(negative.exitCode()).isEqualTo(2);
        assertThat(negative.err()).contains("epsilon");
        Run missing = example(root, in[0].toString(), dir.resolve("absent.csv").toString(), EPSILON, DELTA, SEED,
                out.toString());
        assertThat(missing.exitCode()).as(missing.err()).isEqualTo(3);
        assertThat(missing.err()).contains("absent.csv");
        assertThat(out).doesNotExist();
        assertThat(Cli.files(dir)).containsExactly("rows.csv", "schema.json");
    }
}
