package io.dpspectra.release;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The external sort behind {@link UnitStatistics} when the kept rows outgrow {@link GroupingMemory#bytes}: the rows
 * are sorted by person id in runs written to a private directory, merged (at most {@link #FAN_IN} files at a time),
 * and handed back person by person in id order, each person's rows in the input's order.
 *
 * <p>The first run holds the persons' reservoirs as they were when memory ran out ({@code STATE} records: the kept
 * rows and the number of rows offered), so that the input is read once: the merge resumes each reservoir where it
 * stopped and offers it the person's later rows ({@code ROW} records), which is the reservoir the in-memory grouping
 * would have ended with. Runs are consecutive stretches of the input and ties between runs go to the earlier run,
 * so a person's records come back in input order (the reservoir's selection and "the first M" depend on it).
 */
final class UnitSpill implements Closeable {
    /** The most runs merged at once (one read buffer each). */
    static final int FAN_IN = 32;
    private static final byte STATE = 0;
    private static final byte ROW = 1;
    private static final int BUFFER = 1 << 16;

    /** What a merge hands back, in id order and, for one id, in input order (a state first, when there is one). */
    interface Records {
        /**
         * A person's reservoir as it was when the grouping spilled.
         *
         * @param id   the person
         * @param kept the kept rows (new arrays)
         * @param seen the rows offered
         */
        void state(String id, double[][] kept, long seen);

        /**
         * One row of a person (the array is reused: copy what is kept).
         *
         * @param id  the person
         * @param row the row
         */
        void row(String id, double[] row);
    }

    private final Directory dir;
    private final Path given;
    private final String what;
    private final int d;
    private final long budget;
    private final List<Path> runs = new ArrayList<>();
    private final List<String> ids = new ArrayList<>();
    private final List<double[]> rows = new ArrayList<>();
    private long held;
    private int files;
    private long written;

    /**
     * A sort in a new private directory under {@code given}.
     *
     * @param given  the spill directory
     * @param what   the grouping, for messages ("grouping visits.csv by column 'person'")
     * @param d      the width
     * @param budget the bytes of rows held before a run is written
     */
    UnitSpill(Path given, String what, int d, long budget) {
        this.given = given;
        this.what = what;
        this.d = d;
        this.budget = budget;
        try {
            this.dir = new Directory(given);
        } catch (IOException e) {
            throw fail("create its spill directory", e);
        }
    }

    /** The failure of {@code action} as the user reads it: the grouping, the directory and the problem. */
    SpillException fail(String action, IOException e) {
        return new SpillException(what + " could not " + action + " in " + given + ": " + SpillException.inWords(e),
                given, e);
    }

    /** The private directory (under the given one). */
    Directory directory() {
        return dir;
    }

    /**
     * A writer of a new spill file (its bytes counted in {@link #written}).
     *
     * @param file a file from {@link #newFile}
     * @return the writer
     * @throws IOException when the file cannot be opened
     */
    Out out(Path file) throws IOException {
        return new Out(file);
    }

    /** The spill directory given (the private directory's parent). */
    Path given() {
        return given;
    }

    /** The bytes written to spill files so far (runs, merged runs and the kept rows). */
    long written() {
        return written;
    }

    /**
     * Writes the reservoirs of the persons grouped in memory so far, as the first run.
     *
     * @param byId the reservoirs
     */
    void states(Map<String, UnitStatistics.Reservoir> byId) {
        String[] keys = byId.keySet().toArray(String[]::new);
        java.util.Arrays.sort(keys);
        Path run = newRun();
        try (Out out = new Out(run)) {
            for (String id : keys) {
                UnitStatistics.Reservoir reservoir = byId.get(id);
                double[][] kept = reservoir.rows();
                out.putByte(STATE);
                out.putString(id);
                out.putLong(reservoir.seen());
                out.putInt(kept.length);
                for (double[] r : kept) {
                    out.putRow(r);
                }
            }
        } catch (IOException e) {
            throw fail("write a sorted run", e);
        }
    }

    /**
     * Adds one row of a person (copied), writing a sorted run when the rows held outgrow the budget.
     *
     * @param id  the person
     * @param row the row
     */
    void add(String id, double[] row) {
        ids.add(id);
        rows.add(row.clone());
        held += GroupingMemory.bytesPerRow(d) + 2L * id.length() + 48;
        if (held > budget) {
            writeRun();
        }
    }

    /** Sorts the rows held by id (stably: a person's rows keep their order) and writes them as the next run. */
    private void writeRun() {
        if (ids.isEmpty()) {
            return;
        }
        Integer[] order = new Integer[ids.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, Comparator.comparing(ids::get)); // a merge sort: stable
        Path run = newRun();
        try (Out out = new Out(run)) {
            for (int i : order) {
                out.putByte(ROW);
                out.putString(ids.get(i));
                out.putRow(rows.get(i));
            }
        } catch (IOException e) {
            throw fail("write a sorted run", e);
        }
        ids.clear();
        rows.clear();
        held = 0;
    }

    private Path newRun() {
        Path run = newFile("run");
        runs.add(run);
        return run;
    }

    /**
     * A new owner-only file in the private directory.
     *
     * @param prefix its name's start
     * @return the file
     */
    Path newFile(String prefix) {
        try {
            return dir.newFile(prefix + "-" + (files++) + ".bin");
        } catch (IOException e) {
            throw fail("create a spill file", e);
        }
    }

    /**
     * Writes the last run, merges the runs and hands every record back in order; the runs are deleted.
     *
     * @param records what receives them
     */
    void merge(Records records) {
        writeRun();
        try {
            while (runs.size() > FAN_IN) {
                List<Path> merged = new ArrayList<>();
                for (int from = 0; from < runs.size(); from += FAN_IN) {
                    List<Path> group = runs.subList(from, Math.min(runs.size(), from + FAN_IN));
                    if (group.size() == 1) {
                        merged.add(group.get(0));
                        continue;
                    }
                    Path out = newFile("run");
                    try (Out o = new Out(out)) {
                        mergeRuns(group, new Copy(o));
                    }
                    for (Path p : group) {
                        Files.deleteIfExists(p);
                    }
                    merged.add(out);
                }
                runs.clear();
                runs.addAll(merged);
            }
            mergeRuns(runs, records);
            for (Path p : runs) {
                Files.deleteIfExists(p);
            }
            runs.clear();
        } catch (IOException e) {
            throw fail("merge its sorted runs", e);
        }
    }

    /** Copies records into a run of an intermediate merge. */
    private final class Copy implements Records {
        private final Out out;

        Copy(Out out) {
            this.out = out;
        }

        @Override
        public void state(String id, double[][] kept, long seen) {
            try {
                out.putByte(STATE);
                out.putString(id);
                out.putLong(seen);
                out.putInt(kept.length);
                for (double[] r : kept) {
                    out.putRow(r);
                }
            } catch (IOException e) {
                throw fail("write a merged run", e);
            }
        }

        @Override
        public void row(String id, double[] row) {
            try {
                out.putByte(ROW);
                out.putString(id);
                out.putRow(row);
            } catch (IOException e) {
                throw fail("write a merged run", e);
            }
        }
    }

    /** One run being merged: its current record. */
    private final class Cursor implements Closeable {
        final int index;
        final In in;
        String id;
        byte kind;
        long seen;
        double[][] kept;
        final double[] row = new double[d];

        Cursor(int index, Path run) throws IOException {
            this.index = index;
            this.in = new In(run);
        }

        boolean advance() throws IOException {
            if (in.atEnd()) {
                return false;
            }
            kind = in.getByte();
            id = in.getString();
            if (kind == STATE) {
                seen = in.getLong();
                kept = new double[in.getInt()][];
                for (int r = 0; r < kept.length; r++) {
                    kept[r] = new double[d];
                    in.getRow(kept[r]);
                }
            } else {
                in.getRow(row);
            }
            return true;
        }

        void emit(Records records) {
            if (kind == STATE) {
                records.state(id, kept, seen);
            } else {
                records.row(id, row);
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** Merges {@code group} (consecutive runs, in input order) by (id, run). */
    private void mergeRuns(List<Path> group, Records records) throws IOException {
        List<Cursor> open = new ArrayList<>();
        try {
            PriorityQueue<Cursor> queue = new PriorityQueue<>(Comparator.<Cursor, String>comparing(c -> c.id)
                    .thenComparingInt(c -> c.index));
            for (int i = 0; i < group.size(); i++) {
                Cursor c = new Cursor(i, group.get(i));
                open.add(c);
                if (c.advance()) {
                    queue.add(c);
                }
            }
            while (!queue.isEmpty()) {
                Cursor c = queue.poll();
                c.emit(records);
                if (c.advance()) {
                    queue.add(c);
                }
            }
        } finally {
            for (Cursor c : open) {
                c.close();
            }
        }
    }

    /** Deletes the private directory and everything in it. */
    @Override
    public void close() {
        dir.close();
    }

    /**
     * A private directory for one grouping's files: owner-only (rwx------, its files rw-------) where the file system
     * has POSIX permissions; deleted with its files on {@link #close}, when it becomes unreachable, or at the JVM's
     * exit at the latest (a shutdown hook), whichever comes first.
     */
    static final class Directory implements AutoCloseable {
        private static final Cleaner CLEANER = Cleaner.create();
        private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();

        static {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Directory::deleteTree),
                    "dpspectra-spill-cleanup"));
        }

        private final Path path;
        private final boolean posix;
        private final Cleaner.Cleanable cleanable;

        Directory(Path parent) throws IOException {
            posix = parent.getFileSystem().supportedFileAttributeViews().contains("posix");
            path = posix ? Files.createTempDirectory(parent, "dpspectra-grouping-", owner("rwx------"))
                    : Files.createTempDirectory(parent, "dpspectra-grouping-");
            LIVE.add(path);
            Path p = path;
            cleanable = CLEANER.register(this, () -> {
                deleteTree(p);
                LIVE.remove(p);
            });
        }

        private static FileAttribute<Set<PosixFilePermission>> owner(String perms) {
            return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(perms));
        }

        Path path() {
            return path;
        }

        Path newFile(String name) throws IOException {
            Path f = path.resolve(name);
            return posix ? Files.createFile(f, owner("rw-------")) : Files.createFile(f);
        }

        /** The bytes of the files now in the directory. */
        long bytes() {
            try (Stream<Path> s = Files.list(path)) {
                return s.mapToLong(f -> f.toFile().length()).sum();
            } catch (IOException e) {
                return 0;
            }
        }

        @Override
        public void close() {
            cleanable.clean();
        }

        private static void deleteTree(Path dir) {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path f : (Iterable<Path>) s::iterator) {
                    Files.deleteIfExists(f);
                }
            } catch (IOException e) {
                // best effort: the directory may be gone already
            }
            try {
                Files.deleteIfExists(dir);
            } catch (IOException e) {
                // best effort
            }
        }
    }

    /** A buffered binary writer. */
    final class Out implements Closeable {
        private final FileChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocate(BUFFER);

        Out(Path file) throws IOException {
            ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        }

        private void room(int n) throws IOException {
            if (buf.remaining() < n) {
                flush();
            }
        }

        void putByte(byte b) throws IOException {
            room(1);
            buf.put(b);
        }

        void putInt(int v) throws IOException {
            room(4);
            buf.putInt(v);
        }

        void putLong(long v) throws IOException {
            room(8);
            buf.putLong(v);
        }

        void putString(String s) throws IOException {
            putInt(s.length());
            for (int i = 0; i < s.length(); i++) {
                room(2);
                buf.putChar(s.charAt(i));
            }
        }

        void putRow(double[] row) throws IOException {
            for (double x : row) {
                room(8);
                buf.putDouble(x);
            }
        }

        private void flush() throws IOException {
            buf.flip();
            written += buf.remaining();
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            buf.clear();
        }

        @Override
        public void close() throws IOException {
            try {
                flush();
            } finally {
                ch.close();
            }
        }
    }

    /** A buffered binary reader. */
    static final class In implements Closeable {
        private final FileChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocate(BUFFER);

        In(Path file) throws IOException {
            ch = FileChannel.open(file, StandardOpenOption.READ);
            buf.limit(0);
        }

        /** Whether n more bytes are there (false at the end; a record cut short is an error). */
        private boolean need(int n) throws IOException {
            while (buf.remaining() < n) {
                buf.compact();
                int r = ch.read(buf);
                buf.flip();
                if (r < 0) {
                    if (buf.remaining() == 0) {
                        return false;
                    }
                    throw new EOFException("a spill file ends inside a record");
                }
            }
            return true;
        }

        private void must(int n) throws IOException {
            if (!need(n)) {
                throw new EOFException("a spill file ends inside a record");
            }
        }

        boolean atEnd() throws IOException {
            return !need(1);
        }

        byte getByte() throws IOException {
            must(1);
            return buf.get();
        }

        int getInt() throws IOException {
            must(4);
            return buf.getInt();
        }

        long getLong() throws IOException {
            must(8);
            return buf.getLong();
        }

        String getString() throws IOException {
            int n = getInt();
            char[] c = new char[n];
            for (int i = 0; i < n; i++) {
                must(2);
                c[i] = buf.getChar();
            }
            return new String(c);
        }

        void getRow(double[] row) throws IOException {
            for (int j = 0; j < row.length; j++) {
                must(8);
                row[j] = buf.getDouble();
            }
        }

        @Override
        public void close() throws IOException {
            ch.close();
        }
    }
}
