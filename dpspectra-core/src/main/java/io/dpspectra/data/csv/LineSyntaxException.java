package io.dpspectra.data.csv;

/** A line that cannot be split into cells (unclosed quote, text after a quote); the message says why. */
final class LineSyntaxException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LineSyntaxException(String message) {
        super(message);
    }
}
