package io.dpspectra.cli.output;

import io.dpspectra.data.ForwardingRowCursor;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.GramStatistic;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.RowTransform;
import io.dpspectra.linalg.Backend;
import java.util.OptionalLong;
import java.util.function.LongConsumer;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * A progress bar on stderr for every pass over a large input, by bytes read (so it moves from the first
 * byte, with no counting pass before it), shown only when stderr is a terminal and the input is at least
 * {@link #MIN_BYTES} (or of unknown size, such as standard input), so that scripts, pipes and logs see
 * clean output. The {@code ./dpspectra} launcher tests stderr ({@code [ -t 2 ]}) and passes the answer as
 * the system property {@code dpspectra.stderrIsTerminal}; without it (e.g. {@code java -jar}) the JVM's
 * own {@link System#console()} test is used.
 */
public final class Progress {
    /** Inputs smaller than this are read too quickly to need a bar. */
    public static final long MIN_BYTES = 64L << 20;

    private Progress() {
    }

    static boolean stderrIsTerminal() {
        String told = System.getProperty("dpspectra.stderrIsTerminal");
        return told != null ? Boolean.parseBoolean(told) : System.console() != null;
    }

    /**
     * {@code source} with a progress bar per pass, or {@code source} itself when no bar is due or the source
     * is a statistic computed elsewhere (wrapping it would hide it from the algorithms).
     */
    public static RowSource track(RowSource source, String task) {
        long size = source.sizeInBytes();
        if (!stderrIsTerminal() || (size >= 0 && size < MIN_BYTES) || source instanceof GramStatistic) {
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
                return source.knownSize();
            }

            @Override
            public long sizeInBytes() {
                return size;
            }

            @Override
            public String describe() {
                return source.describe();
            }

            @Override
            public RowCursor open() {
                RowCursor inner = source.open();
                pass++;
                ProgressBarBuilder builder = new ProgressBarBuilder().setTaskName(task + " (pass " + pass + ")")
                        .setUpdateIntervalMillis(250).setConsumer(new ConsoleProgressBarConsumer(System.err))
                        .clearDisplayOnFinish();
                ProgressBar bar = size >= 0 ? builder.setInitialMax(size >> 20).setUnit(" MB", 1).build()
                        : builder.setInitialMax(-1).setUnit(" MB", 1).build();
                return new ForwardingRowCursor(inner) {
                    private void update() {
                        long read = inner.bytesRead();
                        if (read >= 0) {
                            bar.stepTo(read >> 20);
                        }
                    }

                    @Override
                    public boolean next(double[] into) {
                        boolean more = inner.next(into);
                        if ((inner.rowsRead() & 1023) == 0) {
                            update();
                        }
                        return more;
                    }

                    @Override
                    public int nextBlock(double[] block, int maxRows, int d) {
                        int got = inner.nextBlock(block, maxRows, d);
                        update();
                        return got;
                    }

                    /** Rows pass through unchanged: the fold is forwarded, and the bar moves once per piece. */
                    @Override
                    public GramPass foldGram(RowTransform transform, Backend backend, int blockRows, LongConsumer progress) {
                        return inner.foldGram(transform, backend, blockRows, rows -> {
                            update();
                            progress.accept(rows);
                        });
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
