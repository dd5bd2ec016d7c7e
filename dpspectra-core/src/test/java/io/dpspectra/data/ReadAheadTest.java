package io.dpspectra.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.dpspectra.linalg.Backend;
import io.dpspectra.linalg.Gram;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read-ahead of a pass (forced on with a consumer of one thread, so that it runs on any machine of two or more
 * processors) gives its consumer exactly the blocks of the plain loop of {@link RowCursor#nextBlock}
 * calls (so the Gram pass keeps its bits), raises the reading thread's errors on the caller's thread as they are, at
 * the block where the plain loop would, and never leaves its thread running or the file open, however the pass ends.
 */
class ReadAheadTest {
    private static final int N = 1000;
    private static final int D = 7;
    private static final int BLOCK = 64;

    @TempDir
    Path dir;

    /** No reading thread outlives a test (checked after each one, however it ended). */
    @AfterEach
    void noReadingThreadIsLeftRunning() {
        assertThat(readingThreads()).as("reading threads still alive").isEmpty();
    }

    private static List<Thread> readingThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("dpspectra-read-ahead") && t.isAlive()).toList();
    }

    /** N × D rows uniform in [-3, 3), most of them above the bound 2 used below; {@code bad} at row badRow (1-based). */
    private Path file(String name, int badRow, double bad) throws IOException {
        Path f = dir.resolve(name);
        SplittableRandom rnd = new SplittableRandom(5);
        double[] rows = new double[N * D];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = rnd.nextDouble(-3, 3);
        }
        if (badRow > 0) {
            rows[(badRow - 1) * D + 3] = bad;
        }
        try (BinaryRows.Writer w = BinaryRows.Writer.create(f, D)) {
            w.append(rows, N);
            w.finish();
        }
        return f;
    }

    /** The blocks of the plain loop, each copied. */
    private static List<double[]> plainBlocks(RowSource source, int blockRows) {
        List<double[]> blocks = new ArrayList<>();
        double[] block = new double[blockRows * D];
        try (RowCursor c = source.open()) {
            int got;
            while ((got = c.nextBlock(block, blockRows, D)) > 0) {
                blocks.add(Arrays.copyOf(block, got * D));
            }
        }
        return blocks;
    }

    private static Throwable plainError(RowSource source) {
        return catchThrowable(() -> plainBlocks(source, BLOCK));
    }

    /** Whether this process holds the file open, where /proc says (true where it cannot be told). */
    private static boolean heldOpen(Path file) throws IOException {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return false;
        }
        Path real = file.toRealPath();
        try (Stream<Path> s = Files.list(fds)) {
            return s.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(real);
                } catch (IOException | UnsupportedOperationException e) {
                    return false;
                }
            });
        }
    }

    @Test
    void theConsumerGetsTheBlocksOfThePlainLoopAndTheGramPassItsBits() throws IOException {
        ClippedRows clipped = BinaryRows.open(file("a.dpsr", 0, 0)).clipL2(2.0);
        for (int blockRows : new int[] {BLOCK, 333, N, 5000}) {
            List<double[]> expected = plainBlocks(clipped, blockRows);
            // with a reading thread, and without one (a consumer as wide as the machine)
            for (int threads : new int[] {1, Integer.MAX_VALUE}) {
                for (OptionalLong known : List.of(OptionalLong.empty(), OptionalLong.of(N))) {
                    List<double[]> actual = new ArrayList<>();
                    try (RowCursor c = clipped.open();
                         ReadAhead blocks = ReadAhead.start(c, D, blockRows, known, threads)) {
                        int got;
                        while ((got = blocks.next()) > 0) {
                            actual.add(Arrays.copyOf(blocks.values(), got * D));
                        }
                        assertThat(blocks.next()).as("after the end").isZero();
                        boolean reading = Runtime.getRuntime().availableProcessors() > threads
                                && known.orElse(Long.MAX_VALUE) > blockRows;
                        assertThat(blocks.readsAhead()).as("a reading thread").isEqualTo(reading);
                    }
                    assertThat(actual).as("blocks of %d rows, known size %s", blockRows, known)
                            .hasSameSizeAs(expected);
                    for (int i = 0; i < expected.size(); i++) {
                        assertThat(Arrays.mismatch(actual.get(i), expected.get(i))).as("block %d", i).isEqualTo(-1);
                    }
                }
            }
            for (Backend backend : new Backend[] {Backend.DEFAULT, Backend.PURE_JAVA}) {
                Gram sequential = new Gram(D, backend);
                for (double[] b : expected) {
                    sequential.addBlock(b, b.length / D);
                }
                GramPass pass = GramPass.of(clipped, backend, blockRows, n -> { }, 1);
                assertThat(pass.rows()).isEqualTo(N);
                assertThat(Arrays.equals(pass.gram().data(), sequential.result().data())).as("bits, %s", backend).isTrue();
                assertThat(clipped.clippedRows()).isPositive();
                assertThat(clipped.rowsInLastPass()).isEqualTo(N);
            }
        }
    }

    @Test
    void aNonFiniteCellIsRaisedOnTheCallersThreadAsThePlainLoopRaisesIt() throws IOException {
        Path f = file("nan.dpsr", 700, Double.NaN);
        for (RowSource source : List.of(BinaryRows.open(f), BinaryRows.open(f).clipL2(2.0))) {
            Throwable expected = plainError(source);
            assertThat(expected).isInstanceOf(InvalidDataException.class).hasMessageContaining("row 700 column 4");
            List<Long> progress = new ArrayList<>();
            Throwable actual = catchThrowable(() -> GramPass.of(source, Backend.DEFAULT, BLOCK, progress::add, 1));
            assertThat(actual).isInstanceOf(expected.getClass()).hasMessage(expected.getMessage());
            // every block before the bad row's was folded, none after it
            assertThat(progress).last().isEqualTo(640L);
            assertThat(heldOpen(f)).as("file still open").isFalse();
        }
    }

    @Test
    void aFileTruncatedAfterItWasOpenedIsRaisedAsThePlainLoopRaisesIt() throws IOException {
        Path f = file("short.dpsr", 0, 0);
        BinaryRows rows = BinaryRows.open(f);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(BinaryRows.HEADER_BYTES + 8L * D * 500 + 12);
        }
        Throwable expected = plainError(rows.clipL2(2.0));
        assertThat(expected).isInstanceOf(InvalidDataException.class).hasMessageContaining("ended early at row 501");
        assertThatThrownBy(() -> GramPass.of(rows.clipL2(2.0), Backend.DEFAULT, BLOCK, n -> { }, 1))
                .isInstanceOf(expected.getClass()).hasMessage(expected.getMessage());
        assertThat(heldOpen(f)).as("file still open").isFalse();
    }

    @Test
    void aFailedReadIsRaisedAsTheSameExceptionObject() {
        UncheckedIOException failure = new UncheckedIOException("cannot read rows.bin: Input/output error",
                new IOException("Input/output error"));
        RowSource failing = failingAfter(3 * BLOCK, failure);
        assertThat(catchThrowable(() -> GramPass.of(failing, Backend.DEFAULT, BLOCK, n -> { }, 1))).isSameAs(failure);
        AssertionError error = new AssertionError("an Error, handed on as well");
        assertThat(catchThrowable(() -> GramPass.of(failingAfter(BLOCK, error), Backend.DEFAULT, BLOCK, n -> { }, 1)))
                .isSameAs(error);
    }

    @Test
    void aFailureInABlockTheConsumerDoesNotAskForIsNeverRaised() throws IOException {
        Path f = file("late.dpsr", N, Double.POSITIVE_INFINITY);
        RowSource source = BinaryRows.open(f).clipL2(2.0);
        try (RowCursor c = source.open(); ReadAhead blocks = ReadAhead.start(c, D, BLOCK, OptionalLong.empty(), 1)) {
            assertThat(blocks.next()).isEqualTo(BLOCK);
            assertThat(blocks.next()).isEqualTo(BLOCK);
        }
        assertThat(heldOpen(f)).isFalse();
    }

    @Test
    void aConsumerThatStopsEarlyStopsTheReadingThreadAndTheFileIsClosed() throws IOException {
        Path f = file("stop.dpsr", 0, 0);
        IllegalStateException stop = new IllegalStateException("the consumer stops");
        assertThat(catchThrowable(() -> GramPass.of(BinaryRows.open(f).clipL2(2.0), Backend.DEFAULT, BLOCK, n -> {
            if (n >= 2 * BLOCK) {
                throw stop;
            }
        }, 1))).isSameAs(stop);
        assertThat(heldOpen(f)).as("file still open").isFalse();
        // closing before any block was taken, and closing twice
        try (RowCursor c = BinaryRows.open(f).open()) {
            ReadAhead blocks = ReadAhead.start(c, D, BLOCK, OptionalLong.empty(), 1);
            blocks.close();
            blocks.close();
        }
        assertThat(heldOpen(f)).isFalse();
    }

    /** Rows of zeros whose cursor throws {@code failure} once {@code good} rows have been read. */
    private static RowSource failingAfter(int good, Throwable failure) {
        return new RowSource() {
            @Override
            public int dimension() {
                return D;
            }

            @Override
            public String describe() {
                return "rows that fail";
            }

            @Override
            public RowCursor open() {
                return new RowCursor() {
                    private long read;

                    @Override
                    public boolean next(double[] into) {
                        if (read >= good) {
                            if (failure instanceof RuntimeException r) {
                                throw r;
                            }
                            throw (Error) failure;
                        }
                        Arrays.fill(into, 0.0);
                        read++;
                        return true;
                    }

                    @Override
                    public String position() {
                        return "row " + read;
                    }

                    @Override
                    public long rowsRead() {
                        return read;
                    }

                    @Override
                    public void close() {
                    }
                };
            }
        };
    }
}
