package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --privacy-unit} with {@code --schema} (the schema marks the person's column {@code "type": "id"}), {@code
 * schema draft --privacy-unit}, and a person-level model replayed on a file that still has the person's column.
 */
class PersonLevelSchemaCliTest {
    @TempDir
    Path dir;

    private static final String SCHEMA = "{\"columns\": ["
            + "{\"name\": \"patient\", \"type\": \"id\"},"
            + "{\"name\": \"age\", \"type\": \"numeric\", \"min\": 0, \"max\": 100, \"scale\": 100},"
            + "{\"name\": \"sex\", \"type\": \"categorical\", \"categories\": [\"F\", \"M\"]},"
            + "{\"name\": \"note\", \"type\": \"ignore\"}]}";

    private static double age(int i) {
        return i % 11 == 0 ? 120 + i : 20 + (37 * i) % 60 + 0.25 * (i % 4);   // some above the schema's max
    }

    /** 25 persons with 6 rows each, interleaved: the raw table of {@link #SCHEMA}. */
    private Path raw() throws Exception {
        StringBuilder sb = new StringBuilder("patient,age,sex,note\n");
        for (int i = 0; i < 150; i++) {
            sb.append(String.format(Locale.ROOT, "p%d,%s,%s,free text %d%n", i % 25, age(i), i % 3 == 0 ? "F" : "M",
                    i));
        }
        return Cli.write(dir, "raw.csv", sb.toString());
    }

    /** The same rows mapped by hand as the schema maps them: age clamped to [0, 100] over 100, sex one-hot. */
    private Path mappedByHand() throws Exception {
        StringBuilder sb = new StringBuilder("patient,age,sex=F,sex=M\n");
        for (int i = 0; i < 150; i++) {
            double a = Math.min(100, Math.max(0, age(i))) / 100;
            sb.append("p").append(i % 25).append(',').append(a).append(',').append(i % 3 == 0 ? "1,0" : "0,1")
                    .append('\n');
        }
        return Cli.write(dir, "mapped.csv", sb.toString());
    }

    private static List<String> fit(String... more) {
        List<String> args = new ArrayList<>(List.of("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1",
                "--delta", "1e-6", "--clip-norm", "1.2", "--max-rows-per-unit", "3", "--seed", "11"));
        args.addAll(List.of(more));
        return args;
    }

    @Test
    void aSchemadPersonLevelFitHasTheBitsOfTheSameRowsMappedByHand() throws Exception {
        Path schema = Cli.write(dir, "schema.json", SCHEMA);
        Cli.Result s = Cli.run(fit("--schema", schema.toString(), "--privacy-unit", "patient", raw().toString())
                .toArray(String[]::new));
        assertThat(s.exitCode()).as(s.toString()).isZero();
        Cli.Result h = Cli.run(fit("--privacy-unit", "patient", mappedByHand().toString()).toArray(String[]::new));
        assertThat(h.exitCode()).as(h.toString()).isZero();
        JsonNode js = Json.MAPPER.readTree(s.out());
        JsonNode jh = Json.MAPPER.readTree(h.out());
        assertThat(js.get("columns").toString()).isEqualTo("[\"age\",\"sex=F\",\"sex=M\"]");   // the id never a feature
        assertThat(js.get("components")).isEqualTo(jh.get("components"));
        assertThat(js.get("guarantee")).isEqualTo(jh.get("guarantee"));
        assertThat(js.get("preprocessing").get("schema").toString()).contains("\"type\":\"id\"");
        assertThat(js.get("preprocessing").get("privacyUnit").get("column").asText()).isEqualTo("patient");
    }

    @Test
    void aSchemaAndAUnitThatDisagreeAreRefusedBeforeAnythingIsReadOrCharged() throws Exception {
        Path data = raw();
        Path out = dir.resolve("release.json");
        Path ledger = dir.resolve("ledger.json");
        assertThat(Cli.run("ledger", "init", "--epsilon", "5", ledger.toString()).exitCode()).isZero();
        String before = Files.readString(ledger);
        Path withId = Cli.write(dir, "schema.json", SCHEMA);
        Path twoIds = Cli.write(dir, "two.json", SCHEMA.replace("\"ignore\"", "\"id\""));
        Path noId = Cli.write(dir, "noid.json", SCHEMA.replace("\"type\": \"id\"", "\"type\": \"ignore\""));
        String[][] cases = {
            {"--schema", withId.toString()},                                        // an id column needs the unit
            {"--schema", withId.toString(), "--privacy-unit", "age"},               // a numeric column
            {"--schema", withId.toString(), "--privacy-unit", "person"},            // not the schema's id column
            {"--schema", noId.toString(), "--privacy-unit", "patient"},             // not marked id
            {"--schema", twoIds.toString(), "--privacy-unit", "patient"},           // two id columns
            {"--schema", withId.toString(), "--privacy-unit", "patient", "--columns", "age"},
        };
        String[] expected = {"marks column 'patient' \"type\": \"id\"", "'age' is not the column --schema",
            "'person' is not the column --schema", "'patient' is not marked \"type\": \"id\"", "several columns",
            "do not combine with --schema"};
        for (int i = 0; i < cases.length; i++) {
            List<String> args = fit(cases[i]);
            if (!List.of(cases[i]).contains("--privacy-unit")) {
                args.remove("--max-rows-per-unit");
                args.remove("3");
            }
            args.addAll(List.of("--output", out.toString(), "--ledger", ledger.toString(), data.toString()));
            Cli.Result r = Cli.run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).as(String.join(" ", cases[i])).contains(expected[i]);
            assertThat(Files.exists(out)).isFalse();
            assertThat(Files.readString(ledger)).as("nothing charged").isEqualTo(before);
        }
        // the hint of the first names the option that protects a person
        List<String> args = fit("--schema", withId.toString(), data.toString());
        args.remove("--max-rows-per-unit");
        args.remove("3");
        assertThat(Cli.run(args.toArray(String[]::new)).err()).contains("--privacy-unit patient with "
                + "--max-rows-per-unit M");
    }

    @Test
    void schemaDraftMarksThePersonsColumnAsAnIdAndRefusesPrivateRangesForAPerson() throws Exception {
        Path data = raw();
        Path drafted = dir.resolve("drafted.json");
        Cli.Result r = Cli.run("schema", "draft", "--privacy-unit", "patient", "--output", drafted.toString(),
                data.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode cols = Json.MAPPER.readTree(Files.readString(drafted)).get("columns");
        assertThat(cols.get(0).get("name").asText()).isEqualTo("patient");
        assertThat(cols.get(0).get("type").asText()).isEqualTo("id");
        assertThat(cols.get(1).get("type").asText()).isEqualTo("numeric");
        Cli.Result p = Cli.run("schema", "draft", "--privacy-unit", "patient", "--private-epsilon", "1", data.toString());
        assertThat(p.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(p.err()).contains("--private-epsilon").contains("protect all of them");
        Cli.Result m = Cli.run("schema", "draft", "--privacy-unit", "person", data.toString());
        assertThat(m.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(m.err()).contains("'person' is not in the header");
    }

    @Test
    void aPersonLevelModelIsReplayedOnAFileThatStillHasThePersonsColumn() throws Exception {
        Path data = mappedByHand();
        Path model = dir.resolve("model.json");
        Cli.Result f = Cli.run(fit("--privacy-unit", "patient", "--output", model.toString(), data.toString())
                .toArray(String[]::new));
        assertThat(f.exitCode()).as(f.toString()).isZero();
        Cli.Result t = Cli.run("transform", "--model", model.toString(), data.toString());
        assertThat(t.exitCode()).as(t.toString()).isZero();
        assertThat(t.out().lines().count()).isEqualTo(151);
        // the same rows without the person's column give the same coordinates
        StringBuilder sb = new StringBuilder("age,sex=F,sex=M\n");
        Files.readAllLines(data).stream().skip(1).forEach(l -> sb.append(l.substring(l.indexOf(',') + 1)).append('\n'));
        Path without = Cli.write(dir, "without.csv", sb.toString());
        Cli.Result t2 = Cli.run("transform", "--model", model.toString(), without.toString());
        assertThat(t2.exitCode()).as(t2.toString()).isZero();
        assertThat(t2.out()).isEqualTo(t.out());
        Cli.Result e = Cli.run("evaluate", "--model", model.toString(), data.toString());
        assertThat(e.exitCode()).as(e.toString()).isZero();
        Cli.Result e2 = Cli.run("evaluate", "--model", model.toString(), without.toString());
        assertThat(Json.MAPPER.readTree(e.out()).get("capturedVarianceRatio"))
                .isEqualTo(Json.MAPPER.readTree(e2.out()).get("capturedVarianceRatio"));
        // a schema'd model replays through its schema, whose id column is never a feature
        Path schema = Cli.write(dir, "schema.json", SCHEMA);
        Path smodel = dir.resolve("smodel.json");
        assertThat(Cli.run(fit("--schema", schema.toString(), "--privacy-unit", "patient", "--output",
                smodel.toString(), raw().toString()).toArray(String[]::new)).exitCode()).isZero();
        Cli.Result ts = Cli.run("transform", "--model", smodel.toString(), raw().toString());
        assertThat(ts.exitCode()).as(ts.toString()).isZero();
        // (the two models are the same release: the first test), so the raw rows map to the same coordinates
        assertThat(ts.out()).isEqualTo(t.out());
    }
}
