package io.dpspectra.release;

import io.dpspectra.Diagnostics;
import io.dpspectra.result.PrivateSubspace;
import java.util.Objects;

/**
 * The result of a NON-private reference estimator (exact PCA, Oja, the power methods, ggd, sggd) on the same
 * public preprocessing as a release, for comparison: it reveals the data and carries no guarantee, so it is
 * not a release and must not be published.
 *
 * @param subspace      the estimator's result (its guarantee is empty)
 * @param preprocessing the public preprocessing it saw
 * @param diagnostics   facts about the data (rows, clipped rows, clamped cells, seconds)
 */
public record PcaReference(PrivateSubspace subspace, Preprocessing preprocessing, Diagnostics diagnostics) {
    /**
     * Checks the fields.
     *
     * @param subspace      the result
     * @param preprocessing the preprocessing
     * @param diagnostics   the facts
     */
    public PcaReference {
        Objects.requireNonNull(subspace, "subspace");
        Objects.requireNonNull(preprocessing, "preprocessing");
        Objects.requireNonNull(diagnostics, "diagnostics");
    }
}
