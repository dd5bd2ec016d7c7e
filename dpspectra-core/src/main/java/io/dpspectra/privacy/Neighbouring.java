package io.dpspectra.privacy;

/**
 * The neighbouring relation a guarantee is stated for. For the row relations the privacy unit is one
 * row; the matrix relations {@link #MATRIX_ENTRY} and {@link #SPECTRAL_NORM} are those of the private
 * power method on an explicit matrix (papers/noisy-power-method.txt Def. 4.1 and Def. 4.4).
 */
public enum Neighbouring {
    /** Datasets differ by adding or removing one row; n itself is protected. */
    ADD_REMOVE_ROW("add/remove one row"),
    /** Datasets of the same public size n differ by replacing one row. */
    REPLACE_ROW("replace one row (n public)"),
    /** Matrices differ in one entry by at most 1 in absolute value ([HP] Def. 4.1, "entry-level"). */
    MATRIX_ENTRY("one matrix entry changes by at most 1"),
    /** Matrices A, A' with ‖A − A'‖₂ ≤ 1 ([HP] Def. 4.4, "unit spectral norm changes"). */
    SPECTRAL_NORM("A - A' has spectral norm at most 1");

    private final String description;

    Neighbouring(String description) {
        this.description = description;
    }

    /**
     * The relation in words, for guarantees and reports (e.g. "replace one row (n public)").
     *
     * @return the description
     */
    public String description() {
        return description;
    }
}
