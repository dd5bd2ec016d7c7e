package io.dpspectra.experiments;

import java.io.IOException;
import java.util.List;

/**
 * One paper's experiments, run by {@code dpspectra reproduce <paper>}. An implementation regenerates the
 * paper's figures (CSV + PNG per figure) and a {@code report.md} that compares each figure with the
 * paper's claim, under {@link Settings#outputDir()}.
 */
public interface Reproduction {
    /** The {@code <paper>} name on the command line, e.g. {@code kdp-pca}. */
    String paper();

    /** One line for {@code --help}: the paper and what is reproduced. */
    String summary();

    /** The figure identifiers accepted by {@code --figure}, in report order (e.g. "1a", "1b", "2"). */
    List<String> figures();

    /**
     * The method names accepted by {@code --method} (run only these methods of the requested figures and merge their
     * results into the figures' existing CSVs), or empty when the reproduction runs whole figures only.
     */
    default List<String> methods() {
        return List.of();
    }

    /**
     * Whether {@code --report-only} is supported: rebuild report.md and the plots from the CSVs already in the output
     * directory, running nothing.
     */
    default boolean rebuildsFromCsv() {
        return false;
    }

    /** Runs the requested figures and writes their results and the report. */
    void run(Settings settings) throws IOException;

    /**
     * What to run.
     *
     * @param figures the figures to run (never empty; validated against {@link #figures()})
     * @param trials trials per point, or null for the paper's number (or the quick default)
     * @param quick a reduced run for CI (small n, few trials; must finish in under two minutes)
     * @param outputDir where CSV, PNG and report.md go (created if missing)
     * @param seed the seed of the experiment's {@code RandomSource.seededForReproducibility} streams
     * @param progress receives one-line progress messages (the CLI shows them on stderr)
     * @param methods run only these methods of the figures and merge them into the existing CSVs (empty: all)
     * @param reportOnly run nothing: rebuild the report and plots from the CSVs in {@code outputDir}
     */
    record Settings(List<String> figures, Integer trials, boolean quick, java.nio.file.Path outputDir, long seed,
            java.util.function.Consumer<String> progress, List<String> methods, boolean reportOnly) {
        public Settings {
            figures = List.copyOf(figures);
            methods = List.copyOf(methods);
            if (figures.isEmpty()) {
                throw new IllegalArgumentException("no figure to run");
            }
            if (trials != null && trials < 1) {
                throw new IllegalArgumentException("--trials must be >= 1, got " + trials);
            }
        }

        /** Every method of the requested figures, results written afresh. */
        public Settings(List<String> figures, Integer trials, boolean quick, java.nio.file.Path outputDir, long seed,
                        java.util.function.Consumer<String> progress) {
            this(figures, trials, quick, outputDir, seed, progress, List.of(), false);
        }

        /** The trials to run: the explicit value, else {@code quickDefault} or {@code paperDefault}. */
        public int trialsOr(int paperDefault, int quickDefault) {
            return trials != null ? trials : quick ? quickDefault : paperDefault;
        }

        public boolean wants(String figure) {
            return figures.contains(figure);
        }
    }
}
