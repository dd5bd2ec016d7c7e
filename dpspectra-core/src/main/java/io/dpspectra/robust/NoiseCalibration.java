package io.dpspectra.robust;

/** How the Gaussian noise of each step of a robust-PCA descent is set. */
public enum NoiseCalibration {
    /** No noise: not private (GGD, SGGD, non-private REAPER descents). */
    NONE,
    /** A fixed σ given by the caller (NGGD, NSGGD as optimisers): not private. */
    FIXED_SIGMA,
    /** Full batch, zCDP composition over the T steps: the default of the full-batch private methods. */
    ZCDP,
    /** Poisson minibatches, Rényi accountant: the default of the minibatch private methods. */
    RDP_POISSON,
    /**
     * The paper's printed noise variances (Theorem 6; Appendix A), with the caller's constant: for reproduction
     * only. Results carry no guarantee and a warning (the minibatch level is not private as printed).
     */
    PAPER_LITERAL;

    /**
     * True for the calibrations that carry a privacy guarantee.
     *
     * @return true for {@link #ZCDP} and {@link #RDP_POISSON}
     */
    public boolean isPrivate() {
        return this == ZCDP || this == RDP_POISSON;
    }
}
