package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An output that is one of the inputs is refused before anything is read (issue 12, item 1), by file
 * identity: the same name, {@code ./x} vs {@code x}, a symlink, a hard link. The input is left intact.
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
}
