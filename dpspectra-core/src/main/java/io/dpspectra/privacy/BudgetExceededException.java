package io.dpspectra.privacy;

/**
 * Thrown before any data is read when a mechanism asks for more budget than remains. The message names
 * the requested, spent and remaining budget and what to do.
 */
public final class BudgetExceededException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final PrivacyParams requested;
    private final PrivacyParams remaining;
    private final PrivacyParams spent;

    public BudgetExceededException(String message, PrivacyParams requested, PrivacyParams remaining) {
        this(message, requested, remaining, null);
    }

    /** With what had been spent before the refused request (null when nothing had been spent). */
    public BudgetExceededException(String message, PrivacyParams requested, PrivacyParams remaining,
                                   PrivacyParams spent) {
        super(message);
        this.requested = requested;
        this.remaining = remaining;
        this.spent = spent;
    }

    /** What had been spent before the refused request, or null when nothing had been spent. */
    public PrivacyParams spent() {
        return spent;
    }

    public PrivacyParams requested() {
        return requested;
    }

    /** What was left, or null when nothing (ε = 0) was left. */
    public PrivacyParams remaining() {
        return remaining;
    }
}
