package io.dpspectra.result;

import io.dpspectra.Diagnostics;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.privacy.PrivacyGuarantee;
import java.util.Objects;

/**
 * A released (uncentred) second-moment matrix XᵀX, symmetric d × d, with its guarantee and
 * diagnostics. Everything derived from it (eigenpairs, top-k subspace) is post-processing.
 */
public final class PrivateCovariance {
    private final String algorithm;
    private final Matrix matrix;
    private final PrivacyGuarantee guarantee;
    private final Diagnostics diagnostics;
    private SymmetricEigen eigen; // released pairs, or lazily computed post-processing

    /**
     * A release given as a matrix; eigenpairs are computed from it when asked for (post-processing).
     *
     * @param algorithm   the mechanism's name
     * @param matrix      the released d × d symmetric matrix (copied)
     * @param guarantee   what the release satisfies
     * @param diagnostics facts about the run (not private)
     */
    public PrivateCovariance(String algorithm, Matrix matrix, PrivacyGuarantee guarantee, Diagnostics diagnostics) {
        this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
        if (!matrix.isSquare()) {
            throw new IllegalArgumentException("covariance must be square, got " + matrix.rows() + " x " + matrix.cols());
        }
        this.matrix = matrix.copy();
        this.guarantee = Objects.requireNonNull(guarantee, "guarantee");
        this.diagnostics = Objects.requireNonNull(diagnostics, "diagnostics");
    }

    /**
     * A release made of eigenpairs (Amin et al.'s Ĉ = Σ λ̂_i θ̂_i θ̂_iᵀ): {@code matrix} must equal
     * Θ diag(λ) Θᵀ. When Θ is d × d (all vectors sampled) the released pairs are kept as they are, so
     * {@link #eigenvalues()} and {@link #eigenvectors()} return exactly what was sampled rather than a
     * re-decomposition. Not modified: arguments (copied).
     *
     * @param algorithm    the mechanism's name
     * @param eigenvalues  the released eigenvalues λ, descending
     * @param eigenvectors Θ, d × k, column j paired with eigenvalue j
     * @param matrix       Θ diag(λ) Θᵀ, d × d
     * @param guarantee    what the release satisfies
     * @param diagnostics  facts about the run (not private)
     */
    public PrivateCovariance(String algorithm, double[] eigenvalues, Matrix eigenvectors, Matrix matrix,
                             PrivacyGuarantee guarantee, Diagnostics diagnostics) {
        this(algorithm, matrix, guarantee, diagnostics);
        if (eigenvectors.rows() != matrix.rows() || eigenvectors.cols() != eigenvalues.length) {
            throw new IllegalArgumentException("eigenvectors must be " + matrix.rows() + " x " + eigenvalues.length
                    + ", got " + eigenvectors.rows() + " x " + eigenvectors.cols());
        }
        for (int i = 1; i < eigenvalues.length; i++) {
            if (eigenvalues[i] > eigenvalues[i - 1]) {
                throw new IllegalArgumentException("eigenvalues must be sorted descending; entry " + i + " is "
                        + eigenvalues[i] + " > " + eigenvalues[i - 1]);
            }
        }
        if (eigenvalues.length == matrix.rows()) {
            this.eigen = new SymmetricEigen(eigenvalues.clone(), eigenvectors.copy());
        }
    }

    /**
     * The name of the mechanism that made the release.
     *
     * @return the name, e.g. "gaussian-covariance"
     */
    public String algorithm() {
        return algorithm;
    }

    /**
     * The released d × d matrix (a copy).
     *
     * @return a copy of the matrix
     */
    public Matrix matrix() {
        return matrix.copy();
    }

    /**
     * The dimension d.
     *
     * @return d
     */
    public int dimension() {
        return matrix.rows();
    }

    /**
     * What the release satisfies.
     *
     * @return the guarantee
     */
    public PrivacyGuarantee guarantee() {
        return guarantee;
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
     * Ridge regression of column {@code target} on the other columns from the release alone
     * (post-processing, free of further privacy cost): the minimiser of ‖X′w − y‖² + α‖w‖² (Amin et al.
     * App. C.2's scaling), i.e. ŵ = (Â + αI)⁻¹b̂ with Â the release without row and column t and b̂ its
     * column t. Section 1.1's objective (1/n)Σ½(wᵀx(−t) − x(t))² + α‖w‖² is
     * {@link #ridge(int, double, long)}.
     *
     * @param target the predicted column t
     * @param alpha  α, ≥ 0
     * @return the fitted model
     */
    public CovarianceRidge ridge(int target, double alpha) {
        return CovarianceRidge.fit(matrix, target, alpha, CovarianceRidge.Scaling.APPENDIX_C2, 0);
    }

    /**
     * Ridge regression with Amin et al.'s Section 1.1 scaling, ŵ = (Â + 2αnI)⁻¹b̂, for the public number of
     * rows n.
     *
     * @param target the predicted column t
     * @param alpha  α, ≥ 0
     * @param n      the public number of rows, ≥ 1
     * @return the fitted model
     */
    public CovarianceRidge ridge(int target, double alpha, long n) {
        return CovarianceRidge.fit(matrix, target, alpha, CovarianceRidge.Scaling.SECTION_1_1, n);
    }

    private synchronized SymmetricEigen eigen() {
        if (eigen == null) {
            eigen = SymmetricEigen.of(matrix);
        }
        return eigen;
    }

    /**
     * Eigenvalues of the release, descending.
     *
     * @return the d eigenvalues (a copy)
     */
    public double[] eigenvalues() {
        return eigen().values().clone();
    }

    /**
     * Eigenvectors of the release (d × d, column j pairs with eigenvalue j).
     *
     * @return a copy of the d × d eigenvectors
     */
    public Matrix eigenvectors() {
        return eigen().vectors().copy();
    }

    /**
     * The top-k eigenvectors and eigenvalues of the release, as a subspace with the same guarantee.
     *
     * @param k the number of components, 1 ≤ k ≤ d
     * @return the d × k basis and its eigenvalues, with this release's guarantee
     */
    public PrivateSubspace topK(int k) {
        io.dpspectra.privacy.DpPreconditions.checkComponents(k, dimension());
        SymmetricEigen e = eigen();
        return new PrivateSubspace(algorithm, e.vectors().leadingColumns(k),
                java.util.Arrays.copyOf(e.values(), k), guarantee, diagnostics);
    }
}
