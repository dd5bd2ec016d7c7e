package io.dpspectra.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;

/**
 * Rows in dpspectra's binary format: a small header followed by n·d little-endian float64 values,
 * row after row. Fast to stream, for large data.
 *
 * <p>Format (all little-endian), {@value #HEADER_BYTES}-byte header then the data:
 * <pre>
 *   offset 0   4 bytes  magic "DPSR" (ASCII)
 *   offset 4   int32    version (currently 1)
 *   offset 8   int64    n, the number of rows (≥ 0)
 *   offset 16  int32    d, the dimension (≥ 1)
 *   offset 20  n·d float64, row 0 first
 * </pre>
 * The file size must be exactly {@value #HEADER_BYTES} + 8·n·d bytes; {@link #open(Path)} checks this.
 *
 * <p>Reading goes through a {@link FileChannel} with a 256 KiB direct buffer (no memory mapping, which
 * costs several times the CPU of a read in page faults), so a cursor uses O(d) heap and 256 KiB outside it
 * whatever the file size. {@link RowCursor#nextBlock} is served directly from that buffer, each piece checked
 * for non-finite cells as it is copied. Writing is atomic: a temporary file in the target's directory, renamed on success.
 *
 * <p>Every cell read is checked finite: a NaN or infinite cell is an {@link InvalidDataException} naming its
 * row and column, as in a CSV.
 *
 * <p>Cost: one sequential read of 8·n·d bytes per pass.
 */
public final class BinaryRows implements RowSource {
    /** The 4 magic bytes "DPSR". */
    public static final String MAGIC = "DPSR";
    /** The format version written and accepted. */
    public static final int VERSION = 1;
    /** Header length in bytes. */
    public static final int HEADER_BYTES = 20;
    private static final int BUFFER_BYTES = 1 << 20;
    /**
     * The read buffer: small enough that a piece copied from the page cache is still in the core's L2 cache when
     * it is copied on into the rows (about 10 % less CPU for that copy than 1 MiB in a micro-benchmark; within the
     * noise of a whole pass, docs/benchmarks/pass.md).
     */
    private static final int READ_BUFFER_BYTES = 1 << 18;
    /** The exponent bits of a double, and the lowest of them: a non-finite value has every exponent bit set. */
    private static final long EXPONENT = 0x7ff0_0000_0000_0000L;
    private static final long EXPONENT_ONE = 0x0010_0000_0000_0000L;

    private final Path path;
    private final long rows;
    private final int d;

    private BinaryRows(Path path, long rows, int d) {
        this.path = path;
        this.rows = rows;
        this.d = d;
    }

    /**
     * Opens and validates the header of a binary rows file.
     *
     * @param path a file written by {@link #write} or {@link Writer}
     * @return the source (each pass reads the file anew)
     * @throws InvalidDataException when the header is not a binary rows header or the size does not match it
     */
    public static BinaryRows open(Path path) {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < HEADER_BYTES) {
                throw new InvalidDataException(path + " is " + size + " bytes, shorter than the " + HEADER_BYTES
                        + "-byte dpspectra binary header; is it a .dpsr file (written by 'dpspectra convert')?");
            }
            ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            while (h.hasRemaining() && ch.read(h) >= 0) {
                // keep reading
            }
            h.flip();
            byte[] magic = new byte[4];
            h.get(magic);
            if (!MAGIC.equals(new String(magic, StandardCharsets.ISO_8859_1))) {
                throw new InvalidDataException(path + " does not start with the magic bytes \"" + MAGIC
                        + "\"; it is not a dpspectra binary rows file (convert a CSV with 'dpspectra convert')");
            }
            int version = h.getInt();
            if (version != VERSION) {
                throw new InvalidDataException(path + " has format version " + version + ", this build reads version "
                        + VERSION + "; rewrite the file with this version");
            }
            long n = h.getLong();
            int dim = h.getInt();
            if (n < 0 || dim < 1) {
                throw new InvalidDataException(path + " header is corrupt: rows=" + n + ", dimension=" + dim
                        + " (need rows >= 0 and dimension >= 1); rewrite the file");
            }
            long expected;
            try {
                expected = Math.addExact(HEADER_BYTES, Math.multiplyExact(Math.multiplyExact(n, (long) dim), 8L));
            } catch (ArithmeticException e) {
                throw new InvalidDataException(path + " header is corrupt: rows=" + n + ", dimension=" + dim
                        + " overflow the file size; rewrite the file", e);
            }
            if (size != expected) {
                throw new InvalidDataException(path + " is " + size + " bytes but its header (rows=" + n + ", dimension="
                        + dim + ") needs " + expected + " bytes; the file is truncated or corrupt, rewrite it");
            }
            return new BinaryRows(path, n, dim);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + IoErrors.inWords(e), e);
        }
    }

    /**
     * Writes every row of {@code source} to {@code target} atomically (a temporary file in the same
     * directory, renamed on success; nothing is left behind on failure). Returns the number of rows.
     *
     * @param source the rows to write
     * @param target the file to write; replaced if it exists
     * @return the number of rows written
     */
    public static long write(RowSource source, Path target) {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        int dim = source.dimension();
        Path tmp = null;
        boolean ok = false;
        try {
            tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
            // temporary files are created owner-only; a data file gets the usual rw-r--r--
            if (Files.getFileStore(tmp).supportsFileAttributeView(java.nio.file.attribute.PosixFileAttributeView.class)) {
                Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            }
            long n;
            try (Writer writer = Writer.create(tmp, dim); RowCursor cursor = source.open()) {
                double[] block = new double[Math.max(1, BUFFER_BYTES / (8 * dim)) * dim];
                int rowsPerBlock = block.length / dim;
                int k;
                while ((k = cursor.nextBlock(block, rowsPerBlock, dim)) > 0) {
                    writer.append(block, k);
                }
                n = writer.finish();
            }
            Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            ok = true;
            return n;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + IoErrors.inWords(e), e);
        } finally {
            if (!ok && tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) { // NOPMD: best effort, the original error is more useful
                }
            }
        }
    }

    /**
     * Writes rows to a binary rows file as they come (for a stream read once, or a conversion); the
     * header's row count is filled in by {@link #finish()}. Not atomic by itself: write to a temporary
     * file and rename (as {@link BinaryRows#write} does), or delete the file when a write fails.
     */
    public static final class Writer implements AutoCloseable {
        private final FileChannel ch;
        private final ByteBuffer buf;
        private final int dim;
        private long n;

        private Writer(FileChannel ch, int dim) {
            this.ch = ch;
            this.dim = dim;
            this.buf = ByteBuffer.allocate(Math.max(BUFFER_BYTES, 8 * dim)).order(ByteOrder.LITTLE_ENDIAN);
            writeHeader(buf, 0, dim);
        }

        /**
         * Creates (or truncates) {@code file} for rows of width {@code dim}.
         *
         * @param file the file
         * @param dim  the row width d, ≥ 1
         * @return a writer; {@link #finish()} completes the file
         * @throws IOException when the file cannot be created
         */
        public static Writer create(Path file, int dim) throws IOException {
            if (dim < 1) {
                throw new IllegalArgumentException("dimension must be >= 1, got " + dim);
            }
            return new Writer(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING), dim);
        }

        /**
         * Appends {@code rows} rows of width d from {@code block} (row-major). Not modified: block.
         *
         * @param block at least rows·d values
         * @param rows  the number of rows to append
         * @throws IOException when the file cannot be written
         */
        public void append(double[] block, int rows) throws IOException {
            int cells = Math.multiplyExact(rows, dim);
            int off = 0;
            while (off < cells) {
                if (buf.remaining() < 8) {
                    drain(ch, buf);
                }
                int m = Math.min(cells - off, buf.remaining() / 8);
                buf.asDoubleBuffer().put(block, off, m);
                buf.position(buf.position() + 8 * m);
                off += m;
            }
            n += rows;
        }

        /**
         * Flushes, writes the row count into the header and syncs; returns the number of rows.
         *
         * @return the number of rows written
         * @throws IOException when the file cannot be written
         */
        public long finish() throws IOException {
            drain(ch, buf);
            writeHeader(buf, n, dim);
            buf.flip();
            long pos = 0;
            while (buf.hasRemaining()) {
                pos += ch.write(buf, pos);
            }
            ch.force(true);
            return n;
        }

        @Override
        public void close() throws IOException {
            ch.close();
        }
    }

    private static void writeHeader(ByteBuffer buf, long n, int dim) {
        buf.put(MAGIC.getBytes(StandardCharsets.ISO_8859_1)).putInt(VERSION).putLong(n).putInt(dim);
    }

    private static void drain(FileChannel ch, ByteBuffer buf) throws IOException {
        buf.flip();
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
        buf.clear();
    }

    @Override
    public int dimension() {
        return d;
    }

    /**
     * The number of rows n recorded in the header.
     *
     * @return n
     */
    public long size() {
        return rows;
    }

    @Override
    public OptionalLong knownSize() {
        return OptionalLong.of(rows);
    }

    @Override
    public String describe() {
        return path.toString();
    }

    @Override
    public long sizeInBytes() {
        return HEADER_BYTES + 8L * rows * d;
    }

    @Override
    public RowCursor open() {
        FileChannel ch;
        try {
            ch = FileChannel.open(path, StandardOpenOption.READ);
            ch.position(HEADER_BYTES);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + IoErrors.inWords(e), e);
        }
        return new Cursor(ch);
    }

    private final class Cursor implements RowCursor, FiniteCheckLater {
        private final FileChannel ch;
        // direct, so that the channel reads into it without an intermediate copy
        private final ByteBuffer buf = ByteBuffer.allocateDirect(READ_BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        private long read;

        Cursor(FileChannel ch) {
            this.ch = ch;
            buf.flip(); // empty
        }

        @Override
        public boolean next(double[] into) {
            if (into.length != d) {
                throw new IllegalArgumentException("row buffer has length " + into.length + ", expected " + d);
            }
            if (read >= rows) {
                return false;
            }
            readDoubles(into, 0, d, true);
            read++;
            return true;
        }

        @Override
        public int nextBlock(double[] block, int maxRows, int width) {
            if (width != d || (long) maxRows * d > block.length) {
                throw new IllegalArgumentException("block of length " + block.length + " for " + maxRows
                        + " rows of width " + width + " does not fit rows of width " + d);
            }
            int k = (int) Math.min(maxRows, rows - read);
            if (k <= 0) {
                return 0;
            }
            readDoubles(block, 0, Math.multiplyExact(k, d), true);
            read += k;
            return k;
        }

        @Override
        public int nextBlockUnchecked(double[] block, int fromRow, int maxRows, int width) {
            if (width != d || fromRow < 0 || (long) (fromRow + maxRows) * d > block.length) {
                throw new IllegalArgumentException("block of length " + block.length + " for " + maxRows
                        + " rows of width " + width + " from row " + fromRow + " does not fit rows of width " + d);
            }
            int k = (int) Math.min(maxRows, rows - read);
            if (k <= 0) {
                return 0;
            }
            readDoubles(block, fromRow * d, Math.multiplyExact(k, d), false);
            read += k;
            return k;
        }

        @Override
        public void checkFinite(double[] block, int fromRow, int count) {
            checkFinite(block, fromRow * d, (fromRow + count) * d, read - count - fromRow);
        }

        /**
         * Refuses a NaN or infinite cell among values[from, to), just read (values[0] is the first cell of row
         * {@code before + 1}), naming its row and column: the file is outside the data domain (finite rows), like a CSV
         * with such a cell, and the refusal comes on the pass that reads the row, never as a value handed on. The
         * test is one branch-free pass (an exponent of all ones, and only that, carries into the sign bit), run on
         * each piece as it is copied, while it is in cache.
         */
        private void checkFinite(double[] values, int from, int to, long before) {
            long any = 0;
            for (int i = from; i < to; i++) {
                any |= (Double.doubleToRawLongBits(values[i]) & EXPONENT) + EXPONENT_ONE;
            }
            if (any >= 0) {
                return;
            }
            for (int i = from; i < to; i++) {
                if (!Double.isFinite(values[i])) {
                    long row = before + i / d + 1;
                    throw new InvalidDataException(path + " row " + row + " column " + (i % d + 1) + " is "
                            + (Double.isNaN(values[i]) ? "NaN" : values[i]) + "; every cell must be a finite number "
                            + "(remove or impute it in the source, then convert it again)");
                }
            }
        }

        /** Copies the next len values into dst[off ..), checked finite unless {@code check} is false. */
        private void readDoubles(double[] dst, int off, int len, boolean check) {
            int start = off;
            while (len > 0) {
                if (buf.remaining() < 8) {
                    refill(read + (off - start) / d);
                }
                int m = Math.min(len, buf.remaining() / 8);
                buf.asDoubleBuffer().get(dst, off, m);
                buf.position(buf.position() + 8 * m);
                if (check) {
                    checkFinite(dst, off, off + m, read);
                }
                off += m;
                len -= m;
            }
        }

        /** Reads on into the buffer; {@code complete} rows have been read whole. */
        private void refill(long complete) {
            buf.compact();
            try {
                while (buf.position() < 8) {
                    if (ch.read(buf) < 0) {
                        throw new InvalidDataException(path + " ended early at row " + (complete + 1) + " of " + rows
                                + "; the file was truncated after it was opened, rewrite it");
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + path + ": " + IoErrors.inWords(e), e);
            } finally {
                buf.flip();
            }
        }

        @Override
        public String position() {
            return path + " row " + read;
        }

        @Override
        public String positionOfRow(long row) {
            return path + " row " + row;
        }

        @Override
        public long rowsRead() {
            return read;
        }

        @Override
        public long bytesRead() {
            return HEADER_BYTES + 8L * read * d;
        }

        @Override
        public void close() {
            try {
                ch.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close " + path + ": " + IoErrors.inWords(e), e);
            }
        }
    }
}
