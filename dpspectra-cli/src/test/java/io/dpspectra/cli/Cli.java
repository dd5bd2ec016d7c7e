package io.dpspectra.cli;

import io.dpspectra.cli.output.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import picocli.CommandLine;

/** Runs the dpspectra command in-process and captures its exit code, stdout and stderr. */
public final class Cli {
    public record Result(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    private Cli() {
    }

    public static Result run(String... args) {
        return run(cl -> { }, args);
    }

    /** Runs with {@code setUp} applied to the command line first (e.g. to set a test hook of a subcommand). */
    public static Result run(java.util.function.Consumer<CommandLine> setUp, String... args) {
        CommandLine cl = Main.newCommandLine();
        setUp.accept(cl);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    /**
     * Runs a releasing command with {@code --diagnostics FILE} in {@code dir} and returns its result and the
     * diagnostics document (null if the command failed or wrote none).
     */
    public static Released runWithDiagnostics(Path dir, String... args) throws IOException {
        Path diag = Files.createTempFile(dir, "diagnostics", ".json");
        Files.delete(diag);
        String[] all = java.util.Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--diagnostics";
        all[args.length + 1] = diag.toString();
        Result r = run(all);
        return new Released(r, Files.exists(diag) ? Json.MAPPER.readTree(diag.toFile()) : null);
    }

    /** A run's result and its diagnostics document. */
    public record Released(Result result, com.fasterxml.jackson.databind.JsonNode diagnostics) {
    }

    public static Path write(Path dir, String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    /** The names of the regular files in {@code dir}. */
    public static java.util.List<String> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** A small well-formed CSV: n rows of d columns with a header, every row of L2 norm below 1. */
    public static String smallCsv(int n, int d) {
        StringBuilder sb = new StringBuilder();
        for (int j = 1; j <= d; j++) {
            sb.append(j > 1 ? "," : "").append("f").append(j);
        }
        sb.append('\n');
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                // a strong first direction plus small deterministic variation
                double v = (j == 0 ? 0.5 : 0.05) * Math.cos(0.7 * i + 1.3 * j) + (j == 0 ? 0.1 : 0.0);
                sb.append(j > 0 ? "," : "").append(v);
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
