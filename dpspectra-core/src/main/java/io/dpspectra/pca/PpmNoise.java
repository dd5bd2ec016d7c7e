package io.dpspectra.pca;

/**
 * The noise variants of the private power method (spec stochastic-and-power-methods.md §3.3 table), each
 * with the neighbouring relation it is calibrated for. s is the builder's sensitivity scale (default 1),
 * σ = ε⁻¹√(4pL ln(1/δ)).
 */
public enum PpmNoise {
    /**
     * Fig. 3 / Def. 4.1: G_ℓ ~ N(0, (s·‖X_{ℓ−1}‖∞·σ)²)^{d×p}; (ε, δ)-DP when A and A' differ in one entry by
     * at most s (Claim 4.2). The default for explicit matrices.
     */
    ENTRY_LEVEL_GAUSSIAN,
    /** Def. 4.4, Lemma 4.5: G_ℓ ~ N(0, (s·σ)²)^{d×p}; (ε, δ)-DP when ‖A − A'‖₂ ≤ s. */
    SPECTRAL_GAUSSIAN,
    /**
     * Lemma 4.5 (Laplace part), Cor. 4.7: G_ℓ ~ Lap(s·10pL√d/ε)^{d×p}; pure (ε, 0)-DP when ‖A − A'‖₂ ≤ s
     * (the paper's statement of Cor. 4.7 says (ε, δ) by mistake; spec §8 #31).
     */
    SPECTRAL_LAPLACE,
    /**
     * The noise of {@link #ENTRY_LEVEL_GAUSSIAN} certified for the wider relation of Nicolas et al.
     * (used by the DP-Power-Method baseline of [DS]): √(Σ_a ‖(A − A')_a‖₁²) ≤ s over the rows a of A − A',
     * under which each column of (A − A')x has L2 norm ≤ s‖x‖∞. A single entry change by ≤ s is a special case.
     */
    ROW_L1_GAUSSIAN
}
