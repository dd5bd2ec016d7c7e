package io.dpspectra.result;

import io.dpspectra.Diagnostics;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.privacy.PrivacyGuarantee;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of a subspace estimator: d × k orthonormal components, optional eigenvalue (explained
 * variance) estimates, the privacy guarantee of the release (empty for non-private references such as
 * exact PCA) and diagnostics. Immutable: accessors return copies. Every estimator family returns it (the
 * subspace estimators, the top k of a covariance release, robust and local PCA), so it lives apart from
 * all of them.
 */
public final class PrivateSubspace {
    private final String algorithm;
    private final Matrix components;
    private final double[] explainedVariance;
    private final PrivacyGuarantee guarantee;
    private final Diagnostics diagnostics;

    /**
     * @param algorithm         the algorithm's CLI name, e.g. "analyze-gauss"
     * @param components        d × k, orthonormal columns (copied)
     * @param explainedVariance k released eigenvalue estimates, or null if the algorithm releases none
     * @param guarantee         the guarantee, or null for a non-private computation
     * @param diagnostics       run facts
     */
    public PrivateSubspace(String algorithm, Matrix components, double[] explainedVariance,
                           PrivacyGuarantee guarantee, Diagnostics diagnostics) {
        this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
        this.components = components.copy();
        if (explainedVariance != null && explainedVariance.length != components.cols()) {
            throw new IllegalArgumentException("explainedVariance has " + explainedVariance.length
                    + " entries for " + components.cols() + " components");
        }
        this.explainedVariance = explainedVariance == null ? null : explainedVariance.clone();
        this.guarantee = guarantee;
        this.diagnostics = Objects.requireNonNull(diagnostics, "diagnostics");
    }

    /**
     * The algorithm's CLI name, e.g. "analyze-gauss".
     *
     * @return the name
     */
    public String algorithm() {
        return algorithm;
    }

    /**
     * d × k, orthonormal columns (a copy).
     *
     * @return a new d × k matrix
     */
    public Matrix components() {
        return components.copy();
    }

    /**
     * The dimension d.
     *
     * @return d
     */
    public int dimension() {
        return components.rows();
    }

    /**
     * The number of components k.
     *
     * @return k
     */
    public int k() {
        return components.cols();
    }

    /**
     * Released eigenvalue estimates for the k components, if the algorithm releases them.
     *
     * @return a copy of the k estimates, or empty
     */
    public Optional<double[]> explainedVariance() {
        return Optional.ofNullable(explainedVariance).map(double[]::clone);
    }

    /**
     * The privacy guarantee; empty only for non-private references.
     *
     * @return the guarantee, or empty
     */
    public Optional<PrivacyGuarantee> guarantee() {
        return Optional.ofNullable(guarantee);
    }

    /**
     * Facts about the run (not private: see {@link Diagnostics}).
     *
     * @return the diagnostics
     */
    public Diagnostics diagnostics() {
        return diagnostics;
    }

    /**
     * The first {@code k} components and their eigenvalues, with the same guarantee and diagnostics:
     * post-processing, for a subspace fitted for more components than are kept.
     *
     * @param k the number kept, 1 ≤ k ≤ {@link #k()}
     * @return the leading subspace
     */
    public PrivateSubspace leading(int k) {
        if (k < 1 || k > k()) {
            throw new IllegalArgumentException("cannot keep " + k + " of " + k() + " components");
        }
        return new PrivateSubspace(algorithm, components.leadingColumns(k),
                explainedVariance == null ? null : java.util.Arrays.copyOf(explainedVariance, k), guarantee,
                diagnostics);
    }

    /**
     * The k coordinates Uᵀx of a row. Post-processing: spends no budget.
     *
     * @param row a row of length d
     * @return a new array of k coordinates
     */
    public double[] transform(double[] row) {
        return components.transposeTimes(row);
    }
}
