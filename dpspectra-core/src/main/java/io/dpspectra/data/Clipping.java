package io.dpspectra.data;

import io.dpspectra.linalg.Vectors;
import io.dpspectra.privacy.DpPreconditions;

/**
 * A per-row norm bound (L2, L1 or trace = ‖x‖₂²), applied by clipping (scale the row onto the bound)
 * or by rejection. Clipping is a per-record map, so it keeps every privacy proof valid for arbitrary
 * input; the bound must be chosen without looking at the data.
 */
public final class Clipping {
    private final DataBounds.Norm norm;
    private final double bound;

    private Clipping(DataBounds.Norm norm, double bound) {
        this.norm = norm;
        this.bound = DpPreconditions.checkBound("clipping bound", bound);
    }

    /**
     * ‖x‖₂ ≤ bound.
     *
     * @param bound the bound, finite and &gt; 0
     * @return the clipping
     */
    public static Clipping l2(double bound) {
        return new Clipping(DataBounds.Norm.L2, bound);
    }

    /**
     * ‖x‖₁ ≤ bound.
     *
     * @param bound the bound, finite and &gt; 0
     * @return the clipping
     */
    public static Clipping l1(double bound) {
        return new Clipping(DataBounds.Norm.L1, bound);
    }

    /**
     * tr(xxᵀ) = ‖x‖₂² ≤ bound (the papers' trace clipping of rank-one samples).
     *
     * @param bound the bound on ‖x‖₂², finite and &gt; 0
     * @return the clipping
     */
    public static Clipping trace(double bound) {
        return new Clipping(DataBounds.Norm.TRACE, bound);
    }

    /**
     * The bounded norm.
     *
     * @return L2, L1 or TRACE
     */
    public DataBounds.Norm norm() {
        return norm;
    }

    /**
     * The bound on the norm.
     *
     * @return the bound, &gt; 0
     */
    public double bound() {
        return bound;
    }

    /**
     * The source with rows scaled down onto the bound.
     *
     * @param source the rows
     * @return the clipped rows, which declare this bound as user-given
     */
    public ClippedRows clip(RowSource source) {
        return new ClippedRows(source, this, DataBounds.Policy.CLIP);
    }

    /**
     * The source with rows scaled down onto the bound, declaring where the bound came from: a bound
     * derived by construction from a public schema is {@link DataBounds.Origin#USER_GIVEN}; one from a
     * private estimate (whose cost was accounted) is {@link DataBounds.Origin#PRIVATELY_ESTIMATED}.
     *
     * @param source the rows
     * @param origin where the bound came from
     * @return the clipped rows, which declare this bound
     */
    public ClippedRows clip(RowSource source, DataBounds.Origin origin) {
        return new ClippedRows(source, this, DataBounds.Policy.CLIP, java.util.Objects.requireNonNull(origin, "origin"));
    }

    /**
     * The source, with a row over the bound reported as an {@link InvalidDataException}.
     *
     * @param source the rows
     * @return the checked rows, which declare this bound as user-given
     */
    public ClippedRows reject(RowSource source) {
        return new ClippedRows(source, this, DataBounds.Policy.REJECT);
    }

    /**
     * The bounded quantity of a row: ‖x‖₂, ‖x‖₁ or ‖x‖₂².
     *
     * @param row a row
     * @return its norm in this clipping's sense
     */
    public double measure(double[] row) {
        return measure(row, 0, row.length);
    }

    /**
     * The norm of the row stored in {@code a[off .. off+len)} (a row of a row-major block).
     *
     * @param a   a row-major block
     * @param off the index of the row's first entry
     * @param len the row width
     * @return its norm in this clipping's sense
     */
    public double measure(double[] a, int off, int len) {
        return switch (norm) {
            case L2 -> Vectors.norm2(a, off, len);
            case L1 -> Vectors.norm1(a, off, len);
            case TRACE -> {
                double n = Vectors.norm2(a, off, len);
                yield n * n;
            }
        };
    }

    /**
     * Scales {@code row} onto the bound if it exceeds it and returns true if it did (a row exactly on
     * the bound is not clipped). Modified: row.
     *
     * @param row a row
     * @return whether the row was scaled
     * @throws InvalidDataException if the row has a NaN or infinite entry (its norm is undefined)
     */
    public boolean clipInPlace(double[] row) {
        return clipInPlace(row, 0, row.length);
    }

    /**
     * As {@link #clipInPlace(double[])} for the row stored in {@code a[off .. off+len)}. Modified: a.
     *
     * @param a   a row-major block
     * @param off the index of the row's first entry
     * @param len the row width
     * @return whether the row was scaled
     */
    public boolean clipInPlace(double[] a, int off, int len) {
        double l2 = norm == DataBounds.Norm.L1 ? Double.NaN : Vectors.norm2(a, off, len);
        double m = switch (norm) {
            case L2 -> l2;
            case L1 -> Vectors.norm1(a, off, len);
            case TRACE -> l2 * l2;
        };
        if (!Double.isFinite(m) && !(norm == DataBounds.Norm.TRACE && Double.isFinite(l2))) {
            throw new InvalidDataException("a row has a NaN or infinite entry, so its " + describeNorm()
                    + " is " + m + "; remove or impute non-finite values before clipping");
        }
        if (m <= bound) {
            return false;
        }
        double factor = switch (norm) {
            case L2 -> bound / l2;
            case L1 -> bound / m;
            // from the L2 norm, so that ‖x‖₂² overflowing for huge rows does not zero the row
            case TRACE -> Math.sqrt(bound) / l2;
        };
        Vectors.scaleInPlace(a, off, len, factor);
        // guard against rounding leaving the row a hair above the bound (at most a few steps)
        while (measure(a, off, len) > bound) {
            Vectors.scaleInPlace(a, off, len, 1 - 1e-15);
        }
        return true;
    }

    String describeNorm() {
        return switch (norm) {
            case L2 -> "L2 norm";
            case L1 -> "L1 norm";
            case TRACE -> "squared L2 norm (trace)";
        };
    }
}
