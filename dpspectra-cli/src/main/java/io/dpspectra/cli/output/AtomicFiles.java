package io.dpspectra.cli.output;

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
public final class AtomicFiles {

    /** Writes the content of a file. */
    @FunctionalInterface
    public interface Writer {
        void writeTo(OutputStream out) throws IOException;
    }

    private AtomicFiles() {
    }

    /** Checks that {@code target}'s directory exists and is writable; a usage error (exit 2) otherwise. */
    public static Path checkWritableTarget(Path target, String option) {
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
        // the real test: create (and delete) a temporary file where the result will be written
        try {
            Files.delete(Files.createTempFile(dir, "." + absolute.getFileName() + ".", ".tmp"));
        } catch (IOException | RuntimeException e) {
            throw CliException.usage("cannot write " + option + " " + target + ": " + reason(e),
                    "choose another " + option + " in a directory you can write to");
        }
        return absolute;
    }

    /** Why a file operation failed, in words (not an exception class or a temporary file's name). */
    static String reason(Exception e) {
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() == null ? "an I/O error" : e.getMessage();
    }

    /**
     * Refuses (exit 2, before anything is read) an output {@code target} that is the same file as
     * {@code input} — compared by file identity, so a symlink, a hard link or {@code ./x} vs {@code x} are
     * caught — since writing it would destroy the input (a model may have cost privacy budget).
     *
     * @param option the output's option as the user typed it, e.g. "--output"
     * @param what   the input in the user's words, e.g. "the input file" or "the --model file"
     */
    public static void checkNotAnInput(Path target, String option, Path input, String what) {
        if (target != null && input != null && sameFile(target, input)) {
            throw CliException.usage(option + " " + target + " is " + what + " (" + input + "): writing it would "
                    + "destroy it", "choose another " + option + " (nothing was read or written)");
        }
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
    public static void write(Path target, Writer writer) throws IOException {
        writeAll(List.of(target), List.of(writer));
    }

    /**
     * Writes several files together: every content goes to its temporary file first, and the files are
     * renamed onto their targets only once all were written, so a failure leaves none of them behind.
     */
    public static void writeAll(List<Path> targets, List<Writer> writers) throws IOException {
        List<Path> absolutes = new ArrayList<>();
        List<Path> tmps = new ArrayList<>();
        int moved = 0;
        try {
            for (int i = 0; i < targets.size(); i++) {
                Path absolute = targets.get(i).toAbsolutePath().normalize();
                Path tmp;
                try {
                    tmp = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName() + ".", ".tmp");
                } catch (IOException e) {
                    throw CliException.usage("cannot write " + targets.get(i) + ": " + reason(e),
                            "choose a file in a directory you can write to");
                }
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
    public static boolean sameFile(Path a, Path b) {
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
