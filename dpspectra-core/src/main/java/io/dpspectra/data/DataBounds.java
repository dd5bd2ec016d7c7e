package io.dpspectra.data;

import io.dpspectra.privacy.DpPreconditions;

/**
 * A bound on every row, and where it came from. Sensitivities are computed from it, so it must not
 * be derived from the data unless that derivation was itself private.
 *
 * @param norm   which norm is bounded
 * @param bound  the bound (&gt; 0)
 * @param origin where the bound came from
 * @param policy what happens to a row above it
 */
public record DataBounds(Norm norm, double bound, Origin origin, Policy policy) {

    /** The bounded quantity. TRACE bounds tr(xxᵀ) = ‖x‖₂², as the papers' trace clipping does. */
    public enum Norm {
        /** ‖x‖₂. */
        L2,
        /** ‖x‖₁. */
        L1,
        /** tr(xxᵀ) = ‖x‖₂². */
        TRACE
    }

    /** Where a bound came from. */
    public enum Origin {
        /** Chosen by the user from domain knowledge (or a data model), not from the data. */
        USER_GIVEN,
        /** Estimated from the data by a differentially private procedure whose cost was accounted. */
        PRIVATELY_ESTIMATED
    }

    /** What happens to a row over the bound. */
    public enum Policy {
        /** The row is scaled down onto the bound; the count is reported. */
        CLIP,
        /** The row is an error ({@link InvalidDataException}). */
        REJECT
    }

    /**
     * Validates the bound.
     *
     * @param norm   which norm is bounded
     * @param bound  the bound, finite and &gt; 0
     * @param origin where the bound came from
     * @param policy what happens to a row above it
     * @throws IllegalArgumentException when the bound is not finite and positive
     */
    public DataBounds {
        DpPreconditions.checkBound("bound", bound);
    }

    /**
     * The implied bound on the L2 norm of a row (for TRACE, √bound; for L1, the L1 bound itself).
     *
     * @return the L2 bound of a row
     */
    public double l2Bound() {
        return switch (norm) {
            case L2, L1 -> bound;
            case TRACE -> Math.sqrt(bound);
        };
    }
}
