package io.dpspectra.cli;

import io.dpspectra.data.ForwardingRowCursor;
import io.dpspectra.data.GramStatistic;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import java.util.OptionalLong;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * A progress bar on stderr for long passes over the data, shown only when stderr is a terminal and the
 * pass is long (at least {@link #MIN_CELLS} cells), so that scripts, pipes and logs see clean output.
 * The {@code ./dpspectra} launcher tests stderr ({@code [ -t 2 ]}) and passes the answer as the system
 * property {@code dpspectra.stderrIsTerminal}; without it (e.g. {@code java -jar}) the JVM's own
 * {@link System#console()} test is used.
 */
final class Progress {
    /** Passes over fewer cells (rows × d) than this finish too quickly to need a bar. */
    static final long MIN_CELLS = 20_000_000L;

    private Progress() {
    }

    static boolean enabled(long rows, int d) {
        return stderrIsTerminal() && rows * (long) d >= MIN_CELLS;
    }

    static boolean stderrIsTerminal() {
        String told = System.getProperty("dpspectra.stderrIsTerminal");
        return told != null ? Boolean.parseBoolean(told) : System.console() != null;
    }

    /**
     * {@code source} with a progress bar per pass, or {@code source} itself when no bar is due or the source
     * is a statistic computed elsewhere (wrapping it would hide it from the algorithms).
     */
    static RowSource track(RowSource source, String task, long rows) {
        if (!enabled(rows, source.dimension()) || source instanceof GramStatistic) {   // a cluster job reports its own
            return source;
        }
        return new RowSource() {
            private int pass;

            @Override
            public int dimension() {
                return source.dimension();
            }

            @Override
            public OptionalLong knownSize() {
                return OptionalLong.of(rows);
            }

            @Override
            public String describe() {
                return source.describe();
            }

            @Override
            public RowCursor open() {
                RowCursor inner = source.open();
                pass++;
                ProgressBar bar = new ProgressBarBuilder().setTaskName(task + " (pass " + pass + ")")
                        .setInitialMax(rows).setUnit(" rows", 1).setUpdateIntervalMillis(250)
                        .setConsumer(new ConsoleProgressBarConsumer(System.err)).clearDisplayOnFinish().build();
                return new ForwardingRowCursor(inner) {
                    @Override
                    public boolean next(double[] into) {
                        boolean more = inner.next(into);
                        if (more) {
                            bar.step();
                        }
                        return more;
                    }

                    @Override
                    public int nextBlock(double[] block, int maxRows, int d) {
                        int got = inner.nextBlock(block, maxRows, d);
                        bar.stepBy(got);
                        return got;
                    }

                    @Override
                    public void close() {
                        try {
                            inner.close();
                        } finally {
                            bar.close();
                        }
                    }
                };
            }
        };
    }
}
