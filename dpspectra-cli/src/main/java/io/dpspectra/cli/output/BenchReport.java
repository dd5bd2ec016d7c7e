package io.dpspectra.cli.output;

import io.dpspectra.cli.options.CommonOptions;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --json} of the {@code dpspectra bench} subcommands and the printing of their results (an ordered
 * map: indented JSON with {@code --json}, else a table). Used as a picocli mixin; the measurements and their
 * helpers are the bench module's ({@code io.dpspectra.bench}).
 */
public final class BenchReport {
    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @picocli.CommandLine.Mixin
    CommonOptions common = new CommonOptions();

    /** Prints {@code results} as indented JSON with {@code --json}, else one aligned {@code key value} line each. */
    public void print(Map<String, Object> results) throws IOException {
        print(results, () -> results.forEach((k, v) -> System.out.printf(Locale.ROOT, "%-34s %s%n", k, v)));
    }

    /** Prints {@code results} as indented JSON with {@code --json}, else runs the bench's own {@code table}. */
    public void print(Map<String, Object> results, Runnable table) throws IOException {
        if (json) {
            System.out.println(Json.MAPPER.writeValueAsString(results));
        } else {
            table.run();
        }
    }
}
