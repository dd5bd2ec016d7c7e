package io.dpspectra.covariance;

import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;

/**
 * Laplace mechanism on the upper triangle of XᵀX (spec robust-local-covariance.md §5.3).
 *
 * <p>TODO(skeleton): implemented in the algorithms work package; the API below is fixed.
 */
public final class LaplaceCovariance implements CovarianceEstimator {
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. */
    public static final class Builder {
        /** Default REPLACE_ROW (spec §1.3). */
        public Builder neighbouring(Neighbouring neighbouring) {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }

        /** Default {@link RandomSource#secure()}. */
        public Builder randomSource(RandomSource random) {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }

        public LaplaceCovariance build() {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }
    }

    @Override
    public PrivateCovariance release(RowSource rows, PrivacyParams budget) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }
}
