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
        Path cliOut = dir.resolve("cli-" + name + ".json");
        Path jobOut = dir.resolve("job-" + name + ".json");
        Path cliFacts = dir.resolve("cli-" + name + "-curator.json");
        Path jobFacts = dir.resolve("job-" + name + "-curator.json");
        Run c = cli(concat(args(command, cliOut, csv, options), "--diagnostics", cliFacts.toString()));
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
        assertThat(out).doesNotExist();
    }
}
