package io.dpspectra.data;

/**
 * Bad input data: a malformed, non-finite or missing cell, a ragged row, a row over a declared norm
 * bound, or empty data. The message names the source, line and column where known, and what to do.
 *
 * <p>Privacy note: an error that depends on one record discloses something about it. Validate data
 * (or clip rather than reject) before a private release, not inside one.
 */
public final class InvalidDataException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What the user can do, or null. */
    private final String hint;

    /**
     * Bad data, described for people.
     *
     * @param message what is wrong, where and what to do
     */
    public InvalidDataException(String message) {
        super(message);
        this.hint = null;
    }

    /**
     * Bad data, with what the user can do about it.
     *
     * @param message what is wrong and where
     * @param hint    what to do, e.g. "provide at least one row"
     */
    public InvalidDataException(String message, String hint) {
        super(message);
        this.hint = hint;
    }

    /**
     * Bad data, with the error that revealed it.
     *
     * @param message what is wrong, where and what to do
     * @param cause   the underlying error
     */
    public InvalidDataException(String message, Throwable cause) {
        super(message, cause);
        this.hint = null;
    }

    /**
     * Bad data found elsewhere (for example in a cluster's task), raised again here with its words and its hint.
     *
     * @param found the exception that described the data
     * @param cause the error that carried it here (a failed job, say)
     */
    public InvalidDataException(InvalidDataException found, Throwable cause) {
        super(found.getMessage(), cause);
        this.hint = found.hint();
    }

    /**
     * A row whose privacy unit column is empty: the id of no person. The same words wherever rows are grouped by a
     * person (on this machine or on a cluster's executors).
     *
     * @param where  the row's place, e.g. "visits.csv, line 12"
     * @param column the privacy unit column
     * @return the exception
     */
    public static InvalidDataException emptyUnitId(String where, String column) {
        return new InvalidDataException(where + ": the privacy unit column '" + column + "' is empty",
                "give every row the id of its person");
    }

    /**
     * What the user can do, when the thrower said so.
     *
     * @return the hint, or null
     */
    public String hint() {
        return hint;
    }
}
