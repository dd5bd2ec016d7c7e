package io.dpspectra.release;

/**
 * What a front end hears while a release runs, to tell its user: the data's width before any row is read
 * (to refuse a run that cannot fit in memory), one-line notes (what the release decided or does), and
 * warnings. Every method does nothing by default.
 */
public interface ReleaseListener {
    /** A listener that ignores everything. */
    ReleaseListener NONE = new ReleaseListener() {
    };

    /**
     * Called once the data's width is known and before any row is read.
     *
     * @param d the number of features
     */
    default void beforeReading(int d) {
    }

    /**
     * A note for the user (e.g. an extra pass to count the rows).
     *
     * @param message one line
     */
    default void note(String message) {
    }

    /**
     * A warning for the user (e.g. a setting that is not certified private).
     *
     * @param message one line
     */
    default void warning(String message) {
    }
}
