package io.dpspectra.covariance;

import io.dpspectra.Diagnostics;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.pca.PrivateSubspace;
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
    private SymmetricEigen eigen; // lazily computed post-processing

    public PrivateCovariance(String algorithm, Matrix matrix, PrivacyGuarantee guarantee, Diagnostics diagnostics) {
        this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
        if (!matrix.isSquare()) {
            throw new IllegalArgumentException("covariance must be square, got " + matrix.rows() + " x " + matrix.cols());
        }
        this.matrix = matrix.copy();
        this.guarantee = Objects.requireNonNull(guarantee, "guarantee");
        this.diagnostics = Objects.requireNonNull(diagnostics, "diagnostics");
    }

    public String algorithm() {
        return algorithm;
    }

    /** The released d × d matrix (a copy). */
    public Matrix matrix() {
        return matrix.copy();
    }

    public int dimension() {
        return matrix.rows();
    }

    public PrivacyGuarantee guarantee() {
        return guarantee;
    }

    public Diagnostics diagnostics() {
        return diagnostics;
    }

    private synchronized SymmetricEigen eigen() {
        if (eigen == null) {
            eigen = SymmetricEigen.of(matrix);
        }
        return eigen;
    }

    /** Eigenvalues of the release, descending. */
    public double[] eigenvalues() {
        return eigen().values().clone();
    }

    /** Eigenvectors of the release (d × d, column j pairs with eigenvalue j). */
    public Matrix eigenvectors() {
        return eigen().vectors().copy();
    }

    /** The top-k eigenvectors and eigenvalues of the release, as a subspace with the same guarantee. */
    public PrivateSubspace topK(int k) {
        io.dpspectra.privacy.DpPreconditions.checkComponents(k, dimension());
        SymmetricEigen e = eigen();
        return new PrivateSubspace(algorithm, e.vectors().leadingColumns(k),
                java.util.Arrays.copyOf(e.values(), k), guarantee, diagnostics);
    }
}
