package io.dpspectra.data;

import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.zip.ZipException;

/**
 * Why reading or writing a file failed, in words for the person who named the file: never an exception's
 * class name ("java.io.EOFException") or a decompressor's internals ("ZLIB input stream").
 */
public final class IoErrors {
    private IoErrors() {
    }

    /**
     * What went wrong, in words.
     *
     * @param e the failure of a read or a write
     * @return e.g. "the gzip data end early (the .gz file is truncated)" or "permission denied"
     */
    public static String inWords(IOException e) {
        String m = e.getMessage();
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof EOFException) {
            // GZIPInputStream: an empty file (no message), or compressed data cut short
            return m == null ? "the file ends before its first gzip header (an empty or truncated .gz file)"
                    : "the gzip data end early (the .gz file is truncated)";
        }
        if (e instanceof ZipException) {
            return m != null && m.contains("Not in GZIP format") ? "it is not gzip data although its name ends in .gz"
                    : "its gzip data are corrupt" + (m == null ? "" : " (" + m.toLowerCase(java.util.Locale.ROOT) + ")");
        }
        if (e instanceof CharacterCodingException) {
            return "it is not UTF-8 text";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason().toLowerCase(java.util.Locale.ROOT);
        }
        return m == null || m.isBlank() ? "an input/output error" : m;
    }

    /**
     * As {@link #inWords(IOException)} for a failure of a reading thread.
     *
     * @param t the failure: an I/O error, one caused by an I/O error, or another
     * @return the I/O error in words, or the failure's own message
     */
    public static String inWords(Throwable t) {
        if (t instanceof IOException e) {
            return inWords(e);
        }
        if (t.getCause() instanceof IOException e) {
            return inWords(e);
        }
        return t.getMessage() == null || t.getMessage().isBlank() ? "an input/output error" : t.getMessage();
    }
}
