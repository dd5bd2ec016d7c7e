package io.dpspectra.pca;

import io.dpspectra.Diagnostics;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.privacy.PrivacyGuarantee;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of a subspace estimator: d × k orthonormal components, optional eigenvalue (explained
 * variance) estimates, the privacy guarantee of the release (empty for non-private references such as
 * {@link ExactPca}) and diagnostics. Immutable: accessors return copies.
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

    public String algorithm() {
        return algorithm;
    }

    /** d × k, orthonormal columns (a copy). */
    public Matrix components() {
        return components.copy();
    }

    public int dimension() {
        return components.rows();
    }

    public int k() {
        return components.cols();
    }

    /** Released eigenvalue estimates for the k components, if the algorithm releases them. */
    public Optional<double[]> explainedVariance() {
        return Optional.ofNullable(explainedVariance).map(double[]::clone);
    }

    /** The privacy guarantee; empty only for non-private references. */
    public Optional<PrivacyGuarantee> guarantee() {
        return Optional.ofNullable(guarantee);
    }

    public Diagnostics diagnostics() {
        return diagnostics;
    }

    /**
     * The first {@code k} components and their eigenvalues, with the same guarantee and diagnostics:
     * post-processing, for a subspace fitted for more components than are kept.
     */
    public PrivateSubspace leading(int k) {
        if (k < 1 || k > k()) {
            throw new IllegalArgumentException("cannot keep " + k + " of " + k() + " components");
        }
        return new PrivateSubspace(algorithm, components.leadingColumns(k),
                explainedVariance == null ? null : java.util.Arrays.copyOf(explainedVariance, k), guarantee,
                diagnostics);
    }

    /** The k coordinates Uᵀx of a row. Post-processing: spends no budget. */
    public double[] transform(double[] row) {
        return components.transposeTimes(row);
    }
}
