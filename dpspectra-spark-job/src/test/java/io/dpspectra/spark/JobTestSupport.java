package io.dpspectra.spark;

import io.dpspectra.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine;

/**
 * The CLI and the job run in-process, for the job's tests; the local session and the test rows are
 * dpspectra-spark's {@link SparkTestSupport} (its tests jar).
 */
final class JobTestSupport {
    private JobTestSupport() {
    }

    /** The arguments of {@code command} with {@code options}, seeded with 5, writing {@code output} from {@code input}. */
    static String[] args(String command, Object output, Object input, String... options) {
        java.util.List<String> a = new java.util.ArrayList<>(java.util.List.of(command));
        a.addAll(java.util.List.of(options));
        a.addAll(java.util.List.of("--seed", "5", "--output", output.toString(), input.toString()));
        return a.toArray(new String[0]);
    }

    /** What a run of the CLI or the job returned and printed. */
    record Run(int code, String out, String err) {
    }

    /** Runs the CLI in this JVM. */
    static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.newCommandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new Run(cl.execute(args), out.toString(), err.toString());
    }

    /** Runs the job on {@code spark} in this JVM. */
    static Run job(SparkSession spark, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = DpPcaJob.run(args, spark, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }
}
