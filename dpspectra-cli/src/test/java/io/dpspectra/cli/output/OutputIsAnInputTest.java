package io.dpspectra.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.Cli;
import io.dpspectra.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * An output that is one of the inputs is refused before anything is read, by file identity: the same name,
 * {@code ./x} vs {@code x}, a symlink, a hard link. The input is left intact. Every command of picocli's
 * command tree is checked, with every pair of an output and a file it reads.
 */
class OutputIsAnInputTest {
    @TempDir
    Path dir;

    private Path csv;
    private Path model;
    private Path cov;
    private int links;

    @BeforeEach
    void files() throws Exception {
        csv = Cli.write(dir, "data.csv", Cli.smallCsv(60, 3));
        model = dir.resolve("model.json");
        cov = dir.resolve("cov.json");
        assertThat(Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "1", "-o", model.toString(), csv.toString()).exitCode()).isZero();
        assertThat(Cli.run("covariance", "--algorithm", "laplace", "--epsilon", "1", "--clip-norm", "1", "-o",
                cov.toString(), csv.toString()).exitCode()).isZero();
        Files.writeString(dir.resolve("g.csv"), "u,v\n0,1\n1,2\n");
    }

    /** The target as the user might spell it: the same path, ./x, a symlink, a hard link, a/../x. */
    private Path spelled(Path file, String how) throws Exception {
        return switch (how) {
            case "same" -> file;
            case "dot" -> dir.resolve(".").resolve(file.getFileName());
            case "dotdot" -> dir.resolve("sub").resolve("..").resolve(file.getFileName());
            case "symlink" -> Files.createSymbolicLink(dir.resolve("link" + (++links) + "-" + file.getFileName()), file);
            case "hardlink" -> Files.createLink(dir.resolve("hard" + (++links) + "-" + file.getFileName()), file);
            default -> throw new IllegalArgumentException(how);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"same", "dot", "dotdot", "symlink", "hardlink"})
    void everyCommandRefusesToOverwriteItsInputOrModel(String how) throws Exception {
        Files.createDirectories(dir.resolve("sub"));
        String data = Files.readString(csv);
        String modelText = Files.readString(model);
        String covText = Files.readString(cov);
        Path graph = dir.resolve("g.csv");
        List<String[]> runs = new ArrayList<>();
        runs.add(new String[] {"fit", "--algorithm", "exact", "-k", "1", "--norm-bound", "1", "-o",
            spelled(csv, how).toString(), csv.toString()});
        runs.add(new String[] {"covariance", "--algorithm", "laplace", "--epsilon", "1", "--clip-norm", "1",
            "--diagnostics", spelled(csv, how).toString(), csv.toString()});
        runs.add(new String[] {"transform", "--model", model.toString(), "-o", spelled(model, how).toString(),
            csv.toString()});
        runs.add(new String[] {"evaluate", "--model", model.toString(), "-o", spelled(csv, how).toString(),
            csv.toString()});
        runs.add(new String[] {"ridge", "--covariance", cov.toString(), "--target", "1", "--alpha", "1", "-o",
            spelled(cov, how).toString()});
        runs.add(new String[] {"spectral", "--algorithm", "power", "--matrix", graph.toString(), "-k", "1", "-o",
            spelled(graph, how).toString()});
        for (String[] args : runs) {
            Cli.Result r = Cli.run(args);
            assertThat(r.exitCode()).as(String.join(" ", args) + "\n" + r).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("writing it would destroy it");
        }
        assertThat(Files.readString(csv)).isEqualTo(data);
        assertThat(Files.readString(model)).isEqualTo(modelText);
        assertThat(Files.readString(cov)).isEqualTo(covText);
    }

    /** Every command of the tree, with every file it writes set to every file it reads, refuses before reading. */
    @Test
    void noCommandOfTheTreeWritesOverAFileItReads() throws Exception {
        List<String> checked = new ArrayList<>();
        walk(Main.newCommandLine(), checked);
        // the commands that both read and write files: a new one is found without being listed
        assertThat(checked).contains("fit --output INPUT", "ldp randomize --output INPUT", "ldp aggregate --output REPORTS",
                "schema draft --output INPUT", "audit --output --pair", "fit --output --ledger", "fit --diagnostics --schema",
                "spectral --output --ledger", "convert OUTPUT INPUT", "transform --output --model");
    }

    private void walk(CommandLine cl, List<String> checked) throws Exception {
        CommandSpec spec = cl.getCommandSpec();
        List<ArgSpec> outputs = new ArrayList<>();
        List<ArgSpec> inputs = new ArrayList<>();
        for (ArgSpec a : spec.args()) {
            String name = name(a);
            boolean file = a.type() == Path.class || a.auxiliaryTypes().length > 0 && a.auxiliaryTypes()[0] == Path.class;
            boolean known = OutputTargets.OUTPUT_OPTIONS.contains(name) || OutputTargets.OUTPUT_POSITIONALS.contains(name);
            if (known || name.toLowerCase(Locale.ROOT).contains("out") && !name.equals("--output-dir")) {
                // a file the command writes must be known to the check by its name
                assertThat(known).as(spec.qualifiedName() + " " + name + " writes a file: name it --output, --diagnostics or OUTPUT")
                        .isTrue();
                outputs.add(a);
            } else if (file && !name.equals("--output-dir") && !name.equals("--file")) {
                inputs.add(a); // bench's --file is read and, when missing, written: never both at once
            }
        }
        for (ArgSpec out : outputs) {
            for (ArgSpec in : inputs) {
                Path victim = Cli.write(dir, "victim-" + checked.size() + ".txt", "precious " + checked.size() + "\n");
                byte[] before = Files.readAllBytes(victim);
                List<String> args = new ArrayList<>(List.of(spec.qualifiedName().split(" ")).subList(1,
                        spec.qualifiedName().split(" ").length));
                for (ArgSpec a : spec.args()) {
                    if (a == out || a == in) {
                        add(args, a, victim.toString());
                    } else if (a.required() && a.group() == null) {
                        add(args, a, a.type() == Path.class ? dir.resolve("other.csv").toString() : "1");
                    }
                }
                Cli.Result r = Cli.run(args.toArray(new String[0]));
                String what = String.join(" ", args) + "\n" + r;
                assertThat(r.exitCode()).as(what).isEqualTo(ExitCodes.USAGE);
                assertThat(r.err()).as(what).contains("writing it would destroy it");
                assertThat(Files.readAllBytes(victim)).as(what).isEqualTo(before);
                checked.add(spec.qualifiedName().substring("dpspectra ".length()) + " " + name(out) + " " + name(in));
            }
        }
        for (CommandLine sub : cl.getSubcommands().values()) {
            walk(sub, checked);
        }
    }

    private static String name(ArgSpec a) {
        return a instanceof OptionSpec o ? o.longestName() : a.paramLabel();
    }

    private static void add(List<String> args, ArgSpec a, String value) {
        if (a instanceof OptionSpec o) {
            args.add(o.longestName());
        }
        args.add(value);
    }
}
