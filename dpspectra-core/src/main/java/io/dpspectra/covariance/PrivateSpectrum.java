package io.dpspectra.covariance;

import io.dpspectra.data.PrivateTrace;
import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;
import java.util.Objects;

/**
 * A private spectrum for choosing the number of components: private eigenvalues λ̂ (clamped at 0), a
 * private trace T̂, and the cumulative explained-variance ratios r_k = (λ̂_1 + … + λ̂_k)/T̂ (capped at 1).
 * The chosen k is the smallest with r_k ≥ the threshold (d when none reaches it): post-processing of
 * released quantities. Two sources:
 * <ul>
 *   <li>{@link #release}: a separate spend, a private release of XᵀX (Gaussian mechanism for (ε, δ) with
 *       δ &gt; 0, Laplace mechanism for pure ε) whose eigenvalues give λ̂ and whose clamped sum gives T̂;
 *       for estimators that release no eigenvalues;</li>
 *   <li>{@link #fromReleased}: the eigenvalues an estimator already released (e.g. DP-Gauss-1's noisy XᵀX,
 *       or the Laplace eigenvalues of iterative eigenvector sampling) over a {@link PrivateTrace}: only the
 *       trace is spent.</li>
 * </ul>
 *
 * <p>Units: λ̂ and T̂ are in XᵀX units of the (preprocessed) rows, a sum over rows, not divided by n; the
 * ratios are unit-free.
 *
 * <p>Privacy: {@link #guarantee()} is what THIS object spent: the covariance release
 * ({@link GaussianCovariance} or {@link LaplaceCovariance}) or the private trace; eigenvalues taken from an
 * estimator are covered by the estimator's own guarantee.
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
    private final String source;

    private PrivateSpectrum(double[] eigenvalues, double trace, double threshold, PrivacyGuarantee guarantee,
                            String source) {
        this.eigenvalues = eigenvalues;
        this.threshold = threshold;
        this.guarantee = guarantee;
        this.source = source;
        double t = trace;
        this.trace = t;
        this.ratios = new double[eigenvalues.length];
        double c = 0;
        int chosen = eigenvalues.length;
        for (int i = 0; i < eigenvalues.length; i++) {
            c += Math.max(0, eigenvalues[i]);
            ratios[i] = t > 0 ? Math.min(1, c / t) : (i + 1.0) / eigenvalues.length;
            if (ratios[i] >= threshold && chosen == eigenvalues.length) {
                chosen = i + 1;
            }
        }
        this.k = chosen;
    }

    /**
     * Releases the spectrum of {@code rows} (which must declare an L2 bound) for {@code budget} and picks
     * the smallest k whose ratio reaches {@code threshold} in (0, 1].
     *
     * @param rows         the rows; they must declare an L2 bound
     * @param budget       the (ε, δ) to spend on the spectrum and the trace
     * @param neighbouring the relation the guarantee is stated for
     * @param random       the randomness of the noise
     * @param threshold    the explained-variance ratio to reach
     * @return the released eigenvalues, trace, ratios and k
     */
    public static PrivateSpectrum release(RowSource rows, PrivacyParams budget, Neighbouring neighbouring,
                                          RandomSource random, double threshold) {
        Objects.requireNonNull(budget, "budget");
        checkThreshold(threshold);
        DpPreconditions.checkEpsilon(budget.epsilon());
        PrivateCovariance c = budget.isPure()
                ? LaplaceCovariance.builder().neighbouring(neighbouring).randomSource(random)
                        .sensitivity(LaplaceCovariance.Sensitivity.TIGHT).build().release(rows, budget)
                : GaussianCovariance.builder().neighbouring(neighbouring).randomSource(random).build().release(rows, budget);
        double[] ev = c.eigenvalues();
        double t = 0;
        for (double v : ev) {
            t += Math.max(0, v);
        }
        return new PrivateSpectrum(ev, t, threshold, c.guarantee(), "a separate private covariance release ("
                + c.guarantee().mechanism() + "): its eigenvalues over their clamped sum");
    }

    /**
     * The spectrum from eigenvalues an estimator has already released (all d, descending; post-processing)
     * over a private trace, and the smallest k whose ratio reaches {@code threshold} in (0, 1]. The guarantee
     * is the trace's.
     *
     * @param releasedEigenvalues the d eigenvalues, descending
     * @param trace               the private trace
     * @param threshold           the explained-variance ratio to reach
     * @param estimator           the name of the estimator that released the eigenvalues
     * @return the spectrum, its ratios and k
     */
    public static PrivateSpectrum fromReleased(double[] releasedEigenvalues, PrivateTrace.Result trace,
                                               double threshold, String estimator) {
        Objects.requireNonNull(trace, "trace");
        checkThreshold(threshold);
        return new PrivateSpectrum(releasedEigenvalues.clone(), trace.trace(), threshold, trace.guarantee(),
                "the eigenvalues released by " + estimator + " (post-processing) over a "
                        + trace.guarantee().mechanism());
    }

    private static void checkThreshold(double threshold) {
        if (!(threshold > 0 && threshold <= 1)) {
            throw new IllegalArgumentException("the explained-variance threshold must be in (0, 1], got " + threshold);
        }
    }

    /**
     * Where the eigenvalues and the trace come from, in words.
     *
     * @return the source
     */
    public String source() {
        return source;
    }

    /**
     * The released eigenvalues, descending (XᵀX units: a sum over rows).
     *
     * @return a copy of the d eigenvalues
     */
    public double[] eigenvalues() {
        return eigenvalues.clone();
    }

    /**
     * The private trace T̂ (XᵀX units).
     *
     * @return T̂
     */
    public double trace() {
        return trace;
    }

    /**
     * Cumulative explained-variance ratios r_1 … r_d (unit-free, capped at 1).
     *
     * @return a copy of the d ratios
     */
    public double[] ratios() {
        return ratios.clone();
    }

    /**
     * The chosen k: the smallest with r_k ≥ threshold.
     *
     * @return k, 1 ≤ k ≤ d
     */
    public int k() {
        return k;
    }

    /**
     * The explained-variance ratio k was chosen for.
     *
     * @return the threshold, in (0, 1]
     */
    public double threshold() {
        return threshold;
    }

    /**
     * What the release satisfies.
     *
     * @return the guarantee
     */
    public PrivacyGuarantee guarantee() {
        return guarantee;
    }
}
