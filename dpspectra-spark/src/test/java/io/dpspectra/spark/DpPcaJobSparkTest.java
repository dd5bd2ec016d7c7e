package io.dpspectra.spark;

import static io.dpspectra.spark.SparkTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
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
import picocli.CommandLine;

/**
 * The Spark job writes the CLI's release JSON, byte for byte, for the same file, options and seed (the
 * rows fit in one partition, so even the rounding of XᵀX is the same); from Parquet too; a bad cell is the
 * CLI's data error (exit 3, no output file); and preprocessing that needs the rows on the driver first is
 * refused (exit 2).
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

    private record Run(int code, String out, String err) {
    }

    private static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.newCommandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new Run(cl.execute(args), out.toString(), err.toString());
    }

    private static Run job(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = DpPcaJob.run(args, spark, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    private static String[] args(String command, String output, String input, String... options) {
        List<String> a = new ArrayList<>(List.of(command));
        a.addAll(List.of(options));
        a.addAll(List.of("--seed", "5", "--output", output, input));
        return a.toArray(new String[0]);
    }

    @Test
    void fitFromCsvAndParquetWritesTheClisReleaseJson() throws Exception {
        String[] fit = {"--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1"};
        Path cliOut = dir.resolve("cli-fit.json");
        Path jobOut = dir.resolve("job-fit.json");
        assertThat(cli(args("fit", cliOut.toString(), csv.toString(), fit)).code()).isZero();
        Run run = job(args("fit", jobOut.toString(), csv.toString(), fit));
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(Files.readString(jobOut)).isEqualTo(Files.readString(cliOut)).contains("\"guarantee\"");

        Path parquet = dir.resolve("rows.parquet");
        Dataset<Row> df = spark.read().option("header", true).option("inferSchema", true).csv(csv.toString());
        df.coalesce(1).write().parquet(parquet.toString());
        Path fromParquet = dir.resolve("job-parquet.json");
        Run p = job(args("fit", fromParquet.toString(), parquet.toString(), fit));
        assertThat(p.code()).as(p.err()).isZero();
        assertThat(Files.readString(fromParquet)).isEqualTo(Files.readString(cliOut));
    }

    @Test
    void covarianceAndColumnSelectionMatchTheCli() throws Exception {
        String[] cov = {"--algorithm", "ad", "--epsilon", "1", "--clip-norm", "1", "--columns", "a,c,4"};
        Path cliOut = dir.resolve("cli-cov.json");
        Path jobOut = dir.resolve("job-cov.json");
        assertThat(cli(args("covariance", cliOut.toString(), csv.toString(), cov)).code()).isZero();
        Run run = job(args("covariance", jobOut.toString(), csv.toString(), cov));
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(Files.readString(jobOut)).isEqualTo(Files.readString(cliOut)).contains("\"c\"");
    }

    @Test
    void aBadCellIsTheClisDataErrorAndUnsupportedOptionsAreRefused() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.csv"), "a,b\n0.1,0.2\n0.3,oops\n");
        Path out = dir.resolve("bad.json");
        Run run = job(args("fit", out.toString(), bad.toString(), "--algorithm", "analyze-gauss", "-k", "1",
                "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1"));
        assertThat(run.code()).as(run.err()).isEqualTo(3);
        assertThat(run.err()).contains("'oops'").contains("column 'b'").doesNotContain("Exception");
        assertThat(out).doesNotExist();

        Run centred = job(args("fit", dir.resolve("c.json").toString(), csv.toString(), "--algorithm", "analyze-gauss",
                "-k", "1", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1", "--center", "private"));
        assertThat(centred.code()).isEqualTo(2);
        assertThat(centred.err()).contains("takes a given row bound only");

        Run other = job("reproduce", "kdp-pca");
        assertThat(other.code()).isEqualTo(2);
        assertThat(other.err()).contains("runs 'fit' or 'covariance'");
    }
}
