package io.dpspectra.spark;

import io.dpspectra.cli.ExitCodes;
import io.dpspectra.cli.ExternalInputs;
import io.dpspectra.cli.Main;
import java.io.PrintWriter;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine;

/**
 * {@code dpspectra fit} and {@code dpspectra covariance} on a cluster, for people who do not write Scala or
 * Java:
 * <pre>
 * spark-submit --class io.dpspectra.spark.DpPcaJob dpspectra-spark.jar \
 *     fit --algorithm analyze-gauss -k 5 --epsilon 1 --delta 1e-6 --clip-norm 1 \
 *     --output release.json hdfs:///data/rows.parquet
 * </pre>
 * The options, their checks, the algorithms, the release JSON, {@code --diagnostics}, messages and exit
 * codes are the CLI's own (this class runs the CLI's command line); only INPUT is read by Spark
 * ({@link SparkInput}: Parquet or CSV, with the public schema, private centring and private bound), and
 * the statistics are summed across the cluster ({@link DistributedGram}). Noise is drawn once, on the
 * driver; a {@code --ledger} is charged before any data is read, as the CLI does. {@code ldp aggregate}
 * runs too, with the local-DP reports averaged across the cluster ({@link DistributedReports}).
 * {@code --output}, {@code --diagnostics} and {@code --ledger} are files on the driver.
 */
public final class DpPcaJob {
    private static final Set<String> COMMANDS = Set.of("fit", "covariance");

    private DpPcaJob() {
    }

    public static void main(String[] args) {
        if (!java.util.Arrays.asList(args).contains("--verbose")) {
            Main.quietLibraryLogging();
        }
        SparkSession spark = SparkSession.builder().appName("dpspectra " + String.join(" ", args)).getOrCreate();
        int code;
        try {
            code = run(args, spark, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        } finally {
            spark.stop();
        }
        System.exit(code);
    }

    /**
     * Runs {@code fit} or {@code covariance} with INPUT read by {@code spark}, or {@code ldp aggregate} with
     * REPORTS read by it ({@link DistributedReports}); returns the CLI's exit code.
     */
    static int run(String[] args, SparkSession spark, PrintWriter out, PrintWriter err) {
        boolean ldp = args.length >= 2 && args[0].equals("ldp") && args[1].equals("aggregate");
        if (args.length == 0 || !COMMANDS.contains(args[0]) && !ldp) {
            err.println("dpspectra: error: the Spark job runs 'fit', 'covariance' or 'ldp aggregate', got "
                    + (args.length == 0 ? "nothing" : "'" + args[0] + "'"));
            err.println("hint: spark-submit --class io.dpspectra.spark.DpPcaJob dpspectra-spark.jar fit --help");
            err.flush();
            return ExitCodes.USAGE;
        }
        ExternalInputs.install(new SparkInput(spark, args));
        try {
            CommandLine cl = Main.newCommandLine();
            cl.setOut(out);
            cl.setErr(err);
            return cl.execute(args);
        } finally {
            ExternalInputs.install(null);
        }
    }
}
