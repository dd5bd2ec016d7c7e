package io.dpspectra.experiments;

import io.dpspectra.experiments.io.AtomicWrite;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which run produced each figure's results: {@code runs.csv} in a reproduction's output directory, one row per figure
 * (and per method set, where a run added methods to a figure's existing results), written by the harness when the
 * figure's CSV is written. A report rebuilt from committed CSVs names the run of each figure from here, so that a
 * figure run today and one run last week are never presented as one run.
 *
 * <p>Columns: the figure, the methods the run covered ("all" for the whole figure), the command, its seed and trials,
 * when it finished (UTC), its wall and process-CPU minutes, the worker threads, the machine's cores and its 1-minute
 * load average at the start and the end (the machine is shared: CPU minutes do not depend on the load, wall minutes
 * do), and a note.
 */
public final class RunLog {
    /** The file name in the output directory. */
    public static final String NAME = "runs.csv";

    private static final String[] HEADER = {"figure", "methods", "command", "seed", "trials", "finished_utc",
        "wall_minutes", "cpu_minutes", "threads", "cores", "load_start", "load_end", "note"};

    /** One figure's run. */
    public record Entry(String figure, String methods, String command, long seed, String trials, String finishedUtc,
                        double wallMinutes, double cpuMinutes, int threads, int cores, double loadStart, double loadEnd,
                        String note) {
        /** Whether this entry covers the whole figure (not methods added to it). */
        public boolean wholeFigure() {
            return methods.equals("all");
        }
    }

    private RunLog() {
    }

    /** The entries of {@code dir}'s {@code runs.csv} in file order; empty when there is none. */
    public static List<Entry> read(Path dir) throws IOException {
        Path f = dir.resolve(NAME);
        if (!Files.isRegularFile(f)) {
            return List.of();
        }
        List<Entry> out = new ArrayList<>();
        for (Map<String, String> r : ResultTable.read(f)) {
            out.add(new Entry(r.get("figure"), r.get("methods"), r.get("command"), Long.parseLong(r.get("seed")),
                    r.get("trials"), r.get("finished_utc"), Double.parseDouble(r.get("wall_minutes")),
                    Double.parseDouble(r.get("cpu_minutes")), Integer.parseInt(r.get("threads")),
                    Integer.parseInt(r.get("cores")), Double.parseDouble(r.get("load_start")),
                    Double.parseDouble(r.get("load_end")), r.get("note")));
        }
        return out;
    }

    /**
     * Records {@code e} in {@code dir}'s {@code runs.csv}, atomically: a whole-figure entry replaces every earlier entry
     * of its figure (its CSV was rewritten); an entry for some methods replaces the earlier entry of the same figure and
     * methods only.
     */
    public static void record(Path dir, Entry e) throws IOException {
        List<Entry> kept = new ArrayList<>();
        for (Entry old : read(dir)) {
            boolean replaced = old.figure().equals(e.figure()) && (e.wholeFigure() || old.methods().equals(e.methods()));
            if (!replaced) {
                kept.add(old);
            }
        }
        kept.add(e);
        ResultTable t = new ResultTable(HEADER);
        for (Entry x : kept) {
            t.add(x.figure(), x.methods(), x.command(), x.seed(), x.trials(), x.finishedUtc(), x.wallMinutes(),
                    x.cpuMinutes(), x.threads(), x.cores(), x.loadStart(), x.loadEnd(), x.note());
        }
        AtomicWrite.writeString(dir.resolve(NAME), t.toCsv());
    }

    /** The command line that reruns {@code figure} (and only {@code methods}, unless "all") with settings {@code s}. */
    public static String command(String paper, Reproduction.Settings s, String figure, String methods) {
        StringBuilder sb = new StringBuilder("dpspectra reproduce ").append(paper).append(" --figure ").append(figure);
        if (!methods.equals("all")) {
            sb.append(" --method ").append(methods);
        }
        if (s.trials() != null) {
            sb.append(" --trials ").append(s.trials());
        }
        if (s.quick()) {
            sb.append(" --quick");
        }
        return sb.append(" --output-dir ").append(s.outputDir()).append(" --seed ").append(s.seed()).toString();
    }

    /** Measures one figure's run: wall time, the process's CPU time and the load, from construction to {@link #stop}. */
    public static final class Timer {
        private final long wall0 = System.nanoTime();
        private final long cpu0 = cpuNanos();
        private final double load0 = load();

        /** The entry of the run measured since this timer was made. */
        public Entry stop(String paper, Reproduction.Settings s, String figure, String methods, String trials,
                          int threads, String note) {
            return new Entry(figure, methods, command(paper, s, figure, methods), s.seed(), trials,
                    Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), (System.nanoTime() - wall0) / 60e9,
                    (cpuNanos() - cpu0) / 60e9, threads, Runtime.getRuntime().availableProcessors(), load0, load(),
                    note == null ? "" : note);
        }

        private static long cpuNanos() {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                return os.getProcessCpuTime();
            }
            return 0;
        }

        private static double load() {
            return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        }
    }

    /**
     * The report section that says which run produced each figure: {@code figures} in report order, each with its
     * entries, or "no run record" when its results predate run records or it has not been run.
     */
    public static String markdown(List<String> figures, List<Entry> entries) {
        StringBuilder sb = new StringBuilder("## Which run produced each figure\n\n");
        sb.append("From `runs.csv`, written by the harness with each figure's CSV (a figure's results may come from a "
                + "different run than its neighbours'; the report is rebuilt from the CSVs). CPU minutes are the "
                + "process's CPU time during the figure; wall minutes depend on the load of the shared machine.\n\n");
        sb.append("| figure | methods | trials | command | finished (UTC) | wall min | CPU min | threads / cores | "
                + "load (1 min) start → end | note |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (String f : figures) {
            boolean any = false;
            for (Entry e : entries) {
                if (!e.figure().equals(f)) {
                    continue;
                }
                any = true;
                sb.append(String.format(Locale.ROOT, "| %s | %s | %s | `%s` | %s | %.1f | %s | %d / %d | %s | %s |%n", f,
                        e.methods(), e.trials(), e.command(), e.finishedUtc(), e.wallMinutes(),
                        e.cpuMinutes() > 0 ? String.format(Locale.ROOT, "%.1f", e.cpuMinutes()) : "–", e.threads(),
                        e.cores(), e.loadStart() >= 0 ? String.format(Locale.ROOT, "%.1f → %.1f", e.loadStart(),
                                e.loadEnd()) : "–", e.note().replace("|", "\\|")));
            }
            if (!any) {
                sb.append("| ").append(f).append(" | – | – | no run record | – | – | – | – | – | not run, or its results "
                        + "predate run records (see the git history of its CSV) |\n");
            }
        }
        return sb.append('\n').toString();
    }
}
