package io.dpspectra.covariance;

import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Objects;

/**
 * A private spectrum for choosing the number of components: the eigenvalues of a private release of
 * XᵀX (Gaussian mechanism for (ε, δ) with δ &gt; 0, Laplace mechanism for pure ε; clamped at 0), their
 * sum as the private trace, and the cumulative explained-variance ratios r_k = (λ̂_1 + … + λ̂_k)/Σλ̂. The
 * chosen k is the smallest with r_k ≥ T: post-processing of the release.
 *
 * <p>Units: λ̂ are eigenvalues of XᵀX of the (preprocessed) rows, a sum over rows, not divided by n; the
 * ratios are unit-free.
 *
 * <p>Privacy: exactly that of the covariance release it makes ({@link GaussianCovariance} or
 * {@link LaplaceCovariance}, whose guarantee it returns): one row with the source's declared L2 bound,
 * under the given relation.
 *
 * <p>Cost: one pass and O(nd²) for XᵀX, O(d³) for the eigenvalues.
 */
public final class PrivateSpectrum {
    private final double[] eigenvalues;
    private final double trace;
    private final double[] ratios;
    private final int k;
    private final double threshold;
    private final PrivacyGuarantee guarantee;

    private PrivateSpectrum(double[] eigenvalues, double threshold, PrivacyGuarantee guarantee) {
        this.eigenvalues = eigenvalues;
        this.threshold = threshold;
        this.guarantee = guarantee;
        double t = 0;
        for (double v : eigenvalues) {
            t += Math.max(0, v);
        }
        this.trace = t;
        this.ratios = new double[eigenvalues.length];
        double c = 0;
        int chosen = eigenvalues.length;
        for (int i = 0; i < eigenvalues.length; i++) {
            c += Math.max(0, eigenvalues[i]);
            ratios[i] = t > 0 ? c / t : (i + 1.0) / eigenvalues.length;
            if (ratios[i] >= threshold && chosen == eigenvalues.length) {
                chosen = i + 1;
            }
        }
        this.k = chosen;
    }

    /**
     * Releases the spectrum of {@code rows} (which must declare an L2 bound) for {@code budget} and picks
     * the smallest k whose ratio reaches {@code threshold} in (0, 1].
     */
    public static PrivateSpectrum release(RowSource rows, PrivacyParams budget, Neighbouring neighbouring,
                                          RandomSource random, double threshold) {
        Objects.requireNonNull(budget, "budget");
        if (!(threshold > 0 && threshold <= 1)) {
            throw new IllegalArgumentException("the explained-variance threshold must be in (0, 1], got " + threshold);
        }
        DpPreconditions.checkEpsilon(budget.epsilon());
        PrivateCovariance c = budget.isPure()
                ? LaplaceCovariance.builder().neighbouring(neighbouring).randomSource(random)
                        .sensitivity(LaplaceCovariance.Sensitivity.TIGHT).build().release(rows, budget)
                : GaussianCovariance.builder().neighbouring(neighbouring).randomSource(random).build().release(rows, budget);
        return new PrivateSpectrum(c.eigenvalues(), threshold, c.guarantee());
    }

    /** The released eigenvalues, descending (XᵀX units: a sum over rows). */
    public double[] eigenvalues() {
        return eigenvalues.clone();
    }

    /** The private trace Σ max(λ̂_i, 0). */
    public double trace() {
        return trace;
    }

    /** Cumulative explained-variance ratios r_1 … r_d. */
    public double[] ratios() {
        return ratios.clone();
    }

    /** The chosen k: the smallest with r_k ≥ threshold. */
    public int k() {
        return k;
    }

    public double threshold() {
        return threshold;
    }

    public PrivacyGuarantee guarantee() {
        return guarantee;
    }
}
