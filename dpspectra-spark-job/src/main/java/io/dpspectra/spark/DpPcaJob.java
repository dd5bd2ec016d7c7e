package io.dpspectra.spark;

import io.dpspectra.cli.Main;
import io.dpspectra.cli.options.ExternalInputs;
import io.dpspectra.cli.output.ExitCodes;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine;

/**
 * {@code dpspectra fit} and {@code dpspectra covariance} on a cluster, for people who do not write Scala or
 * Java:
 * <pre>
 * spark-submit --class io.dpspectra.spark.DpPcaJob dpspectra-spark-job.jar \
 *     fit --algorithm analyze-gauss -k 5 --epsilon 1 --delta 1e-6 --clip-norm 1 \
 *     --output release.json hdfs:///data/rows.parquet
 * </pre>
 * The options, their checks, the algorithms, the release JSON, {@code --diagnostics}, messages and exit
 * codes are the CLI's own (this class runs the CLI's command line); only INPUT is read by Spark
 * ({@link SparkInput}: Parquet or CSV, told apart by their first bytes, with the public schema, private
 * centring and private bound), and the statistics are summed across the cluster ({@link SparkStatistics}), the
 * input read once (the first pass persists its rows for the others).
 * Noise is drawn once, on the driver; a {@code --ledger} is charged before any data is read, as the CLI
 * does. {@code ldp aggregate} runs too, with the local-DP reports averaged across the cluster
 * ({@link DistributedReports}). {@code --output}, {@code --diagnostics} and {@code --ledger} are files on
 * the driver.
 *
 * <p>Two options of the job itself, anywhere on the command line: {@code --master URL} (when the job is
 * started with {@code java} rather than {@code spark-submit}, e.g. {@code --master local[2]}), and
 * {@code --input-format csv|parquet} (when the first bytes of INPUT cannot be read to tell).
 */
public final class DpPcaJob {
    private static final Set<String> COMMANDS = Set.of("fit", "covariance");

    private DpPcaJob() {
    }

    /** The job's own options, taken out of the command line; the rest is the CLI's. */
    record JobOptions(String master, SparkInput.Format inputFormat, String[] cliArgs) {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        if (!java.util.Arrays.asList(args).contains("--verbose")) {
            Main.quietLibraryLogging();
        }
        JobOptions job;
        try {
            job = jobOptions(args);
        } catch (IllegalArgumentException e) {
            System.exit(usage(err, e.getMessage(), "put the job's own options (--master URL, --input-format "
                    + "csv|parquet) before or after the command, each with its value"));
            return;
        }
        String master = job.master() != null ? job.master() : System.getProperty("spark.master");
        if (master == null || master.isBlank()) {
            System.exit(usage(err, "no Spark master is set", "start the job with spark-submit --master URL, or "
                    + "give --master local[2] (this machine, 2 cores) or --master spark://HOST:PORT"));
            return;
        }
        SparkSession spark;
        try {
            SparkSession.Builder builder = SparkSession.builder().appName("dpspectra " + String.join(" ", job.cliArgs()));
            if (job.master() != null) {
                builder = builder.master(job.master());
            }
            spark = builder.getOrCreate();
        } catch (RuntimeException e) {
            System.exit(usage(err, "Spark could not start with master '" + master + "': " + ClusterFailure.firstLine(e),
                    "check the master URL (local[N], spark://HOST:PORT, yarn) and that the master is running"));
            return;
        }
        int code;
        try {
            code = run(job, spark, out, err);
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
        JobOptions job;
        try {
            job = jobOptions(args);
        } catch (IllegalArgumentException e) {
            return usage(err, e.getMessage(), "give each of the job's options (--master, --input-format) its value");
        }
        return run(job, spark, out, err);
    }

    private static int run(JobOptions job, SparkSession spark, PrintWriter out, PrintWriter err) {
        String[] args = job.cliArgs();
        boolean ldp = args.length >= 2 && args[0].equals("ldp") && args[1].equals("aggregate");
        if (args.length == 0 || !COMMANDS.contains(args[0]) && !ldp) {
            return usage(err, "the Spark job runs 'fit', 'covariance' or 'ldp aggregate', got "
                    + (args.length == 0 ? "nothing" : "'" + args[0] + "'"),
                    "spark-submit --class io.dpspectra.spark.DpPcaJob dpspectra-spark-job.jar fit --help");
        }
        SparkInput input = new SparkInput(spark, args, job.inputFormat());
        ExternalInputs.install(input);
        try {
            CommandLine cl = Main.newCommandLine();
            cl.setOut(out);
            cl.setErr(err);
            CommandLine.IExecutionExceptionHandler cli = cl.getExecutionExceptionHandler();
            boolean verbose = java.util.Arrays.asList(args).contains("--verbose");
            cl.setExecutionExceptionHandler((ex, cmd, parseResult) -> {
                for (Throwable t = ex; t != null; t = t.getCause()) {
                    if (t instanceof ClusterFailure f) {
                        // not a bug and not the user's data: the cluster's cause and what to change
                        int code = usage(err, f.getMessage(), f.fix());
                        if (verbose) {
                            f.printStackTrace(err);
                            err.flush();
                        }
                        return code;
                    }
                }
                return cli.handleExecutionException(ex, cmd, parseResult);
            });
            return cl.execute(args);
        } finally {
            ExternalInputs.install(null);
            input.close();
        }
    }

    private static int usage(PrintWriter err, String message, String hint) {
        err.println("dpspectra: error: " + message);
        err.println("hint: " + hint);
        err.flush();
        return ExitCodes.USAGE;
    }

    /** Takes {@code --master URL} and {@code --input-format csv|parquet} (also as NAME=VALUE) out of {@code args}. */
    static JobOptions jobOptions(String[] args) {
        String master = null;
        SparkInput.Format format = null;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (!name.equals("--master") && !name.equals("--input-format")) {
                rest.add(a);
                continue;
            }
            String value;
            if (a.contains("=")) {
                value = a.substring(a.indexOf('=') + 1);
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException(name + " needs a value");
            }
            if (name.equals("--master")) {
                if (master != null) {
                    throw new IllegalArgumentException("--master is given twice");
                }
                master = value;
            } else {
                if (format != null) {
                    throw new IllegalArgumentException("--input-format is given twice");
                }
                try {
                    format = SparkInput.Format.valueOf(value.toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--input-format '" + value + "' is not a format; use csv or "
                            + "parquet");
                }
            }
        }
        return new JobOptions(master, format, rest.toArray(new String[0]));
    }
}
