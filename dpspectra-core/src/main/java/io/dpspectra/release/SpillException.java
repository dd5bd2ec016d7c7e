package io.dpspectra.release;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Grouping by a {@linkplain PrivacyUnit privacy unit} column could not write or read its spill files (a full disk,
 * a directory that went away): nothing is released. The message names the directory and the problem.
 */
public final class SpillException extends UncheckedIOException {
    private static final long serialVersionUID = 1L;
    private final transient Path directory;

    /**
     * A failure in {@code directory}.
     *
     * @param message   what failed, naming the directory
     * @param directory the spill directory (the one given, not the private directory inside it)
     * @param cause     the I/O error
     */
    public SpillException(String message, Path directory, IOException cause) {
        super(message, cause);
        this.directory = directory;
    }

    /**
     * The spill directory that failed.
     *
     * @return the directory
     */
    public Path directory() {
        return directory;
    }

    /** An I/O error in words: its reason (e.g. "No space left on device"), else its message, else its kind. */
    static String inWords(Exception e) {
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
