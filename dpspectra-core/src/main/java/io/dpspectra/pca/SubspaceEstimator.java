package io.dpspectra.pca;

import io.dpspectra.data.RowSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;

/**
 * Estimates a k-dimensional principal subspace from rows. A private implementation spends exactly
 * the budget it is handed, never more, and records it in the result's guarantee.
 */
public interface SubspaceEstimator {

    /**
     * Fits on {@code rows}. Private estimators require rows with a declared norm bound
     * ({@link RowSource#bounds()}) and throw {@link IllegalArgumentException} otherwise.
     *
     * @param rows   the rows
     * @param budget the (ε, δ) to spend (null for a non-private estimator)
     * @return the basis with its guarantee and diagnostics
     */
    PrivateSubspace fit(RowSource rows, PrivacyParams budget);

    /**
     * The number of passes over the data this estimator makes (so sources can plan).
     *
     * @return the number of passes
     */
    default int passes() {
        return 1;
    }
}
