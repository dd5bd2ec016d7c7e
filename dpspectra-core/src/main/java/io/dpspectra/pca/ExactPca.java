package io.dpspectra.pca;

import io.dpspectra.data.RowSource;

/**
 * Non-private PCA of the uncentred second moment XᵀX: the reference every private estimator is
 * measured against. NOT PRIVATE: its result carries no guarantee.
 *
 * <p>TODO(skeleton): implemented in the algorithms work package; the API below is fixed.
 */
public final class ExactPca {
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. */
    public static final class Builder {
        public Builder components(int k) {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }

        public ExactPca build() {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }
    }

    /** Top-k eigenvectors of XᵀX with their eigenvalues as explained variance. */
    public PrivateSubspace fit(RowSource rows) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }
}
