package io.dpspectra.robust;

/** How the Gaussian noise of each step of a robust-PCA descent is set. */
public enum NoiseCalibration {
    /** No noise: not private (GGD, SGGD, non-private REAPER descents). */
    NONE,
    /** A fixed σ given by the caller (NGGD, NSGGD as optimisers): not private. */
    FIXED_SIGMA,
    /**
     * Privacy loss distributions, the default of every private preset: full batch — the T Gaussian steps compose
     * exactly (GDP, σ = Δ√T/μ*); Poisson minibatches — the T-step subsampled Gaussian PLD, replace-one accounted
     * exactly (io.dpspectra.privacy.pld.PldCalibration).
     */
    PLD,
    /** Full batch, zCDP composition over the T steps (looser than {@link #PLD}; kept for comparison). */
    ZCDP,
    /**
     * Poisson minibatches, Rényi accountant with group privacy for replace-one (looser than {@link #PLD}; kept for
     * the robust-PCA reproduction, whose committed runs used it).
     */
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
        return this == ZCDP || this == RDP_POISSON || this == PLD;
    }
}
