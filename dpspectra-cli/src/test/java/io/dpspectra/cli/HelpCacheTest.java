package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's saved usage messages ({@code ./dpspectra --help} without a JVM): what it prints from its
 * copy is exactly what picocli prints, a copy older than the jar is made again, and a target directory
 * that cannot be written falls back to the JVM. The launcher runs in a scratch root holding a copy of
 * the script and a jar whose manifest points at this test's class path, so no build is involved.
 */
class HelpCacheTest {
    @TempDir
    static Path root;

    private static Path jar;
    private static Path helpDir;

    @BeforeAll
    static void scratchRoot() throws IOException {
        assumeTrue(ScratchLauncher.available(), "needs the launcher and bash");
        jar = ScratchLauncher.install(root);
        helpDir = jar.getParent().resolve("help");
        Files.setLastModifiedTime(jar, ago(60));
    }

    private static FileTime ago(int seconds) {
        return FileTime.fromMillis(System.currentTimeMillis() - seconds * 1000L);
    }

    private record Run(int exitCode, String out) {
    }

    private static Run launch(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(root.resolve("dpspectra").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> env = pb.environment();
        env.put("DPSPECTRA_CDS", "off");
        for (String v : List.of("JAVA_OPTS", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "ConEmuANSI",
                "DPSPECTRA_HELP_CACHE")) {
            env.remove(v);
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(p.waitFor(), out);
    }

    /** What picocli prints for {@code args}, in process, with every subcommand built. */
    private static String picocli(String... args) {
        Cli.Result r = Cli.run(args);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r.out();
    }

    @Test
    void savedUsageIsWhatPicocliPrintsAndStaleCopiesAreRemade() throws Exception {
        String top = picocli("--help");
        Run first = launch("--help");
        assertThat(first.exitCode()).isZero();
        assertThat(first.out()).isEqualTo(top);
        Path copy = helpDir.resolve("dpspectra.plain.txt");
        assertThat(copy).hasContent(top);
        // the second run prints the copy (a marked copy shows that it is the one printed) ...
        Files.writeString(copy, "marked\n");
        Files.setLastModifiedTime(copy, ago(30));
        assertThat(launch("-h").out()).isEqualTo("marked\n");
        assertThat(launch("help").out()).isEqualTo("marked\n");
        // ... until the jar is newer: then the usage is picocli's again, and saved again
        Files.setLastModifiedTime(jar, ago(20));
        assertThat(launch("--help").out()).isEqualTo(top);
        assertThat(copy).hasContent(top);
        assertThat(launch("--help").out()).isEqualTo(top);

        // a command's usage, saved and printed the same way
        String fit = picocli("fit", "--help");
        assertThat(launch("fit", "--help").out()).isEqualTo(fit);
        assertThat(helpDir.resolve("fit.plain.txt")).hasContent(fit);
        assertThat(launch("fit", "-h").out()).isEqualTo(fit);
        // a name the usage does not list is never saved
        launch("fitt", "--help");
        assertThat(helpDir.resolve("fitt.plain.txt")).doesNotExist();
    }

    @Test
    void unwritableTargetFallsBackToTheJvm() throws Exception {
        Path other = Files.createTempDirectory(root, "ro");
        Path script = other.resolve("dpspectra");
        Files.copy(root.resolve("dpspectra"), script);
        assertThat(script.toFile().setExecutable(true)).isTrue();
        Path target = Files.createDirectories(other.resolve("dpspectra-cli/target"));
        Files.copy(jar, target.resolve("dpspectra.jar"));
        // 'help' taken by a file: no copy can be made there (root ignores permission bits, so not chmod)
        Files.writeString(target.resolve("help"), "not a directory");
        ProcessBuilder pb = new ProcessBuilder(script.toString(), "--help")
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("DPSPECTRA_CDS", "off");
        pb.environment().remove("JAVA_OPTS");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        assertThat(out).isEqualTo(picocli("--help"));
        assertThat(target.resolve("help")).hasContent("not a directory");
    }
}
