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
     * the bound is not clipped). Every row of finite entries is clipped, however large: the norm is taken
     * overflow-safely ({@link Vectors#clipL2InPlace}, {@link Vectors#clipL1InPlace}), so a row of entries near
     * {@link Double#MAX_VALUE} lands on the bound like any other. Modified: row.
     *
     * @param row a row
     * @return whether the row was scaled
     * @throws InvalidDataException if the row has a NaN or infinite entry (its norm is undefined); readers
     *                              refuse such cells first, before any private computation
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
        try {
            return switch (norm) {
                case L2 -> Vectors.clipL2InPlace(a, off, len, bound);
                case L1 -> Vectors.clipL1InPlace(a, off, len, bound);
                case TRACE -> clipTrace(a, off, len);
            };
        } catch (IllegalArgumentException e) { // a NaN or infinite entry: the helpers check on their slow path only
            throw new InvalidDataException("a row has a NaN or infinite entry, so its " + describeNorm()
                    + " is undefined; remove or impute non-finite values before clipping", e);
        }
    }

    /**
     * {@link #clipInPlace(double[], int, int)} on each of the rows [from, from + rows) of a row-major block of width
     * {@code d}: every row ends with the same bits as clipped alone. For the L2 norm the rows are taken a few
     * dozen at a time, their norms eight or four rows side by side ({@link Vectors#clipL2InPlace(double[], int[], int, int,
     * double, boolean[])}), several times faster than row by row. Modified: a.
     *
     * @param a    a row-major block
     * @param from the first row to clip
     * @param rows the number of rows
     * @param d    the row width
     * @return how many of the rows were scaled
     * @throws InvalidDataException if a row has a NaN or infinite entry (rows may then be left partly clipped; find
     *                              the row with {@link Vectors#isFinite(double[], int, int)})
     */
    public int clipRowsInPlace(double[] a, int from, int rows, int d) {
        int changed = 0;
        if (norm != DataBounds.Norm.L2) {
            for (int r = from; r < from + rows; r++) {
                if (clipInPlace(a, r * d, d)) {
                    changed++;
                }
            }
            return changed;
        }
        // a chunk of about 64 KB of rows (at least 4): its rows stay in cache from their norms to their guard steps
        int chunk = Math.max(4, Math.min(rows, 8192 / Math.max(1, d)));
        int[] offsets = new int[chunk];
        boolean[] scaled = new boolean[chunk];
        for (int start = from; start < from + rows; start += chunk) {
            int m = Math.min(chunk, from + rows - start);
            for (int r = 0; r < m; r++) {
                offsets[r] = (start + r) * d;
            }
            try {
                Vectors.clipL2InPlace(a, offsets, m, d, bound, scaled);
            } catch (IllegalArgumentException e) {
                throw new InvalidDataException("a row has a NaN or infinite entry, so its " + describeNorm()
                        + " is undefined; remove or impute non-finite values before clipping", e);
            }
            for (int r = 0; r < m; r++) {
                if (scaled[r]) {
                    changed++;
                }
            }
        }
        return changed;
    }

    /** ‖x‖₂² ≤ bound, scaled from the L2 norm, so that ‖x‖₂² overflowing for huge rows does not zero the row. */
    private boolean clipTrace(double[] a, int off, int len) {
        double l2 = Vectors.norm2(a, off, len);
        if (l2 * l2 <= bound) {
            return false;
        }
        double factor = Math.sqrt(bound) / l2;
        if (factor >= Double.MIN_NORMAL) {
            Vectors.scaleInPlace(a, off, len, factor);
        } else { // ‖x‖ overflowed or the factor is subnormal: the overflow-safe L2 clip
            Vectors.clipL2InPlace(a, off, len, Math.sqrt(bound));
        }
        // guard against rounding leaving the row a hair above the bound (at most a few steps)
        for (int step = 0; measure(a, off, len) > bound; step++) {
            Vectors.scaleInPlace(a, off, len, 1 - Vectors.shrinkStep(step));
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
