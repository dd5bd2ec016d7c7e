package io.dpspectra.release;

import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;

/**
 * What one neighbour changes, as a {@link StatisticSource} sums it: one row of the input ({@link #ROW}), or all the
 * rows of one person, named by a column ({@link #column}) that is used for grouping only, never as a feature.
 *
 * <p><b>Contribution bounding per person.</b> Of each person's rows at most M ({@code maxRowsPerUnit}) are kept
 * (chosen uniformly at random, or the first M in file order), and the person's contribution to the second moment,
 * P = Σ_r x_r x_rᵀ over their kept rows, is bounded in one of two ways ({@link ContributionBound}), B being the
 * release's bound:
 * <ul>
 *   <li>{@link ContributionBound#ROWS} (the default): each kept row is clipped to L2 norm B/√M. P is then positive
 *       semi-definite with ‖P‖_F ≤ ‖P‖_* = tr P = Σ_r ‖x_r‖² ≤ M·B²/M = B², exactly the bound that one row of norm
 *       ≤ B has (‖xxᵀ‖_F = tr xxᵀ = ‖x‖² ≤ B²): the trace, the operator and the Frobenius norm are all bounded.</li>
 *   <li>{@link ContributionBound#FROBENIUS}: each kept row is clipped to L2 norm B/M^{1/4}, then all of the person's
 *       rows are scaled by s = √min(1, B²/‖P‖_F). Scaling the rows by s scales P by s², so afterwards
 *       ‖P‖_F = min(‖P‖_F, B²) ≤ B²; P stays positive semi-definite. Only the Frobenius norm is bounded by B²: the
 *       trace may reach √M·B² (M orthogonal rows of norm B/M^{1/4}: ‖P‖_F = √(M·B⁴/M) = B², tr P = √M·B²). Rows
 *       that point one way (x_r = x) get P = M·xxᵀ, ‖P‖_F = tr P, so the scale brings each row to norm B/√M, as
 *       {@code ROWS} does; rows that point in orthogonal directions keep √M times the squared norm {@code ROWS}
 *       leaves them. ‖P‖_F² = Σ_{r,s} (x_r·x_s)² costs O(M²d) per person.</li>
 * </ul>
 * The scale depends on the person's own rows only, so either way the bounding is a per-unit map of one person's
 * rows, and the selection of the kept rows depends on the person's own rows only too: the bound holds whichever rows
 * are kept (the randomness serves accuracy, not privacy). The sensitivities that follow, with B as the bound:
 * <ul>
 *   <li>L2 of the upper triangle, add/remove one person (both modes): ‖P‖_F ≤ B²;</li>
 *   <li>L2, replace one person by another (both modes): ‖P − P'‖_F² = ‖P‖_F² + ‖P'‖_F² − 2⟨P, P'⟩ ≤ 2B⁴
 *       (⟨P, P'⟩ = tr PP' ≥ 0 for PSD matrices), so √2·B², as for one row;</li>
 *   <li>{@code ROWS} only: L1 of the upper triangle, add/remove: Σ_{i≤j}|P_ij| ≤ Σ_r (d+1)‖x_r‖²/2 ≤ (d+1)B²/2
 *       (triangle inequality over the person's rows, then the one-row bound); replace: Cauchy–Schwarz from
 *       √2·B²;</li>
 *   <li>{@code ROWS} only: the trace and the spectrum: adding P raises every eigenvalue (Weyl) by a total of
 *       tr P ≤ B²; a quadratic form uᵀPu ≤ ‖P‖₂ ≤ B² (the sampling mechanisms' utilities).</li>
 * </ul>
 * So {@code FROBENIUS} serves only the mechanisms calibrated to the Frobenius (L2) sensitivity of the Gram; those
 * that need a trace, operator or L1 bound refuse it by name. What add/remove protects is one person: the count that a
 * neighbour changes by one is the number of persons, not of rows. Serializable, so that a cluster ships it to where
 * the rows are.
 *
 * @param idColumn          the column naming the unit, or null for one row
 * @param maxRowsPerUnit    M, the most rows kept per unit (1 for one row)
 * @param selection         which rows are kept when a unit has more than M
 * @param contributionBound how a unit's kept rows are bounded ({@link ContributionBound#ROWS} for one row)
 * @serial exclude
 */
public record PrivacyUnit(String idColumn, int maxRowsPerUnit, Selection selection,
                          ContributionBound contributionBound) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** One row of the input. */
    public static final PrivacyUnit ROW = new PrivacyUnit(null, 1, Selection.FIRST);

    /** Which of a person's rows are kept when they have more than M. */
    public enum Selection {
        /** M of the person's rows uniformly at random (reservoir sampling with the release's random source). */
        RANDOM,
        /** The person's first M rows in file order (a public order: the file's). */
        FIRST
    }

    /** How a person's kept rows are bounded so that their contribution P to the second moment is bounded by B². */
    public enum ContributionBound {
        /** Each row clipped to B/√M: tr P ≤ B², so every norm of P is ≤ B² (every Gram-based mechanism). */
        ROWS("rows"),
        /**
         * Each row clipped to B/M^{1/4}, then the person's rows scaled together so that ‖P‖_F ≤ B² (only the
         * mechanisms calibrated to the Frobenius norm of the Gram).
         */
        FROBENIUS("frobenius");

        private final String word;

        ContributionBound(String word) {
            this.word = word;
        }

        /**
         * The word the command line uses ({@code --unit-bound rows|frobenius}).
         *
         * @return "rows" or "frobenius"
         */
        public String word() {
            return word;
        }
    }

    /**
     * Checks the fields.
     *
     * @param idColumn          the column, or null
     * @param maxRowsPerUnit    M
     * @param selection         the selection
     * @param contributionBound the contribution bound
     * @throws IllegalArgumentException for a blank column, M below 1, M other than 1 for one row, or a Frobenius
     *                                  bound for one row
     */
    public PrivacyUnit {
        Objects.requireNonNull(selection, "selection");
        Objects.requireNonNull(contributionBound, "contributionBound");
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
        if (idColumn == null && contributionBound != ContributionBound.ROWS) {
            throw new IllegalArgumentException("one row as the unit is bounded by its own norm, not by "
                    + contributionBound.word());
        }
    }

    /**
     * A unit whose rows are bounded by {@link ContributionBound#ROWS}.
     *
     * @param idColumn       the column, or null
     * @param maxRowsPerUnit M
     * @param selection      the selection
     */
    public PrivacyUnit(String idColumn, int maxRowsPerUnit, Selection selection) {
        this(idColumn, maxRowsPerUnit, selection, ContributionBound.ROWS);
    }

    /**
     * All rows with one value of {@code idColumn} as the unit, at most {@code maxRowsPerUnit} of them kept, chosen
     * uniformly at random, each clipped to B/√M ({@link ContributionBound#ROWS}).
     *
     * @param idColumn       the column naming the person (by its header name)
     * @param maxRowsPerUnit M ≥ 1
     * @return the unit
     */
    public static PrivacyUnit column(String idColumn, int maxRowsPerUnit) {
        Objects.requireNonNull(idColumn, "idColumn");
        return new PrivacyUnit(idColumn, maxRowsPerUnit, Selection.RANDOM);
    }

    /**
     * The same unit, keeping each person's first M rows in file order instead of M at random.
     *
     * @return the unit
     */
    public PrivacyUnit firstRows() {
        return new PrivacyUnit(idColumn, maxRowsPerUnit, Selection.FIRST, contributionBound);
    }

    /**
     * The same unit, bounding each person's contribution in the Frobenius norm
     * ({@link ContributionBound#FROBENIUS}): rows clipped to B/M^{1/4}, then scaled together so that
     * ‖Σ_r x_r x_rᵀ‖_F ≤ B². Keeps up to √M times more of a person's signal when their rows point in different
     * directions; only the Frobenius-calibrated mechanisms (analyze-gauss, the Gaussian covariance) accept it.
     *
     * @return the unit
     * @throws IllegalArgumentException for one row as the unit
     */
    public PrivacyUnit frobenius() {
        return bounded(ContributionBound.FROBENIUS);
    }

    /**
     * The same unit with {@code bound} as its contribution bound.
     *
     * @param bound the contribution bound
     * @return the unit
     * @throws IllegalArgumentException for a Frobenius bound with one row as the unit
     */
    public PrivacyUnit bounded(ContributionBound bound) {
        return new PrivacyUnit(idColumn, maxRowsPerUnit, selection, bound);
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
     * Whether only the Frobenius norm of a unit's contribution is bounded (not its trace).
     *
     * @return true for {@link ContributionBound#FROBENIUS}
     */
    public boolean boundsFrobeniusOnly() {
        return contributionBound == ContributionBound.FROBENIUS;
    }

    /**
     * The bound each kept row is clipped to, before a {@link ContributionBound#FROBENIUS} unit's common scale:
     * unitBound/√M ({@code ROWS}) or unitBound/M^{1/4} ({@code FROBENIUS}).
     *
     * @param unitBound B
     * @return B/√M or B/M^{1/4}
     */
    public double rowBound(double unitBound) {
        double sqrtM = Math.sqrt(maxRowsPerUnit);
        return boundsFrobeniusOnly() ? unitBound / Math.sqrt(sqrtM) : unitBound / sqrtM;
    }

    /**
     * The unit as the guarantee states it, for a release calibrated to {@code bound}.
     *
     * @param bound B, the bound the estimator is calibrated to
     * @return e.g. "one person: all rows with one value of column 'customer' (at most 50 rows kept, each clipped to
     *         B/√M = ...)"
     */
    public String describe(double bound) {
        if (isRow()) {
            return "one row with L2 norm <= " + bound;
        }
        String kept = String.format(Locale.ROOT, "one person: all rows with one value of column '%s' (at most %d rows "
                + "kept per person, %s; ", idColumn, maxRowsPerUnit,
                selection == Selection.RANDOM ? "chosen uniformly at random" : "the first in file order");
        if (boundsFrobeniusOnly()) {
            return kept + String.format(Locale.ROOT, "each clipped to L2 norm B/%d^(1/4) = %.6g, then all of the "
                    + "person's rows scaled by sqrt(min(1, B^2/||P||_F)), so the person's sum of outer products P has "
                    + "Frobenius norm <= B^2 = %.6g with B = %.6g (its trace is not bounded by B^2); add/remove and "
                    + "replace-one act on persons)", maxRowsPerUnit, rowBound(bound), bound * bound, bound);
        }
        return kept + String.format(Locale.ROOT, "each clipped to L2 norm B/sqrt(%d) = %.6g, so the person's sum of "
                + "outer products has Frobenius norm <= B^2 = %.6g with B = %.6g; add/remove and replace-one act on "
                + "persons)", maxRowsPerUnit, rowBound(bound), bound * bound, bound);
    }

    @Override
    public String toString() {
        return isRow() ? "one row" : "all rows with one value of column '" + idColumn + "' (at most "
                + maxRowsPerUnit + " kept" + (boundsFrobeniusOnly() ? ", Frobenius-bounded" : "") + ")";
    }
}
