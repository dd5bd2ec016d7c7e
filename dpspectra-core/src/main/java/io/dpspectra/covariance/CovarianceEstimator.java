package io.dpspectra.covariance;

import io.dpspectra.data.RowSource;
import io.dpspectra.privacy.PrivacyParams;

/** Releases a private XᵀX from rows with a declared norm bound. */
public interface CovarianceEstimator {
    PrivateCovariance release(RowSource rows, PrivacyParams budget);
}
