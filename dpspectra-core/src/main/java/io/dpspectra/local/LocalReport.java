package io.dpspectra.local;

import java.util.Objects;

/**
 * One client's privatised report: the upper triangle (diagonal included) of x xᵀ + Z for its clipped
 * record x, with Z symmetric Gaussian noise, together with the public parameters it was made under.
 *
 * <p>Order of {@link #values()}: column by column, (0,0), (0,1), (1,1), (0,2), (1,2), (2,2), ...; entry
 * (i, j) with i ≤ j sits at j(j+1)/2 + i ({@link #index}).
 *
 * @param parameters the public parameters
 * @param values     p(p+1)/2 reported values (not copied)
 */
public record LocalReport(ReportParameters parameters, double[] values) {
    /**
     * Validates the report's length against its parameters.
     *
     * @param parameters the public parameters
     * @param values     p(p+1)/2 reported values (not copied)
     * @throws IllegalArgumentException for a wrong number of values
     */
    public LocalReport {
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(values, "values");
        if (values.length != parameters.reportLength()) {
            throw new IllegalArgumentException("a report of dimension " + parameters.dimension() + " holds "
                    + parameters.reportLength() + " values, got " + values.length);
        }
    }

    /**
     * The position of entry (i, j), i ≤ j, in the report.
     *
     * @param i the row, 0 ≤ i ≤ j
     * @param j the column
     * @return j(j+1)/2 + i
     */
    public static int index(int i, int j) {
        return j * (j + 1) / 2 + i;
    }
}
