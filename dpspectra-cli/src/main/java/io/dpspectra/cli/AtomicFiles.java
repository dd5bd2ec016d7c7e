package io.dpspectra.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Writes a file atomically: the content goes to a temporary file in the target's directory, which is
 * renamed onto the target only after the writer succeeded. On any failure the temporary file is
 * deleted and the target is left as it was (absent, or its previous content).
 */
final class AtomicFiles {

    /** Writes the content of a file. */
    @FunctionalInterface
    interface Writer {
        void writeTo(OutputStream out) throws IOException;
    }

    private AtomicFiles() {
    }

    /** Checks that {@code target}'s directory exists and is writable; a usage error (exit 2) otherwise. */
    static Path checkWritableTarget(Path target, String option) {
        Path absolute = target.toAbsolutePath().normalize();
        Path dir = absolute.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw CliException.usage(option + " " + target + ": directory " + dir + " does not exist",
                    "create the directory first or choose another " + option);
        }
        if (Files.isDirectory(absolute)) {
            throw CliException.usage(option + " " + target + " is a directory", "give a file name");
        }
        if (!Files.isWritable(dir)) {
            throw CliException.usage(option + " " + target + ": directory " + dir + " is not writable",
                    "choose another " + option);
        }
        return absolute;
    }

    /**
     * Temporary files are created owner-only; give the result the target's existing permissions, or
     * rw-r--r-- (a common umask default) for a new file, where the file system has POSIX permissions.
     */
    static void setPermissionsLikeTarget(Path tmp, Path target) {
        try {
            if (!Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
                return;
            }
            Set<PosixFilePermission> perms = Files.exists(target) ? Files.getPosixFilePermissions(target)
                    : PosixFilePermissions.fromString("rw-r--r--");
            Files.setPosixFilePermissions(tmp, perms);
        } catch (IOException | UnsupportedOperationException e) {
            // keep the temporary file's owner-only permissions
        }
    }

    /** Writes {@code target} atomically with {@code writer}. */
    static void write(Path target, Writer writer) throws IOException {
        writeAll(List.of(target), List.of(writer));
    }

    /**
     * Writes several files together: every content goes to its temporary file first, and the files are
     * renamed onto their targets only once all were written, so a failure leaves none of them behind.
     */
    static void writeAll(List<Path> targets, List<Writer> writers) throws IOException {
        List<Path> absolutes = new ArrayList<>();
        List<Path> tmps = new ArrayList<>();
        int moved = 0;
        try {
            for (int i = 0; i < targets.size(); i++) {
                Path absolute = targets.get(i).toAbsolutePath().normalize();
                Path tmp = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName() + ".", ".tmp");
                absolutes.add(absolute);
                tmps.add(tmp);
                setPermissionsLikeTarget(tmp, absolute);
                try (OutputStream out = Files.newOutputStream(tmp)) {
                    writers.get(i).writeTo(out);
                }
            }
            for (; moved < tmps.size(); moved++) {
                try {
                    Files.move(tmps.get(moved), absolutes.get(moved), StandardCopyOption.REPLACE_EXISTING,
                            StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmps.get(moved), absolutes.get(moved), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } finally {
            for (int i = moved; i < tmps.size(); i++) {
                Files.deleteIfExists(tmps.get(i));
            }
        }
    }

    /**
     * True if {@code a} and {@code b} are the same file: by file identity when both exist (symlinks, hard
     * links, {@code ./x} vs {@code x}), otherwise by their normalised real paths.
     */
    static boolean sameFile(Path a, Path b) {
        try {
            if (Files.exists(a) && Files.exists(b)) {
                return Files.isSameFile(a, b);
            }
            return resolved(a).equals(resolved(b));
        } catch (IOException e) {
            return false;
        }
    }

    /** The absolute path with its existing parent directory's symlinks resolved (the file may not exist). */
    private static Path resolved(Path p) throws IOException {
        Path abs = p.toAbsolutePath().normalize();
        Path parent = abs.getParent();
        return parent != null && Files.exists(parent) ? parent.toRealPath().resolve(abs.getFileName()) : abs;
    }
}
