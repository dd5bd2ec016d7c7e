package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher works when called through a symlink (the usual way onto PATH), a relative one, and a chain of
 * them: it finds its jar beside the script itself, not beside the link.
 */
class LauncherSymlinkTest {
    @TempDir
    Path root;

    @Test
    void runsThroughAbsoluteRelativeAndChainedSymlinks() throws Exception {
        assumeTrue(ScratchLauncher.available(), "needs the launcher and bash");
        Path home = Files.createDirectories(root.resolve("dpspectra-home"));
        ScratchLauncher.install(home);
        Path bin = Files.createDirectories(root.resolve("bin"));
        Path other = Files.createDirectories(root.resolve("other/deeper"));
        Path absolute = Files.createSymbolicLink(bin.resolve("dpspectra"), home.resolve("dpspectra"));
        Path relative = Files.createSymbolicLink(bin.resolve("dp-relative"), Path.of("../dpspectra-home/dpspectra"));
        Path chained = Files.createSymbolicLink(other.resolve("dp"), Path.of("../../bin/dp-relative"));
        for (Path link : new Path[] {absolute, relative, chained}) {
            ProcessBuilder pb = new ProcessBuilder(link.toString(), "--version").directory(root.toFile())
                    .redirectErrorStream(true);
            pb.environment().put("DPSPECTRA_CDS", "off");
            pb.environment().remove("JAVA_OPTS");
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(link + ":\n" + out).isZero();
            assertThat(out).as(link.toString()).startsWith("dpspectra ").doesNotContain("building");
        }
    }
}
