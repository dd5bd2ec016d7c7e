package io.dpspectra.release;

import java.util.Locale;

/**
 * What one neighbour changes, as a {@link StatisticSource} sums it: one row of the input ({@link #ROW}), or all the
 * rows of one person, named by a column ({@link #column}) that is used for grouping only, never as a feature.
 *
 * <p><b>Contribution bounding per person.</b> Of each person's rows at most M ({@code maxRowsPerUnit}) are kept
 * (chosen uniformly at random, or the first M in file order), and each kept row is clipped to L2 norm B/√M, where
 * B is the release's bound. The person's contribution to the second moment, P = Σ_r x_r x_rᵀ over their kept
 * rows, is then positive semi-definite with ‖P‖_F ≤ tr P = Σ_r ‖x_r‖² ≤ M·B²/M = B², exactly the bound that one
 * row of norm ≤ B has (‖xxᵀ‖_F = ‖x‖² ≤ B²). Every Gram-based mechanism's sensitivity derivation uses no more than
 * this (a PSD contribution of trace ≤ B²), so it carries over with B as the bound:
 * <ul>
 *   <li>L2, add/remove one person: ‖P‖_F ≤ B²;</li>
 *   <li>L2, replace one person by another: ‖P − P'‖_F² = ‖P‖_F² + ‖P'‖_F² − 2⟨P, P'⟩ ≤ 2B⁴ (⟨P, P'⟩ ≥ 0 for PSD
 *       matrices), so √2·B², as for one row;</li>
 *   <li>L1 of the upper triangle, add/remove: Σ_{i≤j}|P_ij| ≤ Σ_r (d+1)‖x_r‖²/2 ≤ (d+1)B²/2 (triangle inequality
 *       over the person's rows, then the one-row bound); replace: Cauchy–Schwarz from √2·B²;</li>
 *   <li>the trace and the spectrum: adding P raises every eigenvalue (Weyl) by a total of tr P ≤ B²; a quadratic
 *       form uᵀPu ≤ ‖P‖₂ ≤ B² (the sampling mechanisms' utilities).</li>
 * </ul>
 * The selection of the kept rows depends on the person's own rows only, so the bound holds whichever rows are kept
 * (the randomness serves accuracy, not privacy). What add/remove protects is then one person: the count that a
 * neighbour changes by one is the number of persons, not of rows.
 *
 * @param idColumn       the column naming the unit, or null for one row
 * @param maxRowsPerUnit M, the most rows kept per unit (1 for one row)
 * @param selection      which rows are kept when a unit has more than M
 * @serial exclude
 */
public record PrivacyUnit(String idColumn, int maxRowsPerUnit, Selection selection) implements java.io.Serializable {
    /** One row of the input. */
    public static final PrivacyUnit ROW = new PrivacyUnit(null, 1, Selection.FIRST);

    /** Which of a person's rows are kept when they have more than M. */
    public enum Selection {
        /** M of the person's rows uniformly at random (reservoir sampling with the release's random source). */
        RANDOM,
        /** The person's first M rows in file order (a public order: the file's). */
        FIRST
    }

    /**
     * Checks the fields.
     *
     * @param idColumn       the column, or null
     * @param maxRowsPerUnit M
     * @param selection      the selection
     * @throws IllegalArgumentException for a blank column, M below 1, or M other than 1 for one row
     */
    public PrivacyUnit {
        java.util.Objects.requireNonNull(selection, "selection");
        if (idColumn != null && idColumn.isBlank()) {
            throw new IllegalArgumentException("the privacy unit's column must be named, got '" + idColumn + "'");
        }
        if (maxRowsPerUnit < 1) {
            throw new IllegalArgumentException("at least one row per privacy unit must be kept, got "
                    + maxRowsPerUnit);
        }
        if (idColumn == null && maxRowsPerUnit != 1) {
            throw new IllegalArgumentException("one row as the unit keeps one row per unit, got " + maxRowsPerUnit);
        }
    }

    /**
     * All rows with one value of {@code idColumn} as the unit, at most {@code maxRowsPerUnit} of them kept, chosen
     * uniformly at random.
     *
     * @param idColumn       the column naming the person (by its header name)
     * @param maxRowsPerUnit M ≥ 1
     * @return the unit
     */
    public static PrivacyUnit column(String idColumn, int maxRowsPerUnit) {
        java.util.Objects.requireNonNull(idColumn, "idColumn");
        return new PrivacyUnit(idColumn, maxRowsPerUnit, Selection.RANDOM);
    }

    /**
     * The same unit, keeping each person's first M rows in file order instead of M at random.
     *
     * @return the unit
     */
    public PrivacyUnit firstRows() {
        return new PrivacyUnit(idColumn, maxRowsPerUnit, Selection.FIRST);
    }

    /**
     * Whether the unit is one row.
     *
     * @return true for {@link #ROW}
     */
    public boolean isRow() {
        return idColumn == null;
    }

    /**
     * The bound each kept row is clipped to, so that a unit's second moment is bounded like one row's of norm
     * {@code unitBound}: unitBound/√M.
     *
     * @param unitBound B
     * @return B/√M
     */
    public double rowBound(double unitBound) {
        return unitBound / Math.sqrt(maxRowsPerUnit);
    }

    /**
     * The unit as the guarantee states it, for a release calibrated to {@code bound}.
     *
     * @param bound B, the bound the estimator is calibrated to
     * @return e.g. "all rows of one value of column 'customer' (one person: at most 50 rows kept, each clipped to
     *         B/√M = ...)"
     */
    public String describe(double bound) {
        if (isRow()) {
            return "one row with L2 norm <= " + bound;
        }
        return String.format(Locale.ROOT, "one person: all rows with one value of column '%s' (at most %d rows kept "
                + "per person, %s; each clipped to L2 norm B/sqrt(%d) = %.6g, so the person's sum of outer products has "
                + "Frobenius norm <= B^2 = %.6g with B = %.6g; add/remove and replace-one act on persons)", idColumn,
                maxRowsPerUnit, selection == Selection.RANDOM ? "chosen uniformly at random" : "the first in file order",
                maxRowsPerUnit, rowBound(bound), bound * bound, bound);
    }

    @Override
    public String toString() {
        return isRow() ? "one row" : "all rows with one value of column '" + idColumn + "' (at most "
                + maxRowsPerUnit + " kept)";
    }
}
