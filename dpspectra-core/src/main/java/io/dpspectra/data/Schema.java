package io.dpspectra.data;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * A public schema: every column of a table, in file order, with its type and its <em>public</em>
 * domain. It defines a per-row map from the table's text cells to a numeric feature vector that uses
 * no constant computed from the data, so it costs no privacy:
 * <ul>
 *   <li>{@link Numeric}: the value is clamped to the declared bounds [min, max] (when given), then
 *       standardised as (x − centre)/scale (centre 0 and scale 1 when not given);</li>
 *   <li>{@link Categorical}: one-hot over the declared categories (a value outside them is an error
 *       naming it, never silently dropped);</li>
 *   <li>{@link Ignored}: read and dropped (a label, an identifier).</li>
 *   <li>{@link Id}: the id of the row's person (a privacy unit's column): read as text for grouping the
 *       rows by person, never a feature; at most one.</li>
 * </ul>
 *
 * <p>Row-norm bound by construction ({@link #rowNormBound}): a numeric feature lies in
 * [(min − c)/s, (max − c)/s], so its square is at most m_j² = max(|min − c|, |max − c|)²/s²; a one-hot
 * block has exactly one 1, so it adds 1. Every mapped row therefore has
 * ‖x‖₂ ≤ B = √(Σ_numeric m_j² + #categorical) whatever the data are; the bound needs min and max for
 * every numeric column. {@link #boundDerivation} says this in words and numbers.
 *
 * <p>Where the bounds come from is the user's responsibility: domain knowledge or documentation (a
 * census form's ranges, a sensor's range), never the data itself unless estimated privately (and then
 * accounted). The shipped example schemas say where theirs came from.
 */
public final class Schema implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** One column of the table. */
    public sealed interface Column extends java.io.Serializable permits Numeric, Categorical, Ignored, Id {
        /**
         * The column's name (the file's header name, when the file has a header).
         *
         * @return the name
         */
        String name();

        /**
         * How many features the column produces.
         *
         * @return 1 for a numeric column, the number of categories for a categorical one, 0 for an ignored or id one
         */
        int width();
    }

    /**
     * A numeric column with optional public bounds, centre and scale.
     *
     * @param name   the column's name
     * @param min    lower bound (values below are clamped up), or null
     * @param max    upper bound (values above are clamped down), or null
     * @param center public centre subtracted (null: 0)
     * @param scale  public scale divided by (null: 1), &gt; 0
     * @serial exclude
     */
    public record Numeric(String name, Double min, Double max, Double center, Double scale) implements Column {
        /**
         * Validates the column.
         *
         * @param name   the column's name
         * @param min    lower bound, or null
         * @param max    upper bound, or null
         * @param center public centre, or null
         * @param scale  public scale, or null
         * @throws IllegalArgumentException for a non-finite bound, min &gt; max, or a scale that is not positive
         */
        public Numeric {
            checkName(name);
            if (min != null && !Double.isFinite(min) || max != null && !Double.isFinite(max)) {
                throw new IllegalArgumentException("column \"" + name + "\": min and max must be finite numbers, got "
                        + min + " and " + max);
            }
            if (min != null && max != null && !(min <= max)) {
                throw new IllegalArgumentException("column \"" + name + "\": min " + min + " is above max " + max
                        + "; swap them");
            }
            if (center != null && !Double.isFinite(center)) {
                throw new IllegalArgumentException("column \"" + name + "\": center must be a finite number, got "
                        + center);
            }
            if (scale != null && !(scale > 0 && Double.isFinite(scale))) {
                throw new IllegalArgumentException("column \"" + name + "\": scale must be a finite number > 0, got "
                        + scale);
            }
        }

        /**
         * A numeric column with neither bounds nor standardisation (a drafted schema's skeleton).
         *
         * @param name the column's name
         * @return the column
         */
        public static Numeric unbounded(String name) {
            return new Numeric(name, null, null, null, null);
        }

        @Override
        public int width() {
            return 1;
        }

        /**
         * Whether both min and max are declared.
         *
         * @return true when the column is bounded
         */
        public boolean bounded() {
            return min != null && max != null;
        }

        /**
         * The centre subtracted when centring (0 when none was declared).
         *
         * @return the centre, or 0
         */
        public double centerOrZero() {
            return center == null ? 0 : center;
        }

        /**
         * The scale divided by (1 when none was declared).
         *
         * @return the scale, or 1
         */
        public double scaleOrOne() {
            return scale == null ? 1 : scale;
        }

        /**
         * The feature of one value: clamp to [min, max], subtract the centre if {@code centre}, divide by the scale.
         *
         * @param x      the value read
         * @param centre whether to subtract the centre
         * @return the feature
         */
        public double map(double x, boolean centre) {
            double v = x;
            if (min != null && v < min) {
                v = min;
            }
            if (max != null && v > max) {
                v = max;
            }
            return (v - (centre ? centerOrZero() : 0)) / scaleOrOne();
        }

        /**
         * max |feature| over [min, max]; requires {@link #bounded()}.
         *
         * @param centre whether the centre is subtracted
         * @return the largest |feature|
         */
        public double maxAbs(boolean centre) {
            double c = centre ? centerOrZero() : 0;
            return Math.max(Math.abs(min - c), Math.abs(max - c)) / scaleOrOne();
        }
    }

    /**
     * A categorical column, one-hot encoded over its public categories (in this order).
     *
     * @param name       the column's name
     * @param categories its public categories
     * @serial exclude
     */
    public record Categorical(String name, List<String> categories) implements Column {
        /**
         * Validates the column and copies its categories.
         *
         * @param name       the column's name
         * @param categories its public categories, at least one, each once
         * @throws IllegalArgumentException for no category or a repeated one
         */
        public Categorical {
            checkName(name);
            Objects.requireNonNull(categories, "categories");
            if (categories.isEmpty()) {
                throw new IllegalArgumentException("column \"" + name + "\": a categorical column needs at least one "
                        + "category; list its public categories");
            }
            Set<String> seen = new HashSet<>();
            for (String c : categories) {
                if (c == null || !seen.add(c)) {
                    throw new IllegalArgumentException("column \"" + name + "\": category \"" + c
                            + "\" is listed twice (or is null); list each category once");
                }
            }
            categories = List.copyOf(categories);
        }

        @Override
        public int width() {
            return categories.size();
        }
    }

    /**
     * A column that is read and dropped.
     *
     * @param name the column's name
     * @serial exclude
     */
    public record Ignored(String name) implements Column {
        /**
         * Validates the name.
         *
         * @param name the column's name
         */
        public Ignored {
            checkName(name);
        }

        @Override
        public int width() {
            return 0;
        }
    }

    /**
     * The column naming the person each row belongs to ({@code "type": "id"}): its cells are read as text, for a
     * release whose privacy unit is that column, and never become a feature.
     *
     * @param name the column's name
     * @serial exclude
     */
    public record Id(String name) implements Column {
        /**
         * Validates the name.
         *
         * @param name the column's name
         */
        public Id {
            checkName(name);
        }

        @Override
        public int width() {
            return 0;
        }
    }

    /** The columns, in file order. */
    private final List<Column> columns;
    /** The number of features d of a mapped row. */
    private final int dimension;

    private Schema(List<Column> columns) {
        this.columns = List.copyOf(columns);
        int d = 0;
        Set<String> names = new HashSet<>();
        for (Column c : this.columns) {
            if (!names.add(c.name())) {
                throw new IllegalArgumentException("column \"" + c.name() + "\" appears twice in the schema; "
                        + "give every column a distinct name");
            }
            d += c.width();
        }
        if (this.columns.stream().filter(c -> c instanceof Id).count() > 1) {
            throw new IllegalArgumentException("the schema marks several columns \"type\": \"id\"; a row belongs to "
                    + "one person, named by one column: mark the others \"ignore\"");
        }
        if (d == 0) {
            throw new IllegalArgumentException("the schema uses no column (all are ignored); declare at least one "
                    + "numeric or categorical column");
        }
        this.dimension = d;
    }

    /**
     * A schema over these columns, in file order.
     *
     * @param columns the columns, with distinct names, at least one not ignored
     * @return the schema
     * @throws IllegalArgumentException for a repeated name or a schema that uses no column
     */
    public static Schema of(List<Column> columns) {
        Objects.requireNonNull(columns, "columns");
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a schema needs at least one column");
        }
        return new Schema(columns);
    }

    /**
     * The columns, in file order (including ignored ones).
     *
     * @return the columns
     */
    public List<Column> columns() {
        return columns;
    }

    /**
     * The name of the column marked {@code "type": "id"} ({@link Id}), if any.
     *
     * @return the id column's name, or empty
     */
    public java.util.Optional<String> idColumn() {
        return columns.stream().filter(c -> c instanceof Id).map(Column::name).findFirst();
    }

    /**
     * The number of features d of a mapped row.
     *
     * @return d
     */
    public int dimension() {
        return dimension;
    }

    /**
     * Feature names: a numeric column's name, {@code name=category} for each one-hot feature.
     *
     * @return d names
     */
    public List<String> featureNames() {
        List<String> out = new ArrayList<>(dimension);
        for (Column c : columns) {
            if (c instanceof Numeric n) {
                out.add(n.name());
            } else if (c instanceof Categorical k) {
                for (String cat : k.categories()) {
                    out.add(k.name() + "=" + cat);
                }
            }
        }
        return out;
    }

    /**
     * True if some numeric column declares a centre.
     *
     * @return whether some centre is declared
     */
    public boolean hasCenters() {
        return columns.stream().anyMatch(c -> c instanceof Numeric n && n.center() != null);
    }

    /**
     * Names of the numeric columns without both bounds (a bound by construction needs none).
     *
     * @return the names, in file order
     */
    public List<String> unboundedColumns() {
        List<String> out = new ArrayList<>();
        for (Column c : columns) {
            if (c instanceof Numeric n && !n.bounded()) {
                out.add(n.name());
            }
        }
        return out;
    }

    /**
     * The L2 bound every mapped row satisfies by construction (see the class comment), or empty when
     * a numeric column lacks min or max.
     *
     * @param centre whether the centres are subtracted
     * @return B, or empty
     */
    public OptionalDouble rowNormBound(boolean centre) {
        if (!unboundedColumns().isEmpty()) {
            return OptionalDouble.empty();
        }
        double sum = 0;
        for (Column c : columns) {
            if (c instanceof Numeric n) {
                double m = n.maxAbs(centre);
                sum += m * m;
            } else if (c instanceof Categorical) {
                sum += 1;
            }
        }
        return OptionalDouble.of(Math.sqrt(sum));
    }

    /**
     * How {@link #rowNormBound} was obtained, in words and numbers (or why there is none).
     *
     * @param centre whether the centres are subtracted
     * @return the derivation
     */
    public String boundDerivation(boolean centre) {
        List<String> unbounded = unboundedColumns();
        if (!unbounded.isEmpty()) {
            return "no bound by construction: numeric column(s) " + abbreviate(unbounded) + " have no min/max";
        }
        double numeric = 0;
        int nNumeric = 0;
        int nCategorical = 0;
        for (Column c : columns) {
            if (c instanceof Numeric n) {
                double m = n.maxAbs(centre);
                numeric += m * m;
                nNumeric++;
            } else if (c instanceof Categorical) {
                nCategorical++;
            }
        }
        double b = Math.sqrt(numeric + nCategorical);
        return String.format(Locale.ROOT, "row-norm bound %.6g by construction = sqrt(%.6g from %d numeric column(s), "
                        + "each max|(clamp(x, min, max) - %s)/scale|^2, + %d from %d one-hot column(s), 1 each)",
                b, numeric, nNumeric, centre ? "centre" : "0", nCategorical, nCategorical);
    }

    /**
     * Maps one row of text cells (all of the file's columns, in schema order) to its features.
     * Modified: out (length ≥ {@link #dimension()}).
     *
     * @param clamped counts, per call, the numeric cells that were clamped (index 0 is incremented)
     * @param where   the row's position for error messages, e.g. "data.csv line 12"
     * @param cells   the row's cells
     * @param out     receives the features
     * @param centre  whether to subtract the centres
     * @throws InvalidDataException for a non-numeric numeric cell or a value outside a categorical
     *                              column's categories
     */
    public void map(String[] cells, double[] out, boolean centre, long[] clamped, String where) {
        int at = 0;
        for (int j = 0; j < columns.size(); j++) {
            Column c = columns.get(j);
            String cell = cells[j];
            if (c instanceof Numeric n) {
                double x = parseNumber(cell, n.name(), where);
                double v = n.map(x, centre);
                if (n.min() != null && x < n.min() || n.max() != null && x > n.max()) {
                    clamped[0]++;
                }
                out[at++] = v;
            } else if (c instanceof Categorical k) {
                int hit = k.categories().indexOf(cell);
                if (hit < 0) {
                    throw new InvalidDataException(where + ", column \"" + k.name() + "\": value \""
                            + CellText.abbreviate(cell) + "\" is not one of the schema's " + k.categories().size()
                            + " categories; add it to the column's \"categories\" in the schema (the categories "
                            + "must be public), or mark the column \"ignore\"");
                }
                for (int i = 0; i < k.width(); i++) {
                    out[at + i] = i == hit ? 1 : 0;
                }
                at += k.width();
            }
        }
    }

    private static double parseNumber(String cell, String column, String where) {
        if (CellText.looksLikeFiniteNumber(cell)) {
            double v = Double.parseDouble(cell);
            if (Double.isFinite(v)) {
                return v;
            }
        }
        throw new InvalidDataException(where + ", column \"" + column + "\": value \"" + CellText.abbreviate(cell)
                + "\" is not a finite number, but the schema declares the column numeric; fix the cell, or declare "
                + "the column categorical or \"ignore\" in the schema");
    }

    private static void checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("every schema column needs a non-empty \"name\"");
        }
    }

    private static String abbreviate(List<String> names) {
        return names.size() <= 5 ? String.join(", ", names)
                : String.join(", ", names.subList(0, 5)) + " and " + (names.size() - 5) + " more";
    }
}
