package io.dpspectra.pca;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.result.PrivateSubspace;
import java.util.Arrays;

/**
 * Non-private PCA of the uncentred second moment XᵀX: the top-k eigenvectors, with their eigenvalues as
 * explained variance. It is the reference every private estimator is measured against.
 *
 * <p>Privacy: NONE. The result carries no guarantee ({@link PrivateSubspace#guarantee()} is empty) and
 * its diagnostics say {@code "private": false}; never publish it as a private release.
 *
 * <p>Reference: the exact solution the papers compare against (e.g. papers/kdp-pca-adaptive-noise.txt,
 * Def. 1's optimum V_k).
 *
 * <p>Cost: one pass; O(nd²) for XᵀX and O(d²k)–O(d³) for the top-k eigenpairs; memory O(d²).
 */
public final class ExactPca {
    private final int k;

    private ExactPca(int k) {
        this.k = k;
    }

    /**
     * A builder; {@code components} is required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. */
    public static final class Builder {
        private int k = -1;

        /**
         * The number k ≥ 1 of components (required; checked against d when fitting).
         *
         * @param k k
         * @return this builder
         */
        public Builder components(int k) {
            this.k = DpPreconditions.checkAtLeast("components", k, 1);
            return this;
        }

        /**
         * The estimator with this configuration.
         *
         * @return a new estimator
         */
        public ExactPca build() {
            if (k < 0) {
                throw new IllegalArgumentException("components k was not set; call components(k) with 1 <= k <= d");
            }
            return new ExactPca(k);
        }
    }

    /**
     * Top-k eigenvectors of XᵀX with their eigenvalues as explained variance.
     *
     * @param rows the rows
     * @return the top-k basis with its eigenvalues and no guarantee (NOT private)
     */
    public PrivateSubspace fit(RowSource rows) {
        DpPreconditions.checkComponents(k, rows.dimension());
        GramPass pass = GramPass.of(rows);
        SymmetricEigen top = SymmetricEigen.top(pass.gram(), k);
        Diagnostics diag = Diagnostics.builder()
                .put("private", false)
                .put("warning", "exact PCA is NOT differentially private; use it only as a reference")
                .put("rows", pass.rows())
                .build();
        return new PrivateSubspace("exact-pca", top.vectors(), Arrays.copyOf(top.values(), k), null, diag);
    }
}
