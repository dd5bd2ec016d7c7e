package io.dpspectra.release;

/**
 * A setting of a release that cannot be honoured, found before any data is read (or, for a setting that
 * depends on the data's public shape, before any noise is drawn): the message names the setting as the
 * user gave it (through a {@link Vocabulary}) and the value seen, and {@link #hint()} says what to do.
 * An {@link IllegalArgumentException}, so that callers that treat bad arguments alike need not know it.
 */
public final class ReleaseSettingException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** What the user can do instead, or null. */
    private final String hint;

    /**
     * @param message what is wrong, naming the setting as the user gave it and the value seen
     * @param hint    what the user can do instead, or null
     */
    public ReleaseSettingException(String message, String hint) {
        super(message);
        this.hint = hint;
    }

    /**
     * What the user can do instead, or null.
     *
     * @return the hint, or null
     */
    public String hint() {
        return hint;
    }
}
