package io.dpspectra.local;

import io.dpspectra.Diagnostics;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.result.PrivateSubspace;
import java.util.Arrays;
import java.util.Objects;

/**
 * The server's average of n local reports, S̃ = (1/n) Σ (x_i x_iᵀ + Z_i), with the public parameters they
 * were made under. S̃ is post-processing of (ε, δ)-LDP reports, and so is everything computed from it.
 *
 * <p>What the local model protects: the content of each client's record, against the server and anyone
 * who sees the reports. It does not hide who reported or how many did: the server receives every report,
 * so n is public in this model (as under replace-one), and the release states it as such.
 *
 * @param parameters the public parameters of every report
 * @param reports    n, the number of reports averaged (public in the local model)
 * @param mean       S̃, p × p symmetric (not copied)
 */
public record LocalAggregate(ReportParameters parameters, long reports, Matrix mean) {
    /**
     * Validates the aggregate.
     *
     * @param parameters the public parameters of every report
     * @param reports    n, ≥ 1
     * @param mean       S̃, p × p symmetric (not copied)
     * @throws IllegalArgumentException when {@code reports} &lt; 1
     */
    public LocalAggregate {
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(mean, "mean");
        if (reports < 1) {
            throw new IllegalArgumentException("an aggregate needs at least one report, got " + reports);
        }
    }

    /**
     * The standard deviation of each entry of the averaged privacy noise, σ/√n.
     *
     * @return σ/√n
     */
    public double noiseStdOfMean() {
        return parameters.sigma() / Math.sqrt(reports);
    }

    /**
     * The guarantee every release from this aggregate carries: that of each report.
     *
     * @return the reports' (ε, δ)-LDP guarantee
     */
    public PrivacyGuarantee guarantee() {
        return LocalCovarianceRandomizer.guarantee(parameters);
    }

    /**
     * The top-k principal subspace of S̃ (eigenvectors of the k largest algebraic eigenvalues; Wang &amp;
     * Xu Algorithm 1 step 5), with those eigenvalues as explained variance.
     *
     * @param k the number of components, 1 ≤ k ≤ p
     * @return the p × k basis with its eigenvalues and the reports' guarantee
     */
    public PrivateSubspace topComponents(int k) {
        int p = parameters.dimension();
        DpPreconditions.checkComponents(k, p);
        SymmetricEigen top = SymmetricEigen.top(mean, k);
        return new PrivateSubspace("ldp", top.vectors(), Arrays.copyOf(top.values(), k), guarantee(),
                Diagnostics.builder().put("reports", reports).put("sigma", parameters.sigma())
                        .put("noiseStdOfMean", noiseStdOfMean()).build());
    }
}
