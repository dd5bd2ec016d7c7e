package io.dpspectra.experiments;

import io.dpspectra.experiments.io.AtomicWrite;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code report.md} of a reproduction, marked with the kind of run that wrote it, so that a smoke test
 * ({@code --quick}) can never silently replace the evidence of a full run.
 *
 * <p>Every report starts with one HTML comment line (invisible when the markdown is rendered):
 * {@code <!-- dpspectra reproduce PAPER: full run, seed S -->} or {@code ...: quick run, seed S -->}.
 * {@link #refusal} refuses a quick run into a directory whose report is not marked as a quick
 * run: a full run's report, or a report of unknown provenance (no marker), is evidence and stays.
 */
public final class ReportFile {
    /** The report's file name in the output directory. */
    public static final String NAME = "report.md";

    private static final Pattern MARKER =
            Pattern.compile("^<!-- dpspectra reproduce (\\S+): (full|quick) run, seed (-?\\d+) -->$");

    /** Which kind of run wrote a report. */
    public enum RunKind {
        FULL, QUICK;

        static RunKind of(boolean quick) {
            return quick ? QUICK : FULL;
        }
    }

    private ReportFile() {
    }

    /** The first line of a report written by {@code paper} with settings {@code s}. */
    public static String marker(String paper, Reproduction.Settings s) {
        return "<!-- dpspectra reproduce " + paper + ": " + (s.quick() ? "quick" : "full") + " run, seed " + s.seed()
                + " -->";
    }

    /** Writes {@code markdown} as {@code report.md} under {@code s.outputDir()}, atomically, after the run marker. */
    public static void write(String paper, Reproduction.Settings s, String markdown) throws IOException {
        AtomicWrite.writeString(s.outputDir().resolve(NAME), marker(paper, s) + "\n" + markdown);
    }

    /**
     * The kind of run that wrote the report in {@code dir}: empty if there is no report, or if the report has no
     * marker (written by hand or by an older version: treat it as evidence).
     */
    public static Optional<RunKind> kindOf(Path dir) {
        Path report = dir.resolve(NAME);
        if (!Files.isRegularFile(report)) {
            return Optional.empty();
        }
        String first;
        try (var lines = Files.lines(report)) {
            first = lines.findFirst().orElse("");
        } catch (IOException | UncheckedIOException e) {
            return Optional.empty();
        }
        Matcher m = MARKER.matcher(first.strip());
        return m.matches() ? Optional.of(RunKind.valueOf(m.group(2).toUpperCase(java.util.Locale.ROOT)))
                : Optional.empty();
    }

    /**
     * Why a run with settings {@code s} must not write into its output directory, or empty if it may. A full run may
     * write anywhere (it is how the evidence is regenerated); a quick run may write only where there is no report or a
     * quick run's report.
     */
    public static Optional<String> refusal(Reproduction.Settings s) {
        if (!s.quick() || !Files.isRegularFile(s.outputDir().resolve(NAME))) {
            return Optional.empty();
        }
        Optional<RunKind> kind = kindOf(s.outputDir());
        if (kind.isPresent() && kind.get() == RunKind.QUICK) {
            return Optional.empty();
        }
        return Optional.of(s.outputDir().resolve(NAME) + " comes from "
                + (kind.isPresent() ? "a full run" : "a run that is not marked as a --quick run")
                + "; a --quick run would overwrite that evidence with a smoke test");
    }
}
