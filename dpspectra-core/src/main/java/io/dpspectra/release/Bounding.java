package io.dpspectra.release;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.Clipping;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.ShiftedRows;
import java.io.Serializable;
import java.util.Objects;

/**
 * How each contribution is bounded before it is summed, the same chain wherever the data lie: to L2 norm ≤
 * {@code inputBound} by {@code policy} (clipped onto it, or refused above it); then, when {@code mean} is
 * not null, minus the (privately released) mean and clipped to {@code bound}, which such rows satisfy by
 * construction when bound = inputBound + ‖mean‖. Serializable, so that a cluster ships it to where the rows
 * are. Every constant in it is public (user-given, or released by a private mechanism).
 *
 * @param inputBound the bound of the rows as read
 * @param policy     clip onto the bound, or refuse a row above it
 * @param mean       the released mean subtracted after the first bound, or null (not copied: do not modify it)
 * @param bound      the bound the estimator sees (inputBound without a mean)
 * @param origin     where the bound came from, as the bounded rows declare it
 * @serial exclude
 */
public record Bounding(double inputBound, DataBounds.Policy policy, double[] mean, double bound,
                       DataBounds.Origin origin) implements Serializable {
    /**
     * Checks the fields.
     *
     * @param inputBound the first bound
     * @param policy     the first bound's policy
     * @param mean       the mean, or null
     * @param bound      the final bound
     * @param origin     the bound's origin
     */
    public Bounding {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(origin, "origin");
        if (mean == null && bound != inputBound) {
            throw new IllegalArgumentException("without a mean the final bound is the input bound");
        }
    }

    /**
     * Rows bounded to {@code bound} by {@code policy}, nothing else.
     *
     * @param bound  the bound
     * @param policy clip or reject
     * @param origin where the bound came from
     * @return the bounding
     */
    public static Bounding of(double bound, DataBounds.Policy policy, DataBounds.Origin origin) {
        return new Bounding(bound, policy, null, bound, origin);
    }

    /**
     * The chain on rows as read: the first bound, then the centring and the final clip.
     *
     * @param raw the rows as read
     * @return the bounded rows, declaring {@link #bound} and {@link #origin}
     */
    public ClippedRows apply(RowSource raw) {
        return centre(first(raw));
    }

    /**
     * The second stage of {@link #apply}: rows already bounded by {@link #first}, minus the mean and clipped to
     * {@code bound} (themselves without a mean).
     *
     * @param first the first stage
     * @return the bounded rows, declaring {@link #bound} and {@link #origin}
     */
    public ClippedRows centre(ClippedRows first) {
        return mean == null ? first : Clipping.l2(bound).clip(ShiftedRows.of(first, mean), origin);
    }

    /**
     * The first stage of {@link #apply}: the rows bounded to {@code inputBound}, whose clipped-row count is the
     * curator's diagnostic.
     *
     * @param raw the rows as read
     * @return the rows bounded to {@code inputBound}
     */
    public ClippedRows first(RowSource raw) {
        Clipping c = Clipping.l2(inputBound);
        return policy == DataBounds.Policy.REJECT ? c.reject(raw) : c.clip(raw, origin);
    }

    /**
     * Declares rows that were already bounded by this chain where they lie (e.g. a statistic summed across a
     * cluster): bounding them again is the identity, and the estimator reads the final bound from it.
     *
     * @param bounded the rows (or the statistic of the rows) bounded by this chain
     * @return the rows, declaring {@link #bound} and {@link #origin}
     */
    public ClippedRows declare(RowSource bounded) {
        Clipping c = Clipping.l2(bound);
        return mean == null && policy == DataBounds.Policy.REJECT ? c.reject(bounded) : c.clip(bounded, origin);
    }
}
