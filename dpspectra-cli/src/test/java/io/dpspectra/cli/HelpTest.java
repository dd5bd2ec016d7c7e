package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.output.ExitCodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** Every option of every command is explained by --help. */
class HelpTest {
    /** Commands owned by this package; bench belongs to the linalg package and is only registered here. */
    private static final Set<String> OWN = Set.of("fit", "covariance", "transform", "generate", "evaluate",
            "convert", "demo");

    @Test
    void helpOfEveryCommandNamesAndDescribesEveryOption() {
        CommandLine root = Main.newCommandLine();
        assertThat(root.getSubcommands().keySet()).containsAll(OWN).contains("bench");
        for (var entry : root.getSubcommands().entrySet()) {
            String name = entry.getKey();
            Cli.Result r = Cli.run(name, "--help");
            assertThat(r.exitCode()).as(name).isZero();
            for (OptionSpec option : entry.getValue().getCommandSpec().options()) {
                assertThat(r.out()).as(name + " --help mentions " + option.longestName())
                        .contains(option.longestName());
                if (OWN.contains(name)) {
                    assertThat(String.join(" ", option.description())).as(name + " " + option.longestName())
                            .isNotBlank();
                }
            }
            for (var positional : entry.getValue().getCommandSpec().positionalParameters()) {
                assertThat(r.out()).as(name + " --help mentions " + positional.paramLabel())
                        .contains(positional.paramLabel());
            }
        }
    }

    @Test
    void topLevelHelpListsTheCommandsAndExitCodes() {
        Cli.Result r = Cli.run("--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("fit", "covariance", "transform", "generate", "evaluate", "convert", "demo",
                "bench", "Exit codes");
    }

    @Test
    void helpShowsDefaults() {
        assertThat(Cli.run("fit", "--help").out()).containsPattern("Default:\\s+auto")
                .containsPattern("Default:\\s+json");
        assertThat(Cli.run("demo", "--help").out()).containsPattern("Default:\\s+1e-5");
    }

    @Test
    void noArgumentsListsEveryCommand() {
        Cli.Result r = Cli.run();
        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        for (String name : Main.newCommandLine().getSubcommands().keySet()) {
            assertThat(r.err()).as(name).contains(name);
        }
        assertThat(r.err()).contains("ridge").contains("spectral");
    }

    @Test
    void helpCommandAndVersionWorkForEveryCommand() {
        Cli.Result help = Cli.run("help", "fit");
        assertThat(help.exitCode()).as(help.toString()).isZero();
        assertThat(help.out()).contains("Usage: dpspectra fit").contains("--algorithm");
        for (String name : Main.newCommandLine().getSubcommands().keySet()) {
            if (name.equals("help")) {
                continue;
            }
            Cli.Result v = Cli.run(name, "--version");
            assertThat(v.exitCode()).as(name).isZero();
            assertThat(v.out()).as(name + " --version").startsWith("dpspectra ");
        }
    }

    @Test
    void benchSubcommandsAcceptVerboseAndUseTheSameOptionLabels() {
        CommandLine bench = Main.newCommandLine().getSubcommands().get("bench");
        java.util.Map<String, String> labels = new java.util.HashMap<>();
        for (OptionSpec o : Main.newCommandLine().getSubcommands().get("fit").getCommandSpec().options()) {
            labels.put(o.longestName(), o.paramLabel().split("\\|")[0]); // "K|auto:T[:F]": the K form
        }
        java.util.List<CommandLine> leaves = new java.util.ArrayList<>();
        java.util.ArrayDeque<CommandLine> todo = new java.util.ArrayDeque<>(bench.getSubcommands().values());
        while (!todo.isEmpty()) {
            CommandLine c = todo.pop();
            if (c.getSubcommands().isEmpty()) {
                leaves.add(c);
            }
            todo.addAll(c.getSubcommands().values());
        }
        assertThat(leaves).hasSizeGreaterThanOrEqualTo(4);
        for (CommandLine leaf : leaves) {
            String name = leaf.getCommandSpec().qualifiedName();
            assertThat(leaf.getCommandSpec().findOption("--verbose")).as(name + " --verbose").isNotNull();
            for (OptionSpec o : leaf.getCommandSpec().options()) {
                if (labels.containsKey(o.longestName()) && o.arity().max > 0 && !o.longestName().equals("--algorithm")) {
                    assertThat(o.paramLabel().split("\\|")[0]).as(name + " " + o.longestName())
                            .isEqualTo(labels.get(o.longestName()));
                }
            }
        }
        Cli.Result r = Cli.run("bench", "covariance", "--verbose", "--rows", "50", "--dims", "3", "--repeat", "1");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("linear algebra backend:");
    }

    /** The one line each command gets in its parent's list of commands: a whole sentence, never cut short. */
    @Test
    void everyCommandsSummaryInTheListOfCommandsIsAWholeSentence() {
        List<String> cut = new ArrayList<>();
        summaries(Main.newCommandLine(), cut);
        assertThat(cut).as("summaries that are not a whole sentence (the first description line is the summary)")
                .isEmpty();
    }

    private static void summaries(CommandLine cl, List<String> cut) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            CommandSpec spec = sub.getCommandSpec();
            String[] header = spec.usageMessage().header();
            String[] description = spec.usageMessage().description();
            String summary = (header.length > 0 ? header[0] : description.length > 0 ? description[0] : "").strip();
            if (!summary.endsWith(".")) {
                cut.add(spec.qualifiedName() + ": " + summary);
            }
            summaries(sub, cut);
        }
    }
}
