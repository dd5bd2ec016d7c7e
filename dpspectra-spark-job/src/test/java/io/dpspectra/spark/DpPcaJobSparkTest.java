package io.dpspectra.spark;

import static io.dpspectra.spark.JobTestSupport.args;
import static io.dpspectra.spark.JobTestSupport.cli;
import static io.dpspectra.spark.SparkTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.spark.JobTestSupport.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark job writes the CLI's release JSON for the same file, options and seed (every field and
 * number equal, see {@link #assertSameJson}); from Parquet too; with a public
 * schema, private centring, a private bound and the CSV reader options; a bad cell is the CLI's data error
 * (exit 3, no output file); the ledger is charged before any data is read; and reader options Spark cannot
 * express are refused (exit 2).
 */
class DpPcaJobSparkTest {
    private static final double[][] ROWS = rows(400, 4, 31);
    private static SparkSession spark;
    @TempDir
    static Path dir;
    private static Path csv;

    @BeforeAll
    static void start() throws Exception {
        spark = SparkTestSupport.session("local[2]");
        List<String> lines = new ArrayList<>();
        lines.add("a,b,c,d");
        for (double[] r : ROWS) {
            lines.add(String.format(Locale.ROOT, "%s,%s,%s,%s", r[0], r[1], r[2], r[3]));
        }
        csv = Files.write(dir.resolve("rows.csv"), lines);
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    private static Run job(String... args) {
        return JobTestSupport.job(spark, args);
    }

    @Test
    void fitFromCsvAndParquetWritesTheClisReleaseJson() throws Exception {
        String[] fit = {"--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1"};
        Path cliOut = dir.resolve("cli-fit.json");
        Path jobOut = dir.resolve("job-fit.json");
        assertThat(cli(args("fit", cliOut.toString(), csv.toString(), fit)).code()).isZero();
        Run run = job(args("fit", jobOut.toString(), csv.toString(), fit));
        assertThat(run.code()).as(run.err()).isZero();
        assertSameJson(jobOut, cliOut);
        assertThat(Files.readString(jobOut)).contains("\"guarantee\"");

        Path parquet = dir.resolve("rows.parquet");
        Dataset<Row> df = spark.read().option("header", true).option("inferSchema", true).csv(csv.toString());
        df.coalesce(1).write().parquet(parquet.toString());
        Path fromParquet = dir.resolve("job-parquet.json");
        Run p = job(args("fit", fromParquet.toString(), parquet.toString(), fit));
        assertThat(p.code()).as(p.err()).isZero();
        assertSameJson(fromParquet, cliOut);
    }

    /** Bytes read so far from the local file system, by every thread of this JVM (Spark's local executors too). */
    private static long localBytesRead() {
        // none until the local file system is first used
        org.apache.hadoop.fs.StorageStatistics file = org.apache.hadoop.fs.FileSystem.getGlobalStorageStatistics()
                .get("file");
        Long read = file == null ? null : file.getLong("bytesRead");
        return read == null ? 0 : read;
    }

    @Test
    void privatePowerReadsTheCsvOnceAndReleasesTheClisComponents() throws Exception {
        // the same file through a one-pass release and through a private bound, a private centre and the power
        // method (a histogram, a sum and a product per iteration: more than ten passes over the rows)
        String[] gauss = {"--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6",
            "--clip-norm", "1"};
        String[] power = {"--algorithm", "private-power", "-k", "2", "--epsilon", "1", "--delta", "1e-6",
            "--clip-norm", "private:0.9", "--center", "private"}; // the automatic share: core plans it from n,
        // counted first under replace neighbouring, on this machine by the CLI, on the cluster by the job
        Path cliOut = dir.resolve("cli-power.json");
        Path jobOut = dir.resolve("job-power.json");
        assertThat(cli(args("fit", cliOut.toString(), csv.toString(), power)).code()).isZero();
        long size = Files.size(csv);
        long before = localBytesRead();
        Run one = job(args("fit", dir.resolve("job-gauss.json").toString(), csv.toString(), gauss));
        long onePass = localBytesRead() - before;
        before = localBytesRead();
        Run run = job(args("fit", jobOut.toString(), csv.toString(), power));
        long manyPasses = localBytesRead() - before;
        assertThat(one.code()).as(one.err()).isZero();
        assertThat(run.code()).as(run.err()).isZero();
        assertSameJson(jobOut, cliOut);
        // the share both spent on the bound is the one planned for the 400 rows, not the fixed default
        double share = new com.fasterxml.jackson.databind.ObjectMapper().readTree(jobOut.toFile()).get("guarantee")
                .get("parts").get(0).get("epsilon").asDouble();
        assertThat(share).isCloseTo(io.dpspectra.data.AdaptiveQuantile.plan(ROWS.length, 0.9, 1,
                io.dpspectra.release.RowBound.PrivateQuantile.ladder(java.util.OptionalDouble.empty())).share(),
                org.assertj.core.data.Offset.offset(1e-12)).isNotEqualTo(0.1);
        // both read the file's first lines to lay it out, then make one pass that persists the rows; the power
        // method's further passes read the persisted rows, not the file
        System.out.printf("the job read %d bytes of a %d-byte CSV for analyze-gauss, %d for private-power with a "
                + "private bound and centre%n", onePass, size, manyPasses);
        assertThat(onePass).as("bytes read by a one-pass release").isGreaterThanOrEqualTo(size);
        assertThat(manyPasses).as("bytes read by private-power against %d by a one-pass release", onePass)
                .isLessThan(onePass + size / 2);
        assertThat(spark.sparkContext().getPersistentRDDs().size()).as("the persisted rows are released").isZero();
    }

    /**
     * streaming-power's random start comes from --seed (it came from the secure source whatever was given): two
     * runs of the job with the same seed, and the CLI with it, write the same release.
     */
    @Test
    void streamingPowerWithASeedRepeatsAndMatchesTheCli() throws Exception {
        String[] stream = {"--algorithm", "streaming-power", "-k", "2", "--iterations", "3", "--clip-norm", "1"};
        Path cliOut = dir.resolve("cli-stream.json");
        Path jobOut = dir.resolve("job-stream.json");
        Path jobAgain = dir.resolve("job-stream-again.json");
        assertThat(cli(args("fit", cliOut.toString(), csv.toString(), stream)).code()).isZero();
        Run run = job(args("fit", jobOut.toString(), csv.toString(), stream));
        Run again = job(args("fit", jobAgain.toString(), csv.toString(), stream));
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(Files.readString(jobAgain)).isEqualTo(Files.readString(jobOut));
        assertSameJson(jobOut, cliOut);
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(jobOut.toFile()).get("seededNoise")
                .asBoolean()).isTrue();
    }

    @Test
    void covarianceAndColumnSelectionMatchTheCli() throws Exception {
        String[] cov = {"--algorithm", "ad", "--epsilon", "1", "--clip-norm", "1", "--columns", "a,c,4"};
        Path cliOut = dir.resolve("cli-cov.json");
        Path jobOut = dir.resolve("job-cov.json");
        assertThat(cli(args("covariance", cliOut.toString(), csv.toString(), cov)).code()).isZero();
        Run run = job(args("covariance", jobOut.toString(), csv.toString(), cov));
        assertThat(run.code()).as(run.err()).isZero();
        assertSameJson(jobOut, cliOut);
        assertThat(Files.readString(jobOut)).contains("\"c\"");
    }

    @Test
    void badLinesGiveTheClisMessagesAndTheClisTextOptionsAreRead() throws Exception {
        String[] fit = {"--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6", "--clip-norm",
                "1"};
        String[][] files = {
            {"bad.csv", "a,b\n0.1,0.2\n0.3,oops\n"},
            {"nan.csv", "a,b\n0.1,0.2\n0.3,0.4\nNaN,0.5\n"},
            {"ragged.csv", "a,b\n0.1,0.2\n0.3\n"},
            {"blank.csv", "a,b\n0.1,0.2\n\n0.3,0.4\n"},
            {"empty-cell.csv", "a,b\n0.1,0.2\n0.3,\n"},
        };
        for (String[] f : files) {
            Path bad = Files.writeString(dir.resolve(f[0]), f[1]);
            Path out = dir.resolve(f[0] + ".json");
            Run run = job(args("fit", out.toString(), bad.toString(), fit));
            Run local = cli(args("fit", dir.resolve("cli-" + f[0] + ".json").toString(), bad.toString(), fit));
            assertThat(local.code()).as(local.err()).isEqualTo(3);
            assertThat(run.code()).as(run.err()).isEqualTo(3);
            String message = local.err().lines().filter(l -> l.startsWith("dpspectra: error:")).findFirst().orElseThrow();
            assertThat(message).contains(" line ");
            assertThat(run.err()).as(f[0]).contains(message).doesNotContain("Exception");
            assertThat(out).doesNotExist();
        }

        // what Spark's own CSV reader could not do: lines to skip, runs of whitespace, a longer comment prefix
        List<String> lines = new ArrayList<>(List.of("exported by the registry", "// a comment", "p q  r s"));
        for (double[] r : ROWS) {
            lines.add(String.format(Locale.ROOT, "%s  %s %s\t%s", r[0], r[1], r[2], r[3]));
        }
        Path spaced = Files.write(dir.resolve("spaced.txt"), lines);
        assertSameRelease("fit", spaced, concat(fit, "--skip-lines", "1", "--comment-prefix", "//", "--separator",
                "whitespace"));

        Run other = job("reproduce", "kdp-pca");
        assertThat(other.code()).isEqualTo(2);
        assertThat(other.err()).contains("runs 'fit', 'covariance' or 'ldp aggregate'");
    }

    @Test
    void gramAlgorithmsAboveEightThousandColumnsAreRefusedBeforeAnyRowIsReadNamingThePowerMethod()
            throws Exception {
        int d = 8001;
        StringBuilder text = new StringBuilder();
        for (int line = 0; line < 3; line++) {
            for (int j = 0; j < d; j++) {
                text.append(j == 0 ? "" : ",").append(line == 0 ? "c" + j : j == line ? "0.5" : "0");
            }
            text.append('\n');
        }
        Path wide = Files.writeString(dir.resolve("wide.csv"), text);
        Path out = dir.resolve("wide.json");
        Run gauss = job(args("fit", out.toString(), wide.toString(), "--algorithm", "analyze-gauss", "-k", "1",
                "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1"));
        assertThat(gauss.code()).as(gauss.err()).isEqualTo(2);
        assertThat(gauss.err()).contains("--algorithm analyze-gauss forms d x d matrices")
                .contains("d = 8001 is above 8000").contains("--algorithm private-power").doesNotContain("Exception");
        Run covariance = job(args("covariance", out.toString(), wide.toString(), "--algorithm", "laplace",
                "--epsilon", "1", "--clip-norm", "1"));
        assertThat(covariance.code()).as(covariance.err()).isEqualTo(2);
        assertThat(covariance.err()).contains("d = 8001 is above 8000").contains("fewer columns with --columns");
        assertThat(out).doesNotExist();
    }

    @Test
    void theInputFormatIsToldByTheFirstBytesNotByTheName() throws Exception {
        String[] fit = {"--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1"};
        Path cliOut = dir.resolve("cli-format.json");
        assertThat(cli(args("fit", cliOut.toString(), csv.toString(), fit)).code()).isZero();
        // gzip text whose name does not end in .csv (as the UCI adult.data.gz)
        Path gz = dir.resolve("rows.data.gz");
        try (java.io.OutputStream o = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
            o.write(Files.readAllBytes(csv));
        }
        Path fromGz = dir.resolve("job-gz.json");
        Run g = job(args("fit", fromGz.toString(), gz.toString(), fit));
        assertThat(g.code()).as(g.err()).isZero();
        assertSameJson(fromGz, cliOut);
        // Parquet written by Spark into a folder whose name says nothing
        Path table = dir.resolve("table-without-extension");
        spark.read().option("header", true).option("inferSchema", true).csv(csv.toString()).coalesce(1).write()
                .parquet(table.toString());
        Path fromParquet = dir.resolve("job-noext.json");
        Run p = job(args("fit", fromParquet.toString(), table.toString(), fit));
        assertThat(p.code()).as(p.err()).isZero();
        assertSameJson(fromParquet, cliOut);
        // a folder of CSV parts without extensions, each with its header
        Path parts = Files.createDirectories(dir.resolve("parts"));
        List<String> lines = Files.readAllLines(csv);
        Files.write(parts.resolve("part-00000"), lines.subList(0, 201));
        List<String> second = new ArrayList<>(List.of(lines.get(0)));
        second.addAll(lines.subList(201, lines.size()));
        Files.write(parts.resolve("part-00001"), second);
        Files.writeString(parts.resolve("_SUCCESS"), "");
        Path fromParts = dir.resolve("job-parts.json");
        Path partsDiagnostics = dir.resolve("job-parts-diagnostics.json");
        Run f = job(args("fit", fromParts.toString(), parts.toString(),
                concat(fit, "--diagnostics", partsDiagnostics.toString())));
        assertThat(f.code()).as(f.err()).isZero();
        assertThat(Files.readString(partsDiagnostics)).contains("\"rows\" : 400");
        // --input-format decides only what the bytes cannot tell; it must not contradict them
        Run wrong = job(concat(args("fit", dir.resolve("wrong.json").toString(), csv.toString(), fit),
                "--input-format", "parquet"));
        assertThat(wrong.code()).isEqualTo(3);
        assertThat(wrong.err()).contains("--input-format parquet was given").contains("not Parquet")
                .doesNotContain("Exception");
        Path hidden = Files.write(dir.resolve("gzip-named-plainly.csv"), Files.readAllBytes(gz));
        Run misnamed = job(args("fit", dir.resolve("m.json").toString(), hidden.toString(), fit));
        assertThat(misnamed.code()).isEqualTo(3);
        assertThat(misnamed.err()).contains("gzip-compressed").contains("rename it to end in .gz");
    }

    @Test
    void theJobsOwnOptionsAreTakenOutOfTheCommandLine() {
        DpPcaJob.JobOptions o = DpPcaJob.jobOptions(new String[] {"--master", "local[2]", "fit", "-k", "1",
                "--input-format=parquet", "in"});
        assertThat(o.master()).isEqualTo("local[2]");
        assertThat(o.inputFormat()).isEqualTo(SparkInput.Format.PARQUET);
        assertThat(o.cliArgs()).containsExactly("fit", "-k", "1", "in");
        Run twice = job("--input-format", "csv", "--input-format", "csv", "fit");
        assertThat(twice.code()).isEqualTo(2);
        assertThat(twice.err()).contains("--input-format is given twice");
        Run bad = job("--input-format", "orc", "fit");
        assertThat(bad.err()).contains("--input-format 'orc' is not a format; use csv or parquet");
        Run master = job("--master", "local[2]", "fit", "--help");
        assertThat(master.code()).as(master.err()).isZero();
    }

    /** The job's release JSON equals the CLI's for the same file, options and seed. */
    private static void assertSameRelease(String command, Path input, String... options) throws Exception {
        String tag = command + Math.abs(java.util.Arrays.hashCode(options));
        Path cliOut = dir.resolve("cli-" + tag + ".json");
        Path jobOut = dir.resolve("job-" + tag + ".json");
        Run local = cli(args(command, cliOut.toString(), input.toString(), options));
        assertThat(local.code()).as(local.err()).isZero();
        Run run = job(args(command, jobOut.toString(), input.toString(), options));
        assertThat(run.code()).as(run.err()).isZero();
        assertSameJson(jobOut, cliOut);
    }

    @Test
    void privateCentringAndAPrivateBoundMatchTheCli() throws Exception {
        assertSameRelease("fit", csv, "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "1", "--center", "private:0.2");
        assertSameRelease("covariance", csv, "--algorithm", "gaussian", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "private:0.9", "--center", "private");
        assertSameRelease("fit", csv, "--algorithm", "private-power", "-k", "1", "--epsilon", "1",
                "--norm-bound", "10", "--center", "private");
    }

    @Test
    void aPublicSchemaMatchesTheCli() throws Exception {
        Path schema = Files.writeString(dir.resolve("schema.json"), """
                {"columns": [
                  {"name": "a", "type": "numeric", "min": -2, "max": 2, "center": 0.5, "scale": 2},
                  {"name": "b", "type": "numeric", "min": -1, "max": 1},
                  {"name": "colour", "type": "categorical", "categories": ["red", "green", "blue"]},
                  {"name": "id", "type": "ignore"}
                ]}
                """);
        List<String> lines = new ArrayList<>(List.of("a;b;colour;id"));
        String[] colours = {"red", "green", "blue"};
        for (int i = 0; i < ROWS.length; i++) {
            lines.add(String.format(Locale.ROOT, "%s;%s;%s;%d", ROWS[i][0], ROWS[i][1], colours[i % 3], i));
        }
        Path table = Files.write(dir.resolve("table.csv"), lines);
        List<String> commented = new ArrayList<>(lines);
        commented.add(0, "# exported from the registry");
        commented.add(5, "# a note between rows");
        Path noted = Files.write(dir.resolve("noted.csv"), commented);
        assertSameRelease("fit", noted, "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta",
                "1e-6", "--schema", schema.toString(), "--comment-prefix", "#");
        assertSameRelease("fit", table, "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta",
                "1e-6", "--schema", schema.toString());
        // what Spark's CSV reader could not do with a schema: lines to skip, runs of whitespace, a longer prefix
        List<String> spaced = new ArrayList<>(List.of("exported from the registry", "a   b colour\tid"));
        for (int i = 1; i < lines.size(); i++) {
            spaced.add(lines.get(i).replace(";", i % 2 == 0 ? "  " : " \t"));
            if (i % 90 == 3) {
                spaced.add("// a note between rows");
            }
        }
        Path whitespace = Files.write(dir.resolve("spaced.txt"), spaced);
        assertSameRelease("fit", whitespace, "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta",
                "1e-6", "--schema", schema.toString(), "--skip-lines", "1", "--separator", "whitespace",
                "--comment-prefix", "//");
        // a colour the schema does not list, on line 301: the CLI's error, line number included
        List<String> bad = new ArrayList<>(lines);
        bad.set(300, bad.get(300).replace(";red;", ";teal;").replace(";green;", ";teal;").replace(";blue;", ";teal;"));
        Path teal = Files.write(dir.resolve("teal.csv"), bad);
        String[] plain = {"--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6", "--schema",
            schema.toString()};
        Run cliTeal = cli(args("fit", dir.resolve("teal.json").toString(), teal.toString(), plain));
        Run jobTeal = job(args("fit", dir.resolve("teal.json").toString(), teal.toString(), plain));
        assertThat(cliTeal.code()).as(cliTeal.err()).isEqualTo(3);
        assertThat(cliTeal.err()).contains("line 301");
        assertThat(jobTeal.code()).as(jobTeal.err()).isEqualTo(3);
        assertThat(jobTeal.err().lines().filter(l -> l.startsWith("dpspectra: error")).toList())
                .isEqualTo(cliTeal.err().lines().filter(l -> l.startsWith("dpspectra: error")).toList());
        assertSameRelease("covariance", table, "--algorithm", "laplace", "--epsilon", "1", "--schema",
                schema.toString(), "--center", "private", "--clip-norm", "private:0.95");
        Path parquet = dir.resolve("table.parquet");
        spark.read().option("header", true).option("sep", ";").csv(table.toString()).coalesce(1).write()
                .parquet(parquet.toString());
        Path fromCsv = dir.resolve("schema-csv.json");
        Path fromParquet = dir.resolve("schema-parquet.json");
        String[] fit = {"--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6", "--schema",
                schema.toString(), "--center", "none"};
        assertThat(job(args("fit", fromCsv.toString(), table.toString(), fit)).code()).isZero();
        Run p = job(args("fit", fromParquet.toString(), parquet.toString(), fit));
        assertThat(p.code()).as(p.err()).isZero();
        assertThat(Files.readString(fromParquet)).isEqualTo(Files.readString(fromCsv));
    }

    @Test
    void csvReaderOptionsMatchTheCli() throws Exception {
        List<String> lines = new ArrayList<>(List.of("# exported rows", "p\tq\tr\ts"));
        for (double[] r : ROWS) {
            lines.add(String.format(Locale.ROOT, "%s\t%s\t%s\t%s", r[0], r[1], r[2], r[3]));
        }
        Path tsv = Files.write(dir.resolve("rows.tsv"), lines);
        String[] base = {"--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "1", "--comment-prefix", "#", "--separator", "tab"};
        assertSameRelease("fit", tsv, concat(base, "--columns", "1-2,s"));
        assertSameRelease("fit", tsv, concat(base, "--exclude-columns", "q"));
        List<String> bare = new ArrayList<>();
        for (double[] r : ROWS) {
            bare.add(String.format(Locale.ROOT, "%s,%s,%s,%s", r[0], r[1], r[2], r[3]));
        }
        Path headerless = Files.write(dir.resolve("bare.csv"), bare);
        assertSameRelease("covariance", headerless, "--algorithm", "it-u", "--epsilon", "1", "--clip-norm", "1",
                "--header-names", "w,x,y,z", "--columns", "x-z", "--exclude-columns", "y");
    }

    @Test
    void theLedgerIsCheckedBeforeAnyDataIsReadAndChargedOnlyWhenTheRowsAreRead() throws Exception {
        Path ledger = dir.resolve("budget.ledger");
        assertThat(cli("ledger", "init", "--epsilon", "1.5", "--delta", "1e-5", ledger.toString()).code()).isZero();
        String[] fit = {"--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "1", "--ledger", ledger.toString()};
        Path missing = dir.resolve("no-such-input.csv");
        // a missing input is refused before its first row: not charged
        Run failed = job(args("fit", dir.resolve("l1.json").toString(), missing.toString(), fit));
        assertThat(failed.code()).as(failed.err()).isEqualTo(3);
        assertThat(cli("ledger", "show", ledger.toString()).out()).doesNotContain("no-such-input.csv");
        Run ran = job(args("fit", dir.resolve("l1.json").toString(), csv.toString(), fit));
        assertThat(ran.code()).as(ran.err()).isZero();
        assertThat(cli("ledger", "show", ledger.toString()).out()).contains(csv.getFileName().toString());
        // an overspend is refused before the input is opened (exit 4 although the file does not exist)
        Run refused = job(args("fit", dir.resolve("l2.json").toString(), missing.toString(), fit));
        assertThat(refused.code()).as(refused.err()).isEqualTo(4);
        assertThat(refused.err()).contains("ledger");
        assertThat(dir.resolve("l2.json")).doesNotExist();
    }

    private Path randomize(String format, String epsilon, String name) {
        Path out = dir.resolve(name);
        Run r = cli("ldp", "randomize", "--epsilon", epsilon, "--delta", "1e-6", "--clip-norm", "1", "--report-format",
                format, "--seed", "5", "--columns", "a-d", csv.toString(), "--output", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        return out;
    }

    @Test
    void ldpAggregateMatchesTheCliAndRefusesBadReports() throws Exception {
        for (String format : List.of("binary", "json-lines")) {
            Path reports = randomize(format, "2", "reports-" + format);
            Path cliOut = dir.resolve("cli-ldp-" + format + ".json");
            Path jobOut = dir.resolve("job-ldp-" + format + ".json");
            Run local = cli("ldp", "aggregate", "-k", "2", "--output", cliOut.toString(), reports.toString());
            assertThat(local.code()).as(local.err()).isZero();
            Run run = job("ldp", "aggregate", "-k", "2", "--output", jobOut.toString(), reports.toString());
            assertThat(run.code()).as(run.err()).isZero();
            assertThat(Files.readString(jobOut)).isEqualTo(Files.readString(cliOut)).contains("\"reports\" : 400");
        }
        // several partitions: the same average up to the rounding of the partition sums
        Path binary = dir.resolve("reports-binary");
        org.apache.hadoop.conf.Configuration conf = spark.sparkContext().hadoopConfiguration();
        conf.set("mapreduce.input.fileinputformat.split.maxsize", String.valueOf(Files.size(binary) / 3));
        io.dpspectra.local.LocalAggregate split;
        try {
            split = DistributedReports.aggregate(spark, binary.toString());
        } finally {
            conf.unset("mapreduce.input.fileinputformat.split.maxsize");
        }
        io.dpspectra.local.LocalPcaAggregator local = io.dpspectra.local.LocalPcaAggregator.create();
        try (io.dpspectra.local.LocalReportReader reader = io.dpspectra.local.LocalReportReader.open(binary)) {
            local.addAll(reader, false);
        }
        io.dpspectra.local.LocalAggregate whole = local.aggregate();
        assertThat(split.reports()).isEqualTo(400);
        assertThat(split.parameters()).isEqualTo(whole.parameters());
        double[] a = split.mean().data();
        double[] b = whole.mean().data();
        for (int i = 0; i < a.length; i++) {
            assertThat(a[i]).isCloseTo(b[i], org.assertj.core.api.Assertions.within(1e-12 * (1 + Math.abs(b[i]))));
        }

        List<String> lines = new ArrayList<>(Files.readAllLines(randomize("json-lines", "2", "a.jsonl")));
        lines.add(7, Files.readAllLines(randomize("json-lines", "1", "b.jsonl")).get(0));
        Path mixed = Files.write(dir.resolve("mixed.jsonl"), lines);
        Path release = dir.resolve("mixed-release.json");
        Run refused = job("ldp", "aggregate", "-k", "2", "--output", release.toString(), mixed.toString());
        assertThat(refused.code()).isEqualTo(3);
        assertThat(refused.err()).contains("refused report at").contains("line 8").contains("epsilon 1.0 differs from 2.0");
        assertThat(release).doesNotExist();

        byte[] bytes = Files.readAllBytes(binary);
        bytes[bytes.length / 2] ^= 0x10;
        Path corrupt = Files.write(dir.resolve("corrupt.bin"), bytes);
        Run crc = job("ldp", "aggregate", "-k", "2", corrupt.toString());
        assertThat(crc.code()).isEqualTo(3);
        assertThat(crc.err()).contains("refused report at").containsIgnoringCase("checksum");
        Path truncated = Files.write(dir.resolve("truncated.bin"), java.util.Arrays.copyOf(bytes, bytes.length - 9));
        Run cut = job("ldp", "aggregate", "-k", "2", truncated.toString());
        assertThat(cut.code()).isEqualTo(3);
        assertThat(cut.err()).contains("ends inside a report");
        Run skip = job("ldp", "aggregate", "-k", "2", "--skip-invalid", binary.toString());
        assertThat(skip.code()).isEqualTo(2);
        assertThat(skip.err()).contains("--skip-invalid is not supported when Spark reads the reports");
    }

    /**
     * The two release files hold the same release: the same fields in the same order, every text, flag,
     * count and number equal. The CLI's CSV reader folds XᵀX on its parser threads and a Spark partition
     * folds its own rows, but both fold the same canonical blocks of rows and sum them in an order-free
     * way, so the statistics, and the releases, are the same bits.
     */
    private static void assertSameJson(Path actual, Path expected) throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
        sameJson(m.readTree(actual.toFile()), m.readTree(expected.toFile()), "$");
    }

    private static void sameJson(com.fasterxml.jackson.databind.JsonNode a, com.fasterxml.jackson.databind.JsonNode b,
                                 String at) {
        assertThat(a.getNodeType()).as(at).isEqualTo(b.getNodeType());
        if (a.isObject()) {
            assertThat(names(a)).as(at).isEqualTo(names(b));
            a.fieldNames().forEachRemaining(f -> sameJson(a.get(f), b.get(f), at + "." + f));
        } else if (a.isArray()) {
            assertThat(a.size()).as(at).isEqualTo(b.size());
            for (int i = 0; i < a.size(); i++) {
                sameJson(a.get(i), b.get(i), at + "[" + i + "]");
            }
        } else {
            assertThat(a).as(at).isEqualTo(b);
        }
    }

    /** An object's field names in order. */
    private static List<String> names(com.fasterxml.jackson.databind.JsonNode o) {
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String[] concat(String[] a, String... b) {
        List<String> out = new ArrayList<>(List.of(a));
        out.addAll(List.of(b));
        return out.toArray(new String[0]);
    }
}
