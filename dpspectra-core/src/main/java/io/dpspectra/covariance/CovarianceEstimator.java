package io.dpspectra.covariance;

import io.dpspectra.data.RowSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;

/** Releases a private XᵀX from rows with a declared norm bound. */
public interface CovarianceEstimator {
    /**
     * Releases the second moment XᵀX of {@code rows} (a sum over rows, not an average) with noise calibrated to their
     * declared bound, spending {@code budget}.
     *
     * @param rows   the rows; they must declare an L2 bound ({@link io.dpspectra.data.RowSource#bounds()}), e.g. by
     *               clipping
     * @param budget the (ε, δ) to spend
     * @return the released matrix (or its eigenpairs) with its guarantee and diagnostics
     * @throws IllegalArgumentException when the rows declare no bound, or the budget does not suit the mechanism
     */
    PrivateCovariance release(RowSource rows, PrivacyParams budget);
}
