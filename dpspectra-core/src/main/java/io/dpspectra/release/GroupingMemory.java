package io.dpspectra.release;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * How much memory grouping rows by a {@linkplain PrivacyUnit privacy unit} column may hold, and where it spills
 * beyond that ({@link UnitStatistics}). Within {@link #bytes} the kept rows (at most M per person) are grouped in
 * memory; beyond it the grouping sorts the rows by person into temporary files in a private directory under
 * {@link #spillDirectory} (owner-only permissions where the file system has them, deleted after the release, on
 * every error, and at the JVM's exit at the latest) and reads the persons back from there. The release is the same,
 * bit for bit, either way: only where the rows are held changes.
 *
 * <p>The spill files hold the data's raw values (the kept rows, and while sorting every row with its person's id):
 * put them on a disk as trusted as the input's.
 *
 * @param bytes          the memory the grouping may hold, at least 1 ({@link #bytesPerRow} per kept row of width d,
 *                       plus each person's id)
 * @param spillDirectory the directory in which the spill directory is created
 */
public record GroupingMemory(long bytes, Path spillDirectory) {
    /**
     * The system property that sets the default {@link #bytes} (a number of bytes, optionally followed by k, m or g),
     * instead of a quarter of the JVM's maximum heap: e.g. {@code -Ddpspectra.groupingMemory=64m}.
     */
    public static final String PROPERTY = "dpspectra.groupingMemory";

    /**
     * Checks the fields.
     *
     * @param bytes          the memory, at least 1
     * @param spillDirectory the directory of the spill files
     */
    public GroupingMemory {
        if (bytes < 1) {
            throw new IllegalArgumentException("the grouping's memory must be at least 1 byte, got " + bytes);
        }
        Objects.requireNonNull(spillDirectory, "spillDirectory");
    }

    /**
     * The default: a quarter of the JVM's maximum heap (or {@link #PROPERTY}), spilling to the JVM's temporary
     * directory ({@code java.io.tmpdir}).
     *
     * @return the default
     */
    public static GroupingMemory defaults() {
        return new GroupingMemory(defaultBytes(), Path.of(System.getProperty("java.io.tmpdir")));
    }

    /**
     * The same memory, spilling to {@code directory}.
     *
     * @param directory the directory of the spill files
     * @return the setting
     */
    public GroupingMemory spillingTo(Path directory) {
        return new GroupingMemory(bytes, directory);
    }

    /**
     * {@link #PROPERTY} when set, else a quarter of the JVM's maximum heap.
     *
     * @return the bytes
     * @throws IllegalArgumentException when the property is not a positive size
     */
    public static long defaultBytes() {
        String p = System.getProperty(PROPERTY);
        if (p == null || p.isBlank()) {
            return Math.max(1, Runtime.getRuntime().maxMemory() / 4);
        }
        String s = p.trim().toLowerCase(Locale.ROOT);
        long unit = s.endsWith("k") ? 1L << 10 : s.endsWith("m") ? 1L << 20 : s.endsWith("g") ? 1L << 30 : 1;
        try {
            long n = Long.parseLong(unit == 1 ? s : s.substring(0, s.length() - 1));
            if (n >= 1) {
                return Math.multiplyExact(n, unit);
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // refused below
        }
        throw new IllegalArgumentException("-D" + PROPERTY + "=" + p + " is not a positive size; e.g. -D" + PROPERTY
                + "=512m");
    }

    /**
     * The bytes one kept row of width d is counted for: its 8·d bytes and the array's and list's overhead.
     *
     * @param d the width
     * @return the bytes
     */
    public static long bytesPerRow(int d) {
        return 8L * d + 64;
    }

    /**
     * The kept rows of width d that fit in {@link #bytes} (fewer when the persons' ids are long).
     *
     * @param d the width
     * @return the rows, at least 1
     */
    public long rowsInMemory(int d) {
        return Math.max(1, bytes / bytesPerRow(d));
    }

    /**
     * What the grouping will hold, in words, for the user before anything is read: e.g. "up to 1234 kept rows of 20
     * values (274.2 KiB) in memory; beyond that sorted and spilled to /tmp (...)".
     *
     * @param d the width
     * @return the sentence
     */
    public String describe(int d) {
        return String.format(Locale.ROOT, "up to %d kept rows of %d values (%s) in memory; beyond that sorted "
                + "and spilled to %s (owner-only files, deleted after the run)", rowsInMemory(d), d, size(bytes),
                spillDirectory);
    }

    /**
     * A number of bytes for people: "3.5 GiB", "512.0 MiB", "2.0 KiB", "700 bytes".
     *
     * @param bytes the bytes
     * @return the size in words
     */
    public static String size(long bytes) {
        if (bytes >= 1L << 30) {
            return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
        }
        if (bytes >= 1L << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
        }
        return bytes >= 1L << 10 ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0) : bytes + " bytes";
    }

    /**
     * Why {@link #spillDirectory} cannot hold the spill files, or null when it can: checked by creating and deleting
     * an empty file there, before any row is read, whether or not the grouping will spill (so that the check does
     * not depend on the data).
     *
     * @return the problem in words, or null
     */
    public String problem() {
        if (!Files.exists(spillDirectory)) {
            return spillDirectory + " does not exist";
        }
        if (!Files.isDirectory(spillDirectory)) {
            return spillDirectory + " is not a directory";
        }
        try {
            Path probe = Files.createTempFile(spillDirectory, ".dpspectra-probe-", ".tmp");
            Files.delete(probe);
            return null;
        } catch (IOException | SecurityException e) {
            return spillDirectory + " is not writable (" + SpillException.inWords(e) + ")";
        }
    }
}
