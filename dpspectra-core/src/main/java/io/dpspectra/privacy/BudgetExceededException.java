package io.dpspectra.privacy;

/** Thrown before any data is read when a mechanism asks for more budget than remains. */
public final class BudgetExceededException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final PrivacyParams requested;
    private final PrivacyParams remaining;

    public BudgetExceededException(String message, PrivacyParams requested, PrivacyParams remaining) {
        super(message);
        this.requested = requested;
        this.remaining = remaining;
    }

    public PrivacyParams requested() {
        return requested;
    }

    /** What was left, or null when nothing (ε = 0) was left. */
    public PrivacyParams remaining() {
        return remaining;
    }
}
