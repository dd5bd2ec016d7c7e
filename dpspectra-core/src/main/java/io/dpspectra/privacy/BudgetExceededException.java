package io.dpspectra.privacy;

/**
 * Thrown before any data is read when a mechanism asks for more budget than remains. The message names
 * the requested, spent and remaining budget and what to do.
 */
public final class BudgetExceededException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The budget the refused request asked for. */
    private final PrivacyParams requested;
    /** What was left when the request was refused, or null when nothing was left. */
    private final PrivacyParams remaining;
    /** What had been spent before the refused request, or null when nothing had been spent. */
    private final PrivacyParams spent;

    /**
     * A refusal before anything was spent.
     *
     * @param message   what was refused and what to do, for people
     * @param requested the budget asked for
     * @param remaining what was left, or null when nothing was left
     */
    public BudgetExceededException(String message, PrivacyParams requested, PrivacyParams remaining) {
        this(message, requested, remaining, null);
    }

    /**
     * With what had been spent before the refused request (null when nothing had been spent).
     *
     * @param message   what was refused and what to do, for people
     * @param requested the budget asked for
     * @param remaining what was left, or null when nothing was left
     * @param spent     what had been spent, or null
     */
    public BudgetExceededException(String message, PrivacyParams requested, PrivacyParams remaining,
                                   PrivacyParams spent) {
        super(message);
        this.requested = requested;
        this.remaining = remaining;
        this.spent = spent;
    }

    /**
     * What had been spent before the refused request, or null when nothing had been spent.
     *
     * @return the spent budget, or null
     */
    public PrivacyParams spent() {
        return spent;
    }

    /**
     * The budget the refused request asked for.
     *
     * @return the requested budget
     */
    public PrivacyParams requested() {
        return requested;
    }

    /**
     * What was left, or null when nothing (ε = 0) was left.
     *
     * @return the remaining budget, or null
     */
    public PrivacyParams remaining() {
        return remaining;
    }
}
