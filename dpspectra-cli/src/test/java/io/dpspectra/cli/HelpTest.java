package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
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
}
