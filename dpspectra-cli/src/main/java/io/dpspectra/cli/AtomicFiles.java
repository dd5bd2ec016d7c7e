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
        Path absolute = target.toAbsolutePath().normalize();
        Path dir = absolute.getParent();
        Path tmp = Files.createTempFile(dir, "." + absolute.getFileName() + ".", ".tmp");
        boolean moved = false;
        setPermissionsLikeTarget(tmp, absolute);
        try {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                writer.writeTo(out);
            }
            try {
                Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING);
            }
            moved = true;
        } finally {
            if (!moved) {
                Files.deleteIfExists(tmp);
            }
        }
    }
}
