package io.dpspectra.data;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the real datasets kept beside the repository ({@code ../shared/datasets} from the repository root,
 * or from any folder above it, since a worktree may sit deeper), or at {@code -Ddpspectra.datasets} /
 * {@code $DPSPECTRA_DATASETS}. Tests that need one skip cleanly when it is absent.
 */
public final class SharedDatasets {
    private SharedDatasets() {
    }

    /** The file {@code relative} under the datasets folder; the test is skipped when it is absent. */
    public static Path require(String relative) {
        Path root = root();
        Path file = root == null ? null : root.resolve(relative);
        assumeTrue(file != null && Files.isReadable(file), "dataset " + relative + " not found (../shared/datasets)");
        return file;
    }

    static Path root() {
        String told = System.getProperty("dpspectra.datasets", System.getenv("DPSPECTRA_DATASETS"));
        if (told != null && !told.isBlank()) {
            return Path.of(told);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("datasets");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
