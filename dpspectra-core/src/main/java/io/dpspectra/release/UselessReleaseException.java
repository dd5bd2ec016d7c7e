package io.dpspectra.release;

/**
 * A release refused before it spent anything, because the advisor predicts it useless and the caller asked for
 * a refusal ({@link Usefulness#refuse()}): no noise was drawn, nothing is released, and the budget is untouched.
 * The message says why from public facts (n, d, k, ε, δ, the bound) and what would work.
 */
public final class UselessReleaseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What the user can do instead. */
    private final String hint;

    UselessReleaseException(String message, String hint) {
        super(message);
        this.hint = hint;
    }

    /**
     * What the user can do instead.
     *
     * @return the hint
     */
    public String hint() {
        return hint;
    }
}
