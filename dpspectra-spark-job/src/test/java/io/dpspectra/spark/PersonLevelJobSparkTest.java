package io.dpspectra.spark;

import static io.dpspectra.spark.JobTestSupport.args;
import static io.dpspectra.spark.JobTestSupport.cli;
import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.spark.JobTestSupport.Run;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpspectra.noise.RandomSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --privacy-unit} in the Spark job: the rows grouped by the person's column on the executors, and the
 * release JSON equal to the CLI's for the same file, options and seed (random and first-rows selection, a private
 * bound and centre, CSV and Parquet); the CLI's refusals, exit 2.
 */
class PersonLevelJobSparkTest {
    private static SparkSession spark;
    @TempDir
    static Path dir;
    private static Path csv;

    @BeforeAll
    static void start() throws Exception {
        spark = SparkTestSupport.session("local[2]");
        // 50 persons of 1 to 9 rows, a person effect plus row noise, the person's column second, rows shuffled
        RandomSource r = RandomSource.seededForReproducibility(77);
        List<String> rows = new ArrayList<>();
        for (int p = 0; p < 50; p++) {
            double[] effect = {r.standardNormal() * 0.5, r.standardNormal() * 0.3, r.standardNormal() * 0.1};
            for (int i = 0; i < 1 + (p * 5) % 9; i++) {
                rows.add(String.format(Locale.ROOT, "%s,c%d,%s,%s", effect[0] + 0.2 * r.standardNormal(), 100 + p,
                        effect[1] + 0.2 * r.standardNormal(), effect[2] + 0.2 * r.standardNormal()));
            }
        }
        for (int i = rows.size() - 1; i > 0; i--) { // Fisher-Yates: a person's rows are not adjacent
            Collections.swap(rows, i, (int) r.nextLong(i + 1));
        }
        List<String> lines = new ArrayList<>();
        lines.add("x1,person,x2,x3");
        lines.addAll(rows);
        csv = Files.write(dir.resolve("visits.csv"), lines);
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    private static Run job(String... args) {
        return JobTestSupport.job(spark, args);
    }

    private static String[] concat(String[] a, String... b) {
        List<String> out = new ArrayList<>(List.of(a));
        out.addAll(List.of(b));
        return out.toArray(new String[0]);
    }

    private static void sameRelease(String command, String name, Path input, String... options) throws Exception {
        sameRelease(command, name, csv, input, options);
    }

    /** The job on {@code input} makes the CLI's release (and curator's counts) on {@code cliInput}. */
    private static void sameRelease(String command, String name, Path cliInput, Path input, String... options)
            throws Exception {
        Path cliOut = dir.resolve("cli-" + name + ".json");
        Path jobOut = dir.resolve("job-" + name + ".json");
        Path cliFacts = dir.resolve("cli-" + name + "-curator.json");
        Path jobFacts = dir.resolve("job-" + name + "-curator.json");
        Run c = cli(concat(args(command, cliOut, cliInput, options), "--diagnostics", cliFacts.toString()));
        assertThat(c.code()).as(c.err()).isZero();
        Run j = job(concat(args(command, jobOut, input, options), "--diagnostics", jobFacts.toString()));
        assertThat(j.code()).as(j.err()).isZero();
        assertThat(j.err()).contains("grouping " + input + " by column 'person' where it lies");
        ObjectMapper m = new ObjectMapper();
        assertThat(m.readTree(jobOut.toFile())).isEqualTo(m.readTree(cliOut.toFile()));
        // the curator's facts (not private) count the same persons and rows, and the same clipped rows
        for (String fact : List.of("persons", "rowsRead", "rowsKept", "clippedRows", "rows")) {
            assertThat(m.readTree(jobFacts.toFile()).get(fact)).as(fact).isNotNull()
                    .isEqualTo(m.readTree(cliFacts.toFile()).get(fact));
        }
        assertThat(Files.readString(jobOut)).contains("one value of column 'person'");
    }

    @Test
    void fitWithARandomSelectionAPrivateBoundAndCentreIsTheClisRelease() throws Exception {
        sameRelease("fit", "fit", csv, "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "private:0.9", "--center", "private", "--privacy-unit", "person",
                "--max-rows-per-unit", "3");
    }

    @Test
    void covarianceWithTheFirstRowsFromParquetIsTheClisRelease() throws Exception {
        String[] options = {"--algorithm", "gaussian", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1",
            "--privacy-unit", "person", "--max-rows-per-unit", "2", "--first-rows-per-unit"};
        sameRelease("covariance", "covariance", csv, options);
        Path parquet = dir.resolve("visits.parquet");
        spark.read().option("header", true).option("inferSchema", true).csv(csv.toString()).coalesce(1).write()
                .parquet(parquet.toString());
        Path cliOut = dir.resolve("cli-covariance.json");
        Path jobOut = dir.resolve("job-covariance-parquet.json");
        Run j = job(args("covariance", jobOut, parquet, options));
        assertThat(j.code()).as(j.err()).isZero();
        ObjectMapper m = new ObjectMapper();
        // the same rows and persons (the ids read as text, the values as doubles): the CLI's release on the CSV
        assertThat(m.readTree(jobOut.toFile()).get("matrix")).isNotNull();
        assertThat(m.readTree(jobOut.toFile())).isEqualTo(m.readTree(cliOut.toFile()));
    }

    /** The data lines of visits.csv (no header). */
    private static List<String> dataLines() throws Exception {
        List<String> lines = Files.readAllLines(csv);
        return lines.subList(1, lines.size());
    }

    private static final String[] FIT = {"--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta",
        "1e-6", "--clip-norm", "1", "--center", "private", "--privacy-unit", "person", "--max-rows-per-unit", "3"};

    @Test
    void aHeaderlessFileNamedByHeaderNamesIsTheClisRelease() throws Exception {
        Path headerless = Files.write(dir.resolve("headerless.csv"), dataLines());
        sameRelease("fit", "header-names", headerless, headerless,
                concat(FIT, "--header", "absent", "--header-names", "x1,person,x2,x3"));
        // the same rows as the file with its header: the same release
        Path withHeader = dir.resolve("job-header-names-again.json");
        Run j = job(args("fit", withHeader, csv, FIT));
        assertThat(j.code()).as(j.err()).isZero();
        ObjectMapper m = new ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode named = (com.fasterxml.jackson.databind.node.ObjectNode)
                m.readTree(dir.resolve("job-header-names.json").toFile());
        com.fasterxml.jackson.databind.node.ObjectNode again = (com.fasterxml.jackson.databind.node.ObjectNode)
                m.readTree(withHeader.toFile());
        // the record of the CSV options differs (as typed); nothing else
        assertThat(((com.fasterxml.jackson.databind.node.ObjectNode) named.get("preprocessing")).remove("csv"))
                .isNotEqualTo(((com.fasterxml.jackson.databind.node.ObjectNode) again.get("preprocessing"))
                        .remove("csv"));
        assertThat(again).isEqualTo(named);
    }

    @Test
    void skippedLinesCommentsQuotedIdsAndGzipAreTheClisRelease() throws Exception {
        // two title lines, comment lines of a two-character prefix inside the data, quoted ids, a selection by range
        List<String> lines = new ArrayList<>(List.of("exported 2026-11-28", "visits, one line a visit",
                "x1,person,x2,x3"));
        List<String> data = dataLines();
        for (int i = 0; i < data.size(); i++) {
            String[] cells = data.get(i).split(",");
            lines.add(cells[0] + ",\"" + cells[1] + "\"," + cells[2] + "," + cells[3]);
            if (i % 40 == 7) {
                lines.add("// checked by the night shift");
            }
        }
        Path skipped = Files.write(dir.resolve("skipped.csv"), lines);
        String[] options = concat(FIT, "--skip-lines", "2", "--comment-prefix", "//", "--exclude-columns", "4");
        sameRelease("fit", "skip-lines", skipped, skipped, options);
        Path gz = dir.resolve("skipped.csv.gz");
        try (java.io.OutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(skipped, out);
        }
        sameRelease("fit", "skip-lines-gz", skipped, gz, options);
    }

    @Test
    void aBadLineIsTheClisErrorWithItsLineNumber() throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(csv));
        String[] cells = lines.get(150).split(",");
        lines.set(150, cells[0] + ", ," + cells[2] + "," + cells[3]);   // line 151: an empty id
        Path emptyId = Files.write(dir.resolve("empty-id.csv"), lines);
        Path out = dir.resolve("refused-line.json");
        Run c = cli(args("fit", out, emptyId, FIT));
        Run j = job(args("fit", out, emptyId, FIT));
        assertThat(c.code()).as(c.err()).isEqualTo(3);
        assertThat(j.code()).as(j.err()).isEqualTo(c.code());
        assertThat(c.err()).contains(emptyId + ", line 151: the privacy unit column 'person' is empty");
        assertThat(errors(j.err())).isEqualTo(errors(c.err()));
        lines.set(150, cells[0] + "," + cells[1] + ",n/a," + cells[3]);   // line 151: a missing value
        Path missing = Files.write(dir.resolve("missing.csv"), lines);
        c = cli(args("fit", out, missing, FIT));
        j = job(args("fit", out, missing, FIT));
        assertThat(c.err()).contains("line 151");
        assertThat(j.code()).as(j.err()).isEqualTo(c.code()).isNotZero();
        assertThat(errors(j.err())).isEqualTo(errors(c.err()));
        assertThat(out).doesNotExist();
    }

    /** A schema that clamps and scales x1, drops x2, one-hot encodes a category, and marks the person's column. */
    private static final String SCHEMA = """
            {"columns": [
              {"name": "x1", "type": "numeric", "min": -0.5, "max": 0.5, "scale": 0.5},
              {"name": "person", "type": "id"},
              {"name": "x2", "type": "ignore"},
              {"name": "x3", "type": "numeric", "min": -1, "max": 1},
              {"name": "shift", "type": "categorical", "categories": ["day", "night"]}]}
            """;

    /** visits.csv with a category column (and, with {@code title}, a title line and comment lines). */
    private static Path withCategories(String name, boolean title) throws Exception {
        List<String> lines = new ArrayList<>();
        if (title) {
            lines.add("visits exported 2026-11-28");
        }
        lines.add("x1,person,x2,x3,shift");
        List<String> data = dataLines();
        for (int i = 0; i < data.size(); i++) {
            lines.add(data.get(i) + (i % 3 == 0 ? ",night" : ", day"));
            if (title && i % 50 == 20) {
                lines.add("// a note of the export");
            }
        }
        return Files.write(dir.resolve(name), lines);
    }

    @Test
    void aSchemaWithAnIdColumnIsTheClisRelease() throws Exception {
        Path schema = Files.writeString(dir.resolve("visits-schema.json"), SCHEMA);
        Path plain = withCategories("visits-shift.csv", false);
        String[] options = {"--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6",
            "--schema", schema.toString(), "--privacy-unit", "person", "--max-rows-per-unit", "3"};
        sameRelease("fit", "schema", plain, plain, options);
        // lines to skip and comments of two characters, read by core's schema reader on the executors
        Path titled = withCategories("visits-titled.csv", true);
        sameRelease("covariance", "schema-skip", titled, titled, "--algorithm", "gaussian", "--epsilon", "1",
                "--delta", "1e-6", "--schema", schema.toString(), "--skip-lines", "1", "--comment-prefix", "//",
                "--privacy-unit", "person", "--max-rows-per-unit", "2", "--first-rows-per-unit");
        ObjectMapper m = new ObjectMapper();
        // the schema's features: x2 dropped, shift one-hot, the person never a feature
        assertThat(m.readTree(dir.resolve("job-schema.json").toFile()).get("columns").toString())
                .isEqualTo("[\"x1\",\"x3\",\"shift=day\",\"shift=night\"]");
    }

    @Test
    void aSchemasRefusalsAndBadLinesAreTheClis() throws Exception {
        Path schema = Files.writeString(dir.resolve("refusal-schema.json"), SCHEMA);
        Path twoIds = Files.writeString(dir.resolve("two-ids.json"), SCHEMA.replace("\"ignore\"", "\"id\""));
        Path data = withCategories("visits-refusals.csv", false);
        Path out = dir.resolve("refused-schema.json");
        String[] release = {"--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6"};
        String[][] refused = {
            {"--schema", schema.toString()},                                          // an id column needs the unit
            {"--schema", schema.toString(), "--privacy-unit", "x1", "--max-rows-per-unit", "3"},   // not the id
            {"--schema", twoIds.toString(), "--privacy-unit", "person", "--max-rows-per-unit", "3"},
            {"--schema", schema.toString(), "--privacy-unit", "person", "--max-rows-per-unit", "3", "--columns", "x1"},
        };
        for (String[] options : refused) {
            Run c = cli(args("fit", out, data, concat(release, options)));
            Run j = job(args("fit", out, data, concat(release, options)));
            assertThat(c.code()).as(c.err()).isEqualTo(2);
            assertThat(j.code()).as(j.err()).isEqualTo(2);
            assertThat(errors(j.err())).as(String.join(" ", options)).isEqualTo(errors(c.err()));
        }
        // a category the schema does not list, on line 120: the CLI's error and line
        List<String> lines = new ArrayList<>(Files.readAllLines(data));
        lines.set(119, lines.get(119).replaceAll(",[^,]*$", ",dusk"));
        Path dusk = Files.write(dir.resolve("visits-dusk.csv"), lines);
        String[] options = concat(release, "--schema", schema.toString(), "--privacy-unit", "person",
                "--max-rows-per-unit", "3");
        Run c = cli(args("fit", out, dusk, options));
        Run j = job(args("fit", out, dusk, options));
        assertThat(c.code()).as(c.err()).isEqualTo(3);
        assertThat(c.err()).contains("line 120");
        assertThat(j.code()).as(j.err()).isEqualTo(3);
        assertThat(errors(j.err())).isEqualTo(errors(c.err()));
        assertThat(out).doesNotExist();
    }

    /** The lines of an error and its hint (not the notes and warnings before them). */
    private static List<String> errors(String err) {
        List<String> lines = err.lines().filter(l -> l.startsWith("dpspectra: error") || l.startsWith("hint"))
                .toList();
        assertThat(lines).as(err).isNotEmpty();
        return lines;
    }

    @Test
    void theClisRefusalsHoldOnTheCluster() {
        Path out = dir.resolve("refused.json");
        Run missing = job(args("fit", out, csv, "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1",
                "--delta", "1e-6", "--clip-norm", "1", "--privacy-unit", "patient", "--max-rows-per-unit", "3"));
        assertThat(missing.code()).as(missing.err()).isEqualTo(2);
        assertThat(missing.err()).contains("the privacy unit column 'patient' is not in the header")
                .contains("x1, person, x2, x3");
        Run ojas = job(args("fit", out, csv, "--algorithm", "k-dp-ojas", "-k", "2", "--epsilon", "1",
                "--delta", "1e-6", "--clip-norm", "1", "--privacy-unit", "person", "--max-rows-per-unit", "3"));
        assertThat(ojas.code()).as(ojas.err()).isEqualTo(2);
        assertThat(ojas.err()).contains("does not support --privacy-unit");
        Run feature = job(args("fit", out, csv, "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1",
                "--delta", "1e-6", "--clip-norm", "1", "--privacy-unit", "person", "--max-rows-per-unit", "3",
                "--columns", "x1,person"));
        assertThat(feature.code()).as(feature.err()).isEqualTo(2);
        assertThat(feature.err()).contains("is also selected as a feature");
        // --header absent without names: the unit column names nothing (the CLI's words)
        String[] absent = concat(FIT, "--header", "absent");
        Run cliAbsent = cli(args("fit", out, csv, absent));
        Run jobAbsent = job(args("fit", out, csv, absent));
        assertThat(cliAbsent.code()).isEqualTo(2);
        assertThat(jobAbsent.code()).as(jobAbsent.err()).isEqualTo(2);
        assertThat(errors(jobAbsent.err())).isEqualTo(errors(cliAbsent.err()));
        assertThat(jobAbsent.err()).contains("has no header (--header absent)");
        assertThat(out).doesNotExist();
    }
}
