package io.dpspectra.privacy;

/** The neighbouring relation a guarantee is stated for. The privacy unit is one row in both. */
public enum Neighbouring {
    /** Datasets differ by adding or removing one row; n itself is protected. */
    ADD_REMOVE_ROW("add/remove one row"),
    /** Datasets of the same public size n differ by replacing one row. */
    REPLACE_ROW("replace one row (n public)");

    private final String description;

    Neighbouring(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
