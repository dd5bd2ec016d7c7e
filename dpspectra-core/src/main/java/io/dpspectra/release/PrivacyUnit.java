package io.dpspectra.release;

/**
 * What one neighbour changes, as a {@link StatisticSource} sums it: one row of the input ({@link #ROW}, the
 * only unit the release layer certifies today). A source whose contributions are the rows of one person (a
 * column naming the person, many rows each) would state that unit here, summing its statistics per person;
 * the release refuses a unit it cannot certify rather than mistake it for a row.
 *
 * @param idColumn the column naming the unit, or null for one row
 */
public record PrivacyUnit(String idColumn) {
    /** One row of the input. */
    public static final PrivacyUnit ROW = new PrivacyUnit(null);

    /**
     * Whether the unit is one row.
     *
     * @return true for {@link #ROW}
     */
    public boolean isRow() {
        return idColumn == null;
    }

    @Override
    public String toString() {
        return isRow() ? "one row" : "all rows with one value of column '" + idColumn + "'";
    }
}
