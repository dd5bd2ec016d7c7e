package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.data.SharedDatasets;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reader options on the command line, on the real datasets and on standard input. */
class CsvInputOptionsCliTest {
    @TempDir
    Path dir;

    private static final String ADULT_NAMES = "age,workclass,fnlwgt,education,education-num,marital-status,"
            + "occupation,relationship,race,sex,capital-gain,capital-loss,hours-per-week,native-country,income";

    private static Cli.Result fitGauss(String... inputArgs) {
        String[] base = {"fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6",
            "--clip-norm", "1", "--seed", "3"};
        String[] all = new String[base.length + inputArgs.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(inputArgs, 0, all, base.length, inputArgs.length);
        return Cli.run(all);
    }

    private static Cli.Result withStdin(String content, java.util.function.Supplier<Cli.Result> run) {
        InputStream saved = System.in;
        System.setIn(new ByteArrayInputStream(content.getBytes(StandardCharsets.UTF_8)));
        try {
            return run.get();
        } finally {
            System.setIn(saved);
        }
    }

    @Test
    void airfoilIsReadAsTabSeparatedAndTheDetectionIsReported() throws Exception {
        Path airfoil = SharedDatasets.require("airfoil/airfoil_self_noise.dat");
        Cli.Result r = fitGauss("--columns", "1-5", airfoil.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("tab-separated (detected");
        assertThat(Json.MAPPER.readTree(r.out()).get("columns").size()).isEqualTo(5);
    }

    @Test
    void wineDropsItsFirstLineAndAdultGetsNamesAndIsoletExcludesItsLabel() throws Exception {
        Path wine = SharedDatasets.require("wine/wine_data.csv");
        Cli.Result w = fitGauss("--skip-lines", "1", "--header", "absent", "--columns", "1-13", wine.toString());
        assertThat(w.exitCode()).as(w.toString()).isZero();
        assertThat(Json.MAPPER.readTree(w.out()).get("columns").size()).isEqualTo(13);

        Path adult = SharedDatasets.require("adult/adult.data.gz");
        Cli.Result a = fitGauss("--header-names", ADULT_NAMES, "--columns", "age,education-num,capital-gain-hours-per-week",
                adult.toString());
        assertThat(a.exitCode()).as(a.toString()).isZero();
        assertThat(a.out()).contains("hours-per-week").contains("capital-loss");

        Path isolet = SharedDatasets.require("isolet5/isolet5.csv.gz");
        Cli.Result i = fitGauss("--exclude-columns", "label", isolet.toString());
        assertThat(i.exitCode()).as(i.toString()).isZero();
        JsonNode columns = Json.MAPPER.readTree(i.out()).get("columns");
        assertThat(columns.size()).isEqualTo(617);
        assertThat(columns.get(616).asText()).isEqualTo("f617");
    }

    @Test
    void headerNamesMayComeFromAFile() throws Exception {
        Path names = Cli.write(dir, "names.txt", "u\nv\nw\n");
        Path csv = Cli.write(dir, "h.csv", "0.1,0.2,0.3\n0.2,0.1,0.0\n0.3,0.3,0.1\n");
        Cli.Result r = fitGauss("--header-names", names.toString(), "--columns", "w,u", csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("\"w\"").contains("\"u\"");
    }

    @Test
    void columnZeroSaysNumbersAreOneBased() throws Exception {
        Path csv = Cli.write(dir, "d.csv", Cli.smallCsv(20, 3));
        Cli.Result r = fitGauss("--columns", "0", csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("1-based");
        assertThat(Cli.files(dir)).containsExactly("d.csv");
    }

    @Test
    void standardInputStreamsForOnePassAndIsReReadFromASpillForMore() throws Exception {
        String csv = Cli.smallCsv(200, 4).replace(',', ';');
        long spillsBefore = stdinSpills();
        Cli.Result one = withStdin(csv, () -> fitGauss("-"));
        assertThat(one.exitCode()).as(one.toString()).isZero();
        assertThat(one.err()).contains("semicolon-separated").doesNotContain("temporary copy");
        assertThat(stdinSpills()).as("a one-pass fit writes no temporary copy").isEqualTo(spillsBefore);
        Cli.Result cov = withStdin(csv, () -> Cli.run("covariance", "--algorithm", "gaussian", "--epsilon", "1",
                "--delta", "1e-6", "--clip-norm", "1", "--seed", "3", "-"));
        assertThat(cov.exitCode()).as(cov.toString()).isZero();
        assertThat(stdinSpills()).as("nor does a covariance").isEqualTo(spillsBefore);
        // streamed, it is the same release as from the file, bit for bit
        Path file = Cli.write(dir, "same.csv", csv);
        Cli.Result fromFile = fitGauss(file.toString());
        assertThat(Json.MAPPER.readTree(one.out()).get("components"))
                .isEqualTo(Json.MAPPER.readTree(fromFile.out()).get("components"));

        Cli.Result many = withStdin(csv, () -> Cli.run("fit", "--algorithm", "private-power", "-k", "1", "--iterations",
                "3", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1", "--seed", "5", "-"));
        assertThat(many.exitCode()).as(many.toString()).isZero();
        assertThat(many.err()).contains("re-read from its temporary copy");
        assertThat(stdinSpills()).isEqualTo(spillsBefore + 1);

        Cli.Result bad = withStdin("a,b\n0.1,0.2\n0.3,x\n", () -> fitGauss("-"));
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(bad.err()).contains("standard input line 3");
    }

    /** Temporary copies of standard input in java.io.tmpdir (deleted only when the JVM exits). */
    private static long stdinSpills() throws java.io.IOException {
        try (var files = java.nio.file.Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(f -> f.getFileName().toString().startsWith("dpspectra-stdin-")).count();
        }
    }

    @Test
    void csvOptionsOnABinaryFileAreAUsageError() throws Exception {
        Path csv = Cli.write(dir, "d.csv", Cli.smallCsv(20, 3));
        Path bin = dir.resolve("d.dpsr");
        assertThat(Cli.run("convert", csv.toString(), bin.toString()).exitCode()).isZero();
        Cli.Result r = fitGauss("--skip-lines", "1", bin.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--skip-lines");
    }

    @Test
    void aSchemaReadsStandardInputAndSkipsCommentLinesAsItDoesTheSameFile() throws Exception {
        Path schema = Cli.write(dir, "s.json", "{\"columns\": [{\"name\": \"a\", \"min\": -1, \"max\": 1},"
                + "{\"name\": \"b\", \"min\": -1, \"max\": 1}, {\"name\": \"label\", \"type\": \"ignore\"}]}");
        StringBuilder sb = new StringBuilder("# exported by a lab instrument\na,b,label\n");
        for (int i = 0; i < 200; i++) {
            sb.append(Math.sin(i)).append(',').append(Math.cos(3 * i) / 2).append(",x\n");
            if (i == 100) {
                sb.append("# a note in the middle\n");
            }
        }
        String text = sb.toString();
        Path file = Cli.write(dir, "t.csv", text);
        String[] fit = {"fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
            "--seed", "9", "--schema", schema.toString(), "--comment-prefix", "#"};
        Cli.Result fromFile = Cli.run(concat(fit, file.toString()));
        assertThat(fromFile.exitCode()).as(fromFile.toString()).isZero();
        Cli.Result fromStdin = withStdin(text, () -> Cli.run(concat(fit, "-")));
        assertThat(fromStdin.exitCode()).as(fromStdin.toString()).isZero();
        // same rows, same seed: the same release, component for component
        assertThat(Json.MAPPER.readTree(fromStdin.out()).get("components"))
                .isEqualTo(Json.MAPPER.readTree(fromFile.out()).get("components"));
        // the model remembers the comment prefix with the schema's format
        assertThat(Json.MAPPER.readTree(fromFile.out()).path("preprocessing").path("schema").path("format")
                .path("commentPrefix").asText()).isEqualTo("#");
        // a two-pass run from standard input re-reads its temporary copy, and says so
        Cli.Result twoPass = withStdin(text, () -> Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1",
                "--epsilon", "1", "--delta", "1e-6", "--seed", "9", "--schema", schema.toString(), "--comment-prefix",
                "#", "--center", "private", "-"));
        assertThat(twoPass.exitCode()).as(twoPass.toString()).isZero();
        assertThat(twoPass.err()).contains("re-read from its temporary copy");
    }

    private static String[] concat(String[] head, String... tail) {
        String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}
