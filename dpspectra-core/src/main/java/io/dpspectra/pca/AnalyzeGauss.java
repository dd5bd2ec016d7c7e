package io.dpspectra.pca;

import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;

/**
 * DP-Gauss-1 ("Analyze Gauss", Dwork et al. 2014): top-k eigenvectors of XᵀX plus a symmetric Gaussian
 * noise matrix.
 *
 * <p>TODO(skeleton): implemented in the algorithms work package; the API below is fixed.
 */
public final class AnalyzeGauss implements SubspaceEstimator {
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. */
    public static final class Builder {
        public Builder components(int k) {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }

        /** Default ADD_REMOVE_ROW (spec §2.7). */
        public Builder neighbouring(Neighbouring neighbouring) {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }

        /** Default {@link RandomSource#secure()}. */
        public Builder randomSource(RandomSource random) {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }

        public AnalyzeGauss build() {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }
    }

    @Override
    public PrivateSubspace fit(RowSource rows, PrivacyParams budget) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }
}
