package io.dpspectra.privacy;

import io.dpspectra.Diagnostics;
import java.util.Objects;

/**
 * A mechanism's documented refusal to release, not a bug: for example DP-Gauss-2 when its private
 * eigengap test fails (Dwork et al. 2014, Algorithm 2). The test itself is differentially private and
 * its outcome may be published; the budget handed to the mechanism counts as spent even though nothing
 * but the refusal was released.
 */
public final class ReleaseRefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient PrivacyGuarantee spent;
    private final transient Diagnostics diagnostics;
    /** What the user can do instead, or null. */
    private final String hint;

    /**
     * @param reason      why, in the user's words (e.g. "the noisy eigengap is below the threshold")
     * @param hint        what the user can do (more rows, a larger epsilon, another algorithm)
     * @param spent       the guarantee of what was spent: the refusal satisfies it
     * @param diagnostics run facts (not private)
     */
    public ReleaseRefusedException(String reason, String hint, PrivacyGuarantee spent, Diagnostics diagnostics) {
        super(Objects.requireNonNull(reason, "reason"));
        this.hint = hint;
        this.spent = Objects.requireNonNull(spent, "spent");
        this.diagnostics = diagnostics == null ? Diagnostics.empty() : diagnostics;
    }

    /**
     * What was spent; the refusal (the only output) satisfies this guarantee.
     *
     * @return the guarantee of the refusal
     */
    public PrivacyGuarantee spent() {
        return spent;
    }

    /**
     * Facts about the run up to the refusal (not private: see {@link Diagnostics}).
     *
     * @return the diagnostics, possibly empty
     */
    public Diagnostics diagnostics() {
        return diagnostics;
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
