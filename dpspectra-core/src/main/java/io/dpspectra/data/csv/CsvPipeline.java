package io.dpspectra.data.csv;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One pass of a CSV read in parallel: a reader thread reads (and, for gzip, inflates) the input in
 * pieces cut at line ends, hands each piece to a parser pool (one thread per core), and queues the
 * pending results in file order; the consumer takes them in that order. The queue is bounded, so
 * memory is a few pieces whatever the file size, and the reader runs ahead of the consumer by at most
 * that much.
 *
 * @param <C> what a piece parses to
 */
final class CsvPipeline<C> implements AutoCloseable {
    /** Bytes per piece handed to a parser thread. */
    static final int PIECE_BYTES = 1 << 20;

    /**
     * The parser threads, shared by every pass: one per core, created on first use, daemon threads
     * (a pass never keeps the JVM alive), and ended after {@link #IDLE_SECONDS} idle seconds, so a
     * library or a long-lived service that read a CSV once holds no threads afterwards, and the next
     * pass starts them again (a thread starts in well under a millisecond). One pool for every pass,
     * rather than a pool per pass that the pass would shut down, because a multi-pass algorithm would
     * otherwise pay thread start-up on every pass, and because a pass abandoned without
     * {@link #close()} must not leak threads: here it only leaves tasks that finish on their own.
     */
    private static final class Pool {
        static final int THREADS = Math.max(1, Runtime.getRuntime().availableProcessors());
        static final ThreadPoolExecutor EXECUTOR = create();

        private static ThreadPoolExecutor create() {
            ThreadPoolExecutor e = new ThreadPoolExecutor(THREADS, THREADS, IDLE_SECONDS, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), r -> {
                        Thread t = new Thread(r, "dpspectra-csv-parser");
                        t.setDaemon(true);
                        return t;
                    });
            e.allowCoreThreadTimeOut(true);
            return e;
        }
    }

    /** Seconds a parser thread waits for work before it ends. */
    static final long IDLE_SECONDS = 10;

    private static final Future<Object> END = CompletableFuture.completedFuture(null);

    private final BlockingQueue<Future<?>> queue;
    /**
     * Piece buffers whose piece is parsed, for the reader to fill again: a pass touches a few
     * megabytes of buffers rather than one new (zeroed, page-faulted, later collected) array per
     * megabyte of input, which cost the reader and the collector about a tenth of the pass's CPU
     * (docs/benchmarks/csv.md, "Third round").
     */
    private final BlockingQueue<byte[]> spare;
    private final PieceFolder<C> fold;
    private final java.util.function.ToLongFunction<C> rowsOf;
    /** The number of rows before the next piece submitted, once the pieces before it are parsed (reader thread only). */
    private CompletableFuture<Long> nextFirstRow = CompletableFuture.completedFuture(0L);
    private final Thread reader;
    private volatile boolean closed;
    private volatile long bytesRead;
    private boolean finished;

    /**
     * @param input   the raw bytes; closed by the reader thread when it is done
     * @param counted the stream whose bytes count as read: {@code input} itself, or the file under a
     *                gzip stream
     * @param skipLines lines to drop before the first piece (the preamble: skipped lines and header)
     * @param parse   parses one piece: bytes [0, length) of the array, whole lines only
     */
    CsvPipeline(InputStream input, CountingInputStream counted, long skipLines, PieceParser<C> parse) {
        this(input, counted, skipLines, parse, null, null);
    }

    /**
     * As above, and each parsed piece is then handed to {@code fold} on a parser thread, with the number
     * of rows before it ({@code rowsOf} of the pieces before it), as soon as it and the pieces before it
     * are parsed; pieces are folded in any order, several at once. {@link #next} returns a piece once it
     * is folded.
     */
    CsvPipeline(InputStream input, CountingInputStream counted, long skipLines, PieceParser<C> parse,
            PieceFolder<C> fold, java.util.function.ToLongFunction<C> rowsOf) {
        this.fold = fold;
        this.rowsOf = rowsOf;
        this.queue = new ArrayBlockingQueue<>(2 * Pool.THREADS + 1);
        this.spare = new ArrayBlockingQueue<>(2 * Pool.THREADS + 4);
        this.reader = new Thread(() -> readAll(input, counted, skipLines, parse), "dpspectra-csv-reader");
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /**
     * Parses bytes [0, length) of a piece (whole lines; the last may lack its line break). The array is
     * filled again with later input once {@code parse} returns, so the result must not refer to it.
     */
    @FunctionalInterface
    interface PieceParser<C> {
        C parse(byte[] bytes, int length);
    }

    /** Folds a parsed piece, whose first row is row {@code firstRow} (from 0) of the pass. */
    @FunctionalInterface
    interface PieceFolder<C> {
        void fold(C piece, long firstRow);
    }

    /** Counts the bytes read through it, for progress by bytes. */
    static final class CountingInputStream extends java.io.FilterInputStream {
        private volatile long count;

        CountingInputStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        long count() {
            return count;
        }
    }

    private void readAll(InputStream input, CountingInputStream counted, long skipLines, PieceParser<C> parse) {
        try (InputStream in = input) {
            byte[] buf = new byte[PIECE_BYTES];
            int start = skipPreamble(in, buf, skipLines);
            if (start < 0) {
                put(END);
                return;
            }
            // bytes [start, preambleFilled) of buf are the beginning of the data
            int filled = preambleFilled - start;
            System.arraycopy(buf, start, buf, 0, filled);
            boolean eof = false;
            while (!closed) {
                while (filled < buf.length) {
                    int n = in.read(buf, filled, buf.length - filled);
                    if (n < 0) {
                        eof = true;
                        break;
                    }
                    filled += n;
                }
                bytesRead = counted.count();
                if (eof) {
                    if (filled > 0) {
                        submit(parse, buf, filled);
                    }
                    break;
                }
                int lastBreak = lastIndexOf(buf, filled, (byte) '\n');
                if (lastBreak < 0) {
                    buf = Arrays.copyOf(buf, buf.length * 2); // one line longer than a piece
                    continue;
                }
                int carry = filled - lastBreak - 1;
                byte[] next = carry < PIECE_BYTES ? spare.poll() : null;
                if (next == null) {
                    next = new byte[Math.max(PIECE_BYTES, 2 * carry)];
                }
                System.arraycopy(buf, lastBreak + 1, next, 0, carry);
                submit(parse, buf, lastBreak + 1);
                buf = next;
                filled = carry;
            }
            bytesRead = counted.count();
            put(END);
        } catch (Throwable t) {
            CompletableFuture<Object> failed = new CompletableFuture<>();
            failed.completeExceptionally(t);
            try {
                put(failed);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private int preambleFilled;

    /**
     * Reads into buf until {@code lines} line breaks have passed (and a UTF-8 byte-order mark at the
     * very start is skipped); returns the offset of the first data byte in buf, with
     * {@link #preambleFilled} bytes filled, or −1 if the input ends inside the preamble.
     */
    private int skipPreamble(InputStream in, byte[] buf, long lines) throws IOException {
        int filled = 0;
        int pos = 0;
        long left = lines;
        boolean first = true;
        while (true) {
            if (pos == filled) {
                int n = in.read(buf, 0, buf.length);
                if (n < 0) {
                    preambleFilled = 0;
                    return left == 0 ? 0 : -1;
                }
                filled = n;
                pos = 0;
                if (first) {
                    first = false;
                    if (n >= 3 && (buf[0] & 0xff) == 0xEF && (buf[1] & 0xff) == 0xBB && (buf[2] & 0xff) == 0xBF) {
                        pos = 3;
                    }
                }
            }
            if (left == 0) {
                preambleFilled = filled;
                return pos;
            }
            while (pos < filled && left > 0) {
                if (buf[pos++] == '\n') {
                    left--;
                }
            }
        }
    }

    private static int lastIndexOf(byte[] buf, int length, byte b) {
        for (int i = length - 1; i >= 0; i--) {
            if (buf[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private void submit(PieceParser<C> parse, byte[] bytes, int length) throws InterruptedException {
        CompletableFuture<C> parsed = CompletableFuture.supplyAsync(() -> {
            C piece = parse.parse(bytes, length);
            if (bytes.length == PIECE_BYTES) {
                spare.offer(bytes); // dropped when the pool is full
            }
            return piece;
        }, Pool.EXECUTOR);
        if (fold == null) {
            put(parsed);
            return;
        }
        CompletableFuture<Long> firstRow = nextFirstRow;
        nextFirstRow = parsed.thenCombine(firstRow, (piece, before) -> before + rowsOf.applyAsLong(piece));
        CompletableFuture<C> folded = parsed.thenCombineAsync(firstRow, (piece, before) -> {
            fold.fold(piece, before);
            return piece;
        }, Pool.EXECUTOR);
        put(folded);
    }

    private void put(Future<?> f) throws InterruptedException {
        if (!closed) {
            queue.put(f);
        }
    }

    /**
     * The next parsed piece in file order, or null at the end.
     *
     * @param onFailure turns a read failure (or a parser crash) into the exception to throw
     */
    @SuppressWarnings("unchecked")
    C next(Function<Throwable, RuntimeException> onFailure) {
        if (finished) {
            return null;
        }
        try {
            Future<?> f = queue.take();
            if (f == END) {
                finished = true;
                return null;
            }
            return (C) f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw onFailure.apply(e);
        } catch (ExecutionException e) {
            finished = true;
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw onFailure.apply(cause);
        }
    }

    /** Raw bytes read so far (compressed bytes for gzip input). */
    long bytesRead() {
        return bytesRead;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            reader.interrupt();
            Future<?> f;
            while ((f = queue.poll()) != null) {
                f.cancel(false);
            }
        }
    }
}
