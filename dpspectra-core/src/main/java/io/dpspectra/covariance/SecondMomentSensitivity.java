package io.dpspectra.covariance;

import io.dpspectra.data.DataBounds;
import io.dpspectra.data.RowSource;
import io.dpspectra.privacy.Neighbouring;

/**
 * Sensitivities of the upper triangle (diagonal included) of the second-moment matrix XᵀX for rows
 * with ‖x‖₂ ≤ β: the quantities every input-perturbation mechanism on XᵀX (DP-Gauss-1, the Laplace and
 * Gaussian covariance baselines) calibrates its noise to.
 *
 * <p>Noise is added to the d(d+1)/2 entries on and above the diagonal and mirrored, so the released
 * vector is u(XᵀX) = (XᵀX)_{ij}, i ≤ j, and one row changes it by u(xxᵀ) (add/remove) or
 * u(xxᵀ − yyᵀ) (replace). Derivations (spec robust-local-covariance.md §1.4, with β = 1 there):
 * <ul>
 *   <li><b>L2, add/remove:</b> ‖u(xxᵀ)‖₂ ≤ ‖xxᵀ‖_F = ‖x‖₂² ≤ β² (the upper triangle is a subset of the
 *       entries).</li>
 *   <li><b>L2, replace:</b> ‖u(M)‖₂ ≤ ‖M‖_F for M = xxᵀ − yyᵀ, and
 *       ‖M‖_F² = ‖x‖⁴ + ‖y‖⁴ − 2(xᵀy)² ≤ 2β⁴, so √2·β² (tight for x = βe₁, y = βe₂).</li>
 *   <li><b>L1, add/remove:</b> Σ_{i≤j}|x_i x_j| = ((Σ_i|x_i|)² + ‖x‖₂²)/2 ≤ (d‖x‖₂² + ‖x‖₂²)/2
 *       ≤ (d+1)β²/2 (Cauchy–Schwarz ‖x‖₁² ≤ d‖x‖₂²).</li>
 *   <li><b>L1, replace (tight):</b> Cauchy–Schwarz over the d(d+1)/2 entries with the L2 bound above:
 *       ‖u(M)‖₁ ≤ √(d(d+1)/2)·√2β² = √(d(d+1))·β² (&lt; (d+1)β², the triangle-inequality bound).</li>
 *   <li><b>L1, paper:</b> 2dβ², the constant of Amin et al. ("Lap(2d/6)" in the text is a
 *       text-extraction error for 2d/ε: spec robust-local-covariance.md §5.3 and A-C5). Valid under
 *       both relations (2d ≥ √(d(d+1)) ≥ (d+1)/2) but loose.</li>
 * </ul>
 */
public final class SecondMomentSensitivity {
    private SecondMomentSensitivity() {
    }

    /**
     * The L2 bound β every row of {@code rows} satisfies, from its declared {@link DataBounds}.
     *
     * @param rows      the rows
     * @param algorithm the mechanism's name, for the message
     * @return β, &gt; 0
     * @throws IllegalArgumentException when the source declares no bound (the remedy names clipping)
     */
    public static double rowL2Bound(RowSource rows, String algorithm) {
        DataBounds b = rows.bounds().orElseThrow(() -> new IllegalArgumentException(algorithm
                + " needs rows with a declared norm bound, but " + rows.describe() + " has none; "
                + "clip the rows with rows.clipL2(bound) (or --clip-norm), choosing the bound from domain "
                + "knowledge, never from the data"));
        return b.l2Bound();
    }

    /**
     * L2 sensitivity of the upper triangle of XᵀX: β² (add/remove) or √2·β² (replace).
     *
     * @param rowL2Bound   β, &gt; 0
     * @param neighbouring the relation
     * @return the L2 sensitivity
     */
    public static double l2UpperTriangle(double rowL2Bound, Neighbouring neighbouring) {
        double b2 = rowL2Bound * rowL2Bound;
        return switch (neighbouring) {
            case ADD_REMOVE_ROW -> b2;
            case REPLACE_ROW -> Math.sqrt(2) * b2;
            case MATRIX_ENTRY, SPECTRAL_NORM -> throw rowRelationsOnly(neighbouring);
        };
    }

    /**
     * Tight L1 sensitivity of the upper triangle: (d+1)β²/2 (add/remove) or √(d(d+1))·β² (replace).
     *
     * @param d            the dimension
     * @param rowL2Bound   β, &gt; 0
     * @param neighbouring the relation
     * @return the L1 sensitivity
     */
    public static double l1UpperTriangleTight(int d, double rowL2Bound, Neighbouring neighbouring) {
        double b2 = rowL2Bound * rowL2Bound;
        return switch (neighbouring) {
            case ADD_REMOVE_ROW -> (d + 1) * b2 / 2;
            case REPLACE_ROW -> Math.sqrt((double) d * (d + 1)) * b2;
            case MATRIX_ENTRY, SPECTRAL_NORM -> throw rowRelationsOnly(neighbouring);
        };
    }

    /**
     * The paper's L1 sensitivity 2dβ² (Amin et al., corrected; valid under both relations).
     *
     * @param d          the dimension
     * @param rowL2Bound β, &gt; 0
     * @return 2dβ²
     */
    public static double l1UpperTrianglePaper(int d, double rowL2Bound) {
        return 2.0 * d * rowL2Bound * rowL2Bound;
    }

    private static IllegalArgumentException rowRelationsOnly(Neighbouring n) {
        return new IllegalArgumentException("neighbouring relation " + n + " is a matrix relation; second-moment "
                + "releases are calibrated for ADD_REMOVE_ROW or REPLACE_ROW");
    }
}
