package io.dpspectra.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dpspectra.cli.Cli;
import io.dpspectra.cli.output.ExitCodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code reproduce}: where the output goes, and that a --quick run never overwrites a full run's evidence. */
class ReproduceCommandTest {
    @TempDir
    Path dir;

    private static final String[] QUICK_SMOKE = {"reproduce", "noisy-power", "--quick", "--figure", "privacy",
        "--trials", "1"};

    /** The repository root (the directory with .git and the reactor pom), or null if the tests run elsewhere. */
    private static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve(".git")) && Files.exists(p.resolve("dpspectra-cli"))) {
                return p;
            }
        }
        return null;
    }

    private static String git(Path root, String... args) throws IOException, InterruptedException {
        String[] cmd = Stream.concat(Stream.of("git", "-C", root.toString()), Stream.of(args)).toArray(String[]::new);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return out;
    }

    private static boolean gitAvailable(Path root) {
        try {
            git(root, "rev-parse", "--git-dir");
            return true;
        } catch (IOException | InterruptedException | AssertionError e) {
            return false;
        }
    }

    private static Cli.Result runFrom(Path workingDirectory, String... args) {
        return Cli.run(cl -> ((ReproduceCommand) cl.getSubcommands().get("reproduce").getCommand())
                .workingDirectory = workingDirectory, args);
    }

    private static void deleteTree(Path p) throws IOException {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }

    @Test
    void quickFromTheRepositoryRootWritesToReproductionsAndLeavesGitStatusClean() throws Exception {
        Path root = repositoryRoot();
        assumeTrue(root != null && gitAvailable(root), "needs the git checkout of the repository");
        Path out = root.resolve("reproductions").resolve("noisy-power");
        boolean existed = Files.exists(out);
        Path committed = root.resolve("docs/reproductions/noisy-power/report.md");
        byte[] evidence = Files.exists(committed) ? Files.readAllBytes(committed) : null;
        String before = git(root, "status", "--porcelain", "--untracked-files=all");
        try {
            Cli.Result r = runFrom(root, QUICK_SMOKE);
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).contains(out.toString());
            assertThat(Files.readString(out.resolve("report.md")))
                    .startsWith("<!-- dpspectra reproduce noisy-power: quick run, seed ");
            assertThat(git(root, "status", "--porcelain", "--untracked-files=all")).isEqualTo(before);
            if (evidence != null) {
                assertThat(Files.readAllBytes(committed)).isEqualTo(evidence);
            }
        } finally {
            if (!existed && Files.exists(out)) {
                deleteTree(out);
            }
        }
    }

    @Test
    void quickIntoTheCommittedEvidenceIsRefused() throws Exception {
        Path root = repositoryRoot();
        assumeTrue(root != null, "needs the repository's docs/reproductions");
        Path docs = root.resolve("docs/reproductions/noisy-power");
        assumeTrue(Files.exists(docs.resolve("report.md")));
        byte[] evidence = Files.readAllBytes(docs.resolve("report.md"));
        Cli.Result r = Cli.run(concat(QUICK_SMOKE, "--output-dir", docs.toString()));
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("refusing to write a --quick run").contains("report.md")
                .contains("--output-dir");
        assertThat(Files.readAllBytes(docs.resolve("report.md"))).isEqualTo(evidence);
    }

    @Test
    void quickIntoAFullRunsDirectoryIsRefusedAndWritesNothing() throws Exception {
        String full = "<!-- dpspectra reproduce noisy-power: full run, seed 1 -->\n# the evidence\n";
        Files.writeString(dir.resolve("report.md"), full);
        Cli.Result r = Cli.run(concat(QUICK_SMOKE, "--output-dir", dir.toString()));
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("comes from a full run");
        assertThat(Files.readString(dir.resolve("report.md"))).isEqualTo(full);
        assertThat(Cli.files(dir)).containsExactly("report.md");
    }

    @Test
    void aReportWithoutMarkerIsTreatedAsEvidence() throws Exception {
        Files.writeString(dir.resolve("report.md"), "# a report written by hand\n");
        Cli.Result r = Cli.run(concat(QUICK_SMOKE, "--output-dir", dir.toString()));
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("not marked as a --quick run");
    }

    @Test
    void quickMayReplaceAQuickRunAndAFullRunMayReplaceAnything() throws Exception {
        Cli.Result first = Cli.run(concat(QUICK_SMOKE, "--output-dir", dir.toString()));
        assertThat(first.exitCode()).as(first.toString()).isZero();
        Cli.Result again = Cli.run(concat(QUICK_SMOKE, "--output-dir", dir.toString(), "--seed", "5"));
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(Files.readString(dir.resolve("report.md"))).startsWith(
                "<!-- dpspectra reproduce noisy-power: quick run, seed 5 -->");
    }

    @Test
    void methodAndReportOnlyAreRefusedWhereAPaperDoesNotSupportThemAndWriteNothing() throws Exception {
        Cli.Result method = Cli.run("reproduce", "noisy-power", "--method", "ppm", "--output-dir", dir.toString());
        assertThat(method.exitCode()).as(method.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(method.err()).contains("--method ppm is not a method of noisy-power").contains("drop --method");
        Cli.Result unknown = Cli.run("reproduce", "kdp-pca", "--method", "dp-gauss-3", "--output-dir", dir.toString());
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("choose from: k-dp-pca,").contains("dp-gauss-2");
        Cli.Result rebuild = Cli.run("reproduce", "noisy-power", "--report-only", "--output-dir", dir.toString());
        assertThat(rebuild.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(rebuild.err()).contains("--report-only is not supported by noisy-power");
        Cli.Result both = Cli.run("reproduce", "kdp-pca", "--report-only", "--trials", "3", "--output-dir",
                dir.toString());
        assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(both.err()).contains("--report-only runs nothing");
        assertThat(Cli.files(dir)).isEmpty();
    }

    @Test
    void reportOnlyOnAnEmptyDirectoryWritesAReportThatRunsNothing() throws Exception {
        Cli.Result r = Cli.run("reproduce", "robust-pca", "--report-only", "--output-dir", dir.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(Cli.files(dir)).containsExactly("report.md");
        assertThat(Files.readString(dir.resolve("report.md"))).contains("| Fig. 5 (App. C.1) |")
                .contains("**not run**: no results in this directory").contains("## Which run produced each figure");
    }

    private static String[] concat(String[] a, String... b) {
        return Stream.concat(Stream.of(a), Stream.of(b)).toArray(String[]::new);
    }
}
