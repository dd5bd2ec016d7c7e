package io.dpspectra.data;

import io.dpspectra.linalg.MatrixTooLargeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.util.OptionalLong;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The blocks of rows of a cursor, read one block ahead of their consumer on a second thread: while the consumer
 * folds one block (a dsyrk, say), the next is read, decoded and bounded (clipped or checked), so that on two cores a
 * pass takes about the time of the slower of the two instead of their sum.
 *
 * <pre>
 *   try (ReadAhead blocks = ReadAhead.start(cursor, d, blockRows, source.knownSize(), 1)) {
 *       int filled;
 *       while ((filled = blocks.next()) &gt; 0) {
 *           use(blocks.values(), filled);   // rows 0 .. filled-1 of values(), row-major
 *       }
 *   }
 * </pre>
 *
 * <p>The consumer sees exactly what a loop of {@link RowCursor#nextBlock}{@code (buffer, blockRows, d)} calls would
 * give it: the same blocks of rows, with the same values, in the same order (the reading thread makes those very
 * calls, one after the other, on the one cursor), so every result folded from them has the same bits. Two buffers of
 * {@code blockRows} rows are allocated once and handed back and forth; nothing is allocated per block.
 *
 * <p>Errors: an exception raised by the reading thread (a malformed or non-finite cell, a row the bound refuses, a
 * failed read) is raised by {@link #next()} on the consumer's thread, the same exception object (same type and
 * message), at the block where the plain loop would have raised it, after every block before it was consumed, and
 * never for a block the consumer does not ask for. {@link #close()} stops the reading thread and waits for it (at
 * most the rest of the block it is reading) before it returns, whether the pass ended, failed or was left early; the
 * cursor itself is the caller's to close, after this.
 *
 * <p>The second thread is used only where it can help: with a processor more than the consumer's threads and more than
 * one block of rows (or a size not known in advance); otherwise {@link #next()} reads on the calling thread into one
 * buffer of at most the known size. A consumer that already keeps every processor busy (a BLAS call on as many
 * threads as there are processors) would only be slowed by a third thread taking turns with its own (its threads
 * wait for each other): on 2 processors with 2 BLAS threads the Gram pass took 1.59 times the in-memory Gram's
 * wall time with the reading thread against 1.49 without it, and with 1 BLAS thread 1.06 against 1.27
 * (docs/benchmarks/pass.md).
 *
 * <p>Cost: the buffers, 2 · blockRows · d doubles (one, of at most the known number of rows, without the second
 * thread), and one thread per pass.
 */
public final class ReadAhead implements AutoCloseable {
    /** The CPU time of every reading thread that has ended since {@link #counting} was set, in nanoseconds. */
    private static final AtomicLong FINISHED_CPU_NANOS = new AtomicLong();
    /** Whether reading threads count their CPU time: set by the first {@link #finishedThreadsCpuNanos()}. */
    private static volatile boolean counting;

    private final RowCursor cursor;
    private final int d;
    private final int blockRows;
    /** Null without the second thread. */
    private final Thread reader;
    /** Empty buffers, for the reading thread to fill (or {@link #STOP}). */
    private final BlockingQueue<Slot> free;
    /** Filled buffers, in the order read, for the consumer. */
    private final BlockingQueue<Slot> full;
    /** The buffer the consumer holds, or null. */
    private Slot held;
    private volatile boolean stopped;
    private boolean ended;

    /** A buffer of rows and what the reading thread put in it. */
    private static final class Slot {
        final double[] values;
        int rows;
        Throwable failure;

        Slot(double[] values) {
            this.values = values;
        }
    }

    /** Handed to the reading thread to stop it. */
    private static final Slot STOP = new Slot(new double[0]);

    private ReadAhead(RowCursor cursor, int d, int blockRows, boolean ahead, int bufferRows) {
        this.cursor = cursor;
        this.d = d;
        this.blockRows = bufferRows;
        if (!ahead) {
            reader = null;
            free = null;
            full = null;
            held = new Slot(new double[MatrixTooLargeException.checkedLength("the row buffer", bufferRows, d)]);
            return;
        }
        free = new ArrayBlockingQueue<>(3);
        full = new ArrayBlockingQueue<>(2);
        for (int i = 0; i < 2; i++) {
            free.add(new Slot(new double[MatrixTooLargeException.checkedLength("the row buffers", blockRows, d)]));
        }
        reader = new Thread(this::read, "dpspectra-read-ahead");
        reader.setDaemon(true);   // never keeps the JVM alive; close() stops it in any case
        reader.start();
    }

    /**
     * Starts reading {@code cursor} in blocks of {@code blockRows} rows of width {@code d}.
     *
     * @param cursor    the rows, positioned where the blocks start; not closed here
     * @param d         the width of the rows
     * @param blockRows rows per block, at least 1
     * @param knownRows the number of rows still to come, if known (a hint: it only decides whether a second thread
     *                  and a full-size buffer are worth having)
     * @param consumerThreads the threads the consumer folds a block with (a BLAS call's, {@link
     *                  io.dpspectra.linalg.Backend#threads()}; 1 for plain Java): the reading thread is started only
     *                  when there is a processor more than that
     * @return the blocks; close it before the cursor
     */
    public static ReadAhead start(RowCursor cursor, int d, int blockRows, OptionalLong knownRows, int consumerThreads) {
        if (blockRows < 1 || d < 1) {
            throw new IllegalArgumentException("need blockRows >= 1 and d >= 1, got " + blockRows + " and " + d);
        }
        long known = knownRows.orElse(Long.MAX_VALUE);
        boolean ahead = known > blockRows && Runtime.getRuntime().availableProcessors() > consumerThreads;
        int bufferRows = (int) Math.max(1, Math.min(blockRows, known));
        return new ReadAhead(cursor, d, blockRows, ahead, ahead ? blockRows : bufferRows);
    }

    /**
     * Reads on, by the next block of rows: afterwards rows 0 .. (returned − 1) of {@link #values()} hold it.
     *
     * @return the rows in the block, 0 at the end of the rows
     * @throws InvalidDataException (or another exception) as the cursor's {@link RowCursor#nextBlock} raised it
     */
    public int next() {
        if (ended) {
            return 0;
        }
        if (reader == null) {
            held.rows = cursor.nextBlock(held.values, blockRows, d);
            ended = held.rows == 0;
            return held.rows;
        }
        if (held != null) {
            free.add(held);   // never full: two buffers and a STOP at most
            held = null;
        }
        Slot slot = takeUninterruptibly(full);
        if (slot.failure != null) {
            ended = true;
            throw rethrown(slot.failure);
        }
        held = slot;
        ended = slot.rows == 0;
        return slot.rows;
    }

    /** Whether a second thread reads the blocks. */
    boolean readsAhead() {
        return reader != null;
    }

    /**
     * The buffer that holds the block {@link #next()} returned last (row-major, width d); valid until the next call.
     * It may be changed in place (the reading thread does not touch it).
     *
     * @return the rows
     */
    public double[] values() {
        if (held == null) {
            throw new IllegalStateException("no block was read");
        }
        return held.values;
    }

    /**
     * Stops the reading thread and waits until it has ended; the cursor is left open (its state, such as the rows
     * read, is then that of the blocks actually read, which may be one more than were consumed).
     */
    @Override
    public void close() {
        if (reader == null || stopped) {
            return;
        }
        stopped = true;
        free.add(STOP);   // wakes the reading thread if it waits for a buffer
        boolean interrupted = false;
        while (true) {
            try {
                reader.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * CPU time of the reading threads of this JVM that have ended, in nanoseconds: what a benchmark that times a
     * pass by the calling thread's CPU adds to it to count the pass's whole work. The threads count their time from
     * the first call of this method on (so that a plain run never loads the JVM's management classes).
     *
     * @return the nanoseconds of the reading threads that ended after the first call
     */
    public static long finishedThreadsCpuNanos() {
        counting = true;
        return FINISHED_CPU_NANOS.get();
    }

    /** The reading thread: fills free buffers in turn until the rows end, a read fails or the consumer stops. */
    private void read() {
        try {
            while (!stopped) {
                Slot slot = takeUninterruptibly(free);
                if (slot == STOP || stopped) {
                    return;
                }
                try {
                    slot.rows = cursor.nextBlock(slot.values, blockRows, d);
                    slot.failure = null;
                } catch (Throwable t) { // NOPMD: every failure is handed to the consumer, as its own
                    slot.rows = 0;
                    slot.failure = t;
                }
                full.add(slot);   // never full: two buffers
                if (slot.rows == 0) {
                    return;
                }
            }
        } finally {
            if (counting) {
                FINISHED_CPU_NANOS.addAndGet(Math.max(0, ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime()));
            }
        }
    }

    private static Slot takeUninterruptibly(BlockingQueue<Slot> queue) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return queue.take();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static RuntimeException rethrown(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t instanceof IOException io) {
            throw new UncheckedIOException(io);
        }
        throw new IllegalStateException(t);
    }
}
