package io.dpspectra.cli.output;

import io.dpspectra.cli.options.Inputs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParseResult;

/**
 * The one check that no command writes over a file it reads: before any command runs, every file it will
 * write ({@code --output}, {@code --diagnostics}, an {@code OUTPUT} argument, and with {@code --format npy}
 * the JSON beside {@code --output FILE.npy}) is compared, by file identity
 * ({@link AtomicFiles#sameFile}), with every other file argument the user gave (INPUT, {@code --model},
 * {@code --schema}, {@code --ledger}, {@code --matrix}, ...). The roles come from picocli's model of the
 * command, so a new command or a new file option is covered without being listed here.
 */
public final class OutputTargets {
    /** The options and positional labels that name a file the command writes. */
    static final Set<String> OUTPUT_OPTIONS = Set.of("--output", "--diagnostics");
    static final Set<String> OUTPUT_POSITIONALS = Set.of("OUTPUT");
    /** Paths that are neither: a directory written into (its files are the command's own), never read. */
    static final Set<String> DIRECTORIES = Set.of("--output-dir");

    private OutputTargets() {
    }

    /** Refuses (exit 2, before anything is read or written) an output that is one of the command's inputs. */
    public static void checkNoneIsAnInput(ParseResult parsed) {
        List<Map.Entry<String, Path>> outputs = new ArrayList<>();
        List<Map.Entry<String, Path>> inputs = new ArrayList<>();
        for (ArgSpec a : parsed.matchedArgs()) {
            if (DIRECTORIES.contains(label(a))) {
                continue;
            }
            boolean output = a instanceof OptionSpec o ? OUTPUT_OPTIONS.contains(o.longestName())
                    : OUTPUT_POSITIONALS.contains(a.paramLabel());
            for (Path p : paths(a.getValue())) {
                if (Inputs.isStdin(p)) {
                    continue;
                }
                (output ? outputs : inputs).add(Map.entry(output ? label(a) : describe(a), p));
            }
        }
        if (parsed.matchedArgs().stream().anyMatch(a -> a instanceof OptionSpec o && o.longestName().equals("--format")
                && java.util.Objects.toString(a.getValue()).equals("npy"))) {
            // --format npy writes the rest of the release, as JSON, beside --output FILE.npy
            for (Map.Entry<String, Path> out : List.copyOf(outputs)) {
                if (out.getKey().equals("--output") && out.getValue().getFileName() != null
                        && out.getValue().getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".npy")) {
                    outputs.add(Map.entry("--output's JSON", Release.besideNpy(out.getValue())));
                }
            }
        }
        for (Map.Entry<String, Path> out : outputs) {
            for (Map.Entry<String, Path> in : inputs) {
                AtomicFiles.checkNotAnInput(out.getValue(), out.getKey(), in.getValue(), in.getKey());
            }
        }
    }

    /** The file values of an argument: a path, or the paths of a list; none for anything else. */
    private static List<Path> paths(Object value) {
        List<Path> out = new ArrayList<>();
        if (value instanceof Path p) {
            out.add(p);
        } else if (value instanceof Iterable<?> list) {
            for (Object o : list) {
                if (o instanceof Path p) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** An argument as the user typed it: "--output", "OUTPUT". */
    private static String label(ArgSpec a) {
        return a instanceof OptionSpec o ? o.longestName() : a.paramLabel();
    }

    /** An input in the user's words: "the input file", "the --model file", "the REPORTS file". */
    private static String describe(ArgSpec a) {
        if (a instanceof PositionalParamSpec p && p.paramLabel().equals("INPUT")) {
            return "the input file";
        }
        return "the " + label(a) + " file";
    }
}
