package io.dpspectra.privacy.pld;

import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import java.util.Objects;

/**
 * A privacy loss distribution (PLD): the distribution of the privacy loss ln(P(o)/Q(o)), o ~ P, for the pair of
 * output distributions (P, Q) that dominates a mechanism, discretised on the multiples of an interval h so that its
 * privacy curve δ(ε) is never below the mechanism's: the accountant is never optimistic.
 *
 * <p>Composition of mechanisms is convolution of their PLDs (Sommer, Meiser &amp; Mohammadi, PoPETs 2019;
 * Koskela, Jälkö &amp; Honkela, AISTATS 2020), done here by our own FFT with its floating-point error bounded and
 * added ({@link Fft}); adaptive composition is covered because the product of dominating pairs dominates the
 * composition (Zhu, Dong &amp; Wang, AISTATS 2022, Theorem 10). Each mechanism's distribution comes from its exact
 * privacy curve by the pessimistic "connect the dots" discretisation (Doroshenko et al., PETS 2022), the method
 * of Google's {@code dp_accounting}.
 *
 * <p>Two directions are kept, "remove" (P = M(D), Q = M(D') with D' one record smaller) and "add", because a
 * subsampled mechanism is asymmetric; a mechanism is (ε, δ)-DP for δ = max of the two curves (the same curve for
 * symmetric mechanisms, and for every replace-one pair, which is symmetric by construction here).
 *
 * <p>Errors, all on the safe side: the discretisation (connect the dots), the curves' evaluation
 * (1e−14 per mechanism for normal tails, 1e−15 for elementary ones), the convolutions (a bound from Higham's FFT error
 * analysis), tails of mass ≤ {@value LossPmf#TAIL} cut per convolution (moved to higher losses), and the final
 * sums (rounded up). How far above the exact curve the result lies is measured in the tests against closed forms
 * (about 1e−5 relative in δ at h = 1e−4 for Gaussian compositions).
 *
 * <p>Cost: a mechanism on [ε_lo, ε_hi] has (ε_hi − ε_lo)/h entries (a Gaussian of μ = 1 at h = 1e−4: 185,000);
 * a composition costs three FFTs of the next power of two above the summed lengths; k self-compositions take
 * about 2·log₂k of them.
 */
public final class PrivacyLossDistribution {
    /** Default discretisation interval h of the losses (as Google's dp_accounting). */
    public static final double DEFAULT_DISCRETIZATION = 1e-4;

    private final LossPmf remove;
    private final LossPmf add;

    private PrivacyLossDistribution(LossPmf remove, LossPmf add) {
        this.remove = remove;
        this.add = add;
    }

    private static PrivacyLossDistribution symmetric(LossPmf pmf) {
        return new PrivacyLossDistribution(pmf, pmf);
    }

    private static double checkInterval(double h) {
        if (!(h > 0 && h <= 1) || !Double.isFinite(h)) {
            throw new IllegalArgumentException("discretisation interval must be in (0, 1], got " + h);
        }
        return h;
    }

    /**
     * The distribution of a mechanism that reveals nothing (loss 0): the neutral element of composition.
     *
     * @param h       the discretisation interval of the privacy loss, in (0, 1]
     * @return the distribution
     */
    public static PrivacyLossDistribution identity(double h) {
        return symmetric(LossPmf.identity(checkInterval(h)));
    }

    /**
     * The Gaussian mechanism (continuous noise) with μ = sensitivity/σ, or any adaptive composition of Gaussian
     * mechanisms with μ = √(Σμ_i²): symmetric, δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2).
     *
     * @param mu      μ = sensitivity / σ, &gt; 0
     * @param h       the discretisation interval of the privacy loss, in (0, 1]
     * @return the distribution
     */
    public static PrivacyLossDistribution gaussian(double mu, double h) {
        DpPreconditions.checkPositive("mu (sensitivity / sigma)", mu);
        return symmetric(ConnectTheDots.discretise(Curves.gaussian(mu), checkInterval(h)));
    }

    /**
     * The Laplace mechanism (continuous noise) with ε₀ = sensitivity/scale: δ(ε) = 1 − e^{(ε − ε₀)/2}.
     *
     * @param epsilon0 ε₀ = sensitivity / scale
     * @param h        the discretisation interval of the privacy loss, in (0, 1]
     * @return the distribution
     */
    public static PrivacyLossDistribution laplace(double epsilon0, double h) {
        DpPreconditions.checkEpsilon(epsilon0);
        return symmetric(ConnectTheDots.discretise(Curves.laplace(epsilon0), checkInterval(h)));
    }

    /**
     * Discrete Laplace noise on ℤ with P(k) ∝ e^{−|k|/scale} added to an integer-valued function whose neighbours
     * differ by at most {@code shift} (the lattice mechanism of {@code LaplaceNoise} in units of its granularity).
     *
     * @param shift the largest difference of neighbours' values, ≥ 1
     * @param scale the noise scale, &gt; 0
     * @param h       the discretisation interval of the privacy loss, in (0, 1]
     * @return the distribution
     */
    public static PrivacyLossDistribution discreteLaplace(long shift, double scale, double h) {
        DpPreconditions.checkAtLeast("shift", (int) Math.min(Integer.MAX_VALUE, shift), 1);
        DpPreconditions.checkPositive("scale", scale);
        return symmetric(ConnectTheDots.discretise(Curves.discreteLaplace(shift, scale), checkInterval(h)));
    }

    /**
     * Any ε-DP mechanism (the exponential mechanism, randomized response, Laplace noise on several coordinates):
     * randomized response with parameter ε, which every ε-DP mechanism post-processes (Kairouz, Oh &amp; Viswanath
     * 2015).
     *
     * @param epsilon ε
     * @param h       the discretisation interval of the privacy loss, in (0, 1]
     * @return the distribution
     */
    public static PrivacyLossDistribution pureDp(double epsilon, double h) {
        return approximateDp(epsilon, 0, h);
    }

    /**
     * Any (ε, δ)-DP mechanism, through the four-outcome mechanism that dominates them all (Kairouz et al. 2015).
     *
     * @param epsilon ε
     * @param delta   δ in [0, 1)
     * @param h       the discretisation interval of the privacy loss, in (0, 1]
     * @return the distribution
     */
    public static PrivacyLossDistribution approximateDp(double epsilon, double delta, double h) {
        DpPreconditions.checkEpsilon(epsilon);
        DpPreconditions.checkDelta(delta);
        checkInterval(h);
        long a = (long) Math.floor(epsilon / h);
        long b = (long) Math.ceil(epsilon / h);
        // the grid points around ±ε, distinct and increasing (ε below h gives -1, 0, 1)
        long[] grid = java.util.stream.LongStream.of(-b, -a, a, b).distinct().sorted().toArray();
        return symmetric(ConnectTheDots.discretise(Curves.approximate(epsilon, delta), h, grid));
    }

    /**
     * One step of the Poisson-subsampled Gaussian mechanism: each record joins the batch independently with
     * probability q, the batch's sum of per-record terms of norm ≤ 1 gets Gaussian noise of standard deviation
     * {@code noiseMultiplier} (per unit of that norm bound). Under {@link Neighbouring#REPLACE_ROW} the exact
     * replace-one pair (Lebeda et al. 2024, Proposition 13) is used, not group privacy.
     *
     * @param q               the sampling rate, in (0, 1]
     * @param noiseMultiplier the noise std per unit of the norm bound, &gt; 0
     * @param relation        add/remove or replace-one rows
     * @param h               the discretisation interval of the privacy loss, in (0, 1]
     * @return the distribution of one step
     */
    public static PrivacyLossDistribution poissonSubsampledGaussian(double q, double noiseMultiplier,
                                                                    Neighbouring relation, double h) {
        if (!(q > 0 && q <= 1)) {
            throw new IllegalArgumentException("sampling rate must be in (0, 1], got " + q);
        }
        DpPreconditions.checkPositive("noise multiplier", noiseMultiplier);
        checkInterval(h);
        Objects.requireNonNull(relation, "relation");
        if (relation == Neighbouring.REPLACE_ROW) {
            return symmetric(ConnectTheDots.discretise(
                    Curves.subsampledGaussian(q, noiseMultiplier, Curves.Direction.REPLACE), h));
        }
        if (relation != Neighbouring.ADD_REMOVE_ROW) {
            throw new IllegalArgumentException("the subsampled Gaussian is accounted for row relations, got " + relation);
        }
        if (q == 1) {
            return gaussian(1 / noiseMultiplier, h);
        }
        return new PrivacyLossDistribution(
                ConnectTheDots.discretise(Curves.subsampledGaussian(q, noiseMultiplier, Curves.Direction.REMOVE), h),
                ConnectTheDots.discretise(Curves.subsampledGaussian(q, noiseMultiplier, Curves.Direction.ADD), h));
    }

    /**
     * The composition of this mechanism and {@code other} (in either order, adaptively chosen or not).
     *
     * @param other the other mechanism (same discretisation interval)
     * @return the composition
     */
    public PrivacyLossDistribution compose(PrivacyLossDistribution other) {
        Objects.requireNonNull(other, "other");
        LossPmf r = remove.compose(other.remove);
        LossPmf a = add == remove && other.add == other.remove ? r : add.compose(other.add);
        return new PrivacyLossDistribution(r, a);
    }

    /**
     * This mechanism composed with itself k ≥ 1 times.
     *
     * @param k the number of runs, ≥ 1
     * @return the k-fold composition
     */
    public PrivacyLossDistribution selfCompose(int k) {
        DpPreconditions.checkAtLeast("number of compositions", k, 1);
        LossPmf r = remove.selfCompose(k);
        LossPmf a = add == remove ? r : add.selfCompose(k);
        return new PrivacyLossDistribution(r, a);
    }

    /**
     * The smallest δ for which the mechanism is (ε, δ)-DP by this distribution (an upper bound on the exact one).
     *
     * @param epsilon ε
     * @return δ(ε), never below the exact one
     */
    public double deltaForEpsilon(double epsilon) {
        if (Double.isNaN(epsilon)) {
            throw new IllegalArgumentException("epsilon must be a number, got NaN");
        }
        double d = remove.deltaForEpsilon(epsilon);
        return add == remove ? d : Math.max(d, add.deltaForEpsilon(epsilon));
    }

    /**
     * The smallest ε ≥ 0 for which the mechanism is (ε, δ)-DP by this distribution (never below the exact one), or
     * +∞ when no finite ε reaches δ.
     *
     * @param delta δ in [0, 1)
     * @return ε, or +∞
     */
    public double epsilonForDelta(double delta) {
        DpPreconditions.checkDelta(delta);
        double e = remove.epsilonForDelta(delta);
        return add == remove ? e : Math.max(e, add.epsilonForDelta(delta));
    }

    /**
     * The discretisation interval h.
     *
     * @return h
     */
    public double discretization() {
        return remove.h;
    }

    /** Bound on the floating-point error carried (already included in every δ). */
    double errorBound() {
        return Math.max(remove.error, add.error);
    }

    /** Number of stored losses (the larger direction). */
    int size() {
        return Math.max(remove.probs.length, add.probs.length);
    }
}
