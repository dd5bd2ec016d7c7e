package io.dpspectra.experiments;

import java.nio.file.Path;

/** Where the reproductions find the shared real data sets. */
public final class Datasets {
    private Datasets() {
    }

    /**
     * The data-set folder: {@code -Ddpspectra.datasets=DIR}, else the environment variable
     * {@code DPSPECTRA_DATASETS}, else {@code /work/shared/datasets}.
     */
    public static Path root() {
        String p = System.getProperty("dpspectra.datasets");
        if (p == null || p.isBlank()) {
            p = System.getenv("DPSPECTRA_DATASETS");
        }
        return Path.of(p == null || p.isBlank() ? "/work/shared/datasets" : p);
    }
}
