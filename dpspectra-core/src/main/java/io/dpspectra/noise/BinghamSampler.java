package io.dpspectra.noise;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import java.util.Objects;

/**
 * Draws an exact sample from the Bingham distribution on the unit sphere S^{q−1}, density (w.r.t. the
 * uniform measure) ∝ exp(κ·uᵀCu) for a symmetric q × q matrix C (possibly indefinite) and κ ≥ 0:
 * the exponential mechanism with utility uᵀCu used by Amin et al.'s iterative eigenvector sampling.
 *
 * <p>Method: Kent, Ganeiber &amp; Mardia's rejection sampler with an angular-central-Gaussian (ACG)
 * envelope, with the three corrections of the spec to Amin et al.'s printed Algorithm 2 (A-C1…A-C3):
 * <ol>
 *   <li>Kent's form f(u) ∝ exp(−uᵀAu) with A = κ(c_max·I − C), shifted by the <b>largest</b>
 *       eigenvalue of C so that A ⪰ 0 with minimum eigenvalue 0 (the paper shifts by λ_d);</li>
 *   <li>b solves Σ_j 1/(b + 2a_j) = <b>1</b> (the paper prints "= 0", which has no root); the root lies
 *       in [1, q] and is found by Newton from b = 1, safeguarded by bisection. Exactness does not
 *       depend on b's accuracy: the envelope bound holds for every b ∈ (0, q];</li>
 *   <li>a proposal u ~ ACG(Ω), Ω = I + 2A/b, is accepted with probability
 *       exp(−uᵀAu)·(uᵀΩu)^{q/2}/M, log M = −(q − b)/2 + (q/2)·ln(q/b); the paper <b>divides</b> by
 *       (uᵀΩu)^{q/2}, which samples a different, over-concentrated law. The test is done in log space
 *       (uᵀAu reaches 10⁴ in Amin et al.'s grid, and M overflows for large q).</li>
 * </ol>
 * Proposals are drawn in the eigenbasis of C, where Ω is diagonal: y_j = g_j/√ω_j with g ~ N(0, I_q),
 * then y/‖y‖; the result is u = W·y. One q × q eigendecomposition per call; O(q) per proposal.
 *
 * <p>Privacy: a building block, not a mechanism by itself. Used with κ = ε/(2Δ_u) it is the
 * exponential mechanism for a utility of sensitivity Δ_u, and it is exact (no truncated MCMC), which
 * the ε-DP proof needs. The standard normals of the proposals come from
 * {@link RandomSource#standardNormal()} (Marsaglia's polar method: exact in real arithmetic, 53-bit
 * uniforms) and the uniforms of the acceptance test from {@link RandomSource#nextDouble()}; no other
 * randomness. <b>Timing side channel:</b> the number of proposals depends on C (so on the data); it is
 * reported in {@link Sample#proposals()} and must not be published as part of a release.
 *
 * <p>Reference: J. T. Kent, A. M. Ganeiber, K. V. Mardia, "A new unified approach for the simulation
 * of a wide class of directional distributions", JCGS 2018; papers/dp-covariance-estimation.txt
 * (Amin et al. 2019) Algorithm 2 as corrected in spec robust-local-covariance.md K9, §5.2, A-C1…A-C4.
 *
 * <p>Cost: O(q³) for the eigendecomposition, O(q) per proposal (expected number of proposals ≤ M,
 * about 1–3 at Amin et al.'s settings), O(q²) for the final rotation; memory O(q²).
 */
public final class BinghamSampler {
    /** Default cap on the number of proposals per sample. */
    public static final long DEFAULT_MAX_PROPOSALS = 1_000_000L;

    /** The acceptance rule: the corrected one, or the misprint, kept only for the negative test. */
    enum AcceptanceRule {
        /** exp(−t)·(uᵀΩu)^{q/2}/M: Kent et al.'s ratio f/(M·g), exact. */
        CORRECTED,
        /** exp(−t)·(uᵀΩu)^{−q/2}/M as printed in Amin et al. Alg. 2 step 4(b): samples the WRONG law. */
        PRINTED_MISPRINT
    }

    /** A sample and how many proposals it took. */
    public record Sample(double[] u, long proposals) {
    }

    private final RandomSource random;
    private final long maxProposals;
    private final AcceptanceRule rule;
    private long totalProposals;
    private long samples;

    private BinghamSampler(RandomSource random, long maxProposals, AcceptanceRule rule) {
        this.random = Objects.requireNonNull(random, "random");
        if (maxProposals < 1) {
            throw new IllegalArgumentException("maxProposals must be >= 1, got " + maxProposals);
        }
        this.maxProposals = maxProposals;
        this.rule = rule;
    }

    /**
     * A sampler with the default proposal cap ({@value #DEFAULT_MAX_PROPOSALS}).
     *
     * @param random the randomness of the proposals and of the acceptance tests
     */
    public BinghamSampler(RandomSource random) {
        this(random, DEFAULT_MAX_PROPOSALS, AcceptanceRule.CORRECTED);
    }

    /**
     * A sampler that throws {@link SamplerExhaustedException} after {@code maxProposals} proposals.
     *
     * @param random       the randomness of the proposals and of the acceptance tests
     * @param maxProposals the most proposals one sample may take, ≥ 1
     */
    public BinghamSampler(RandomSource random, long maxProposals) {
        this(random, maxProposals, AcceptanceRule.CORRECTED);
    }

    /** Package-private: the misprinted acceptance rule, for the negative moment test only. */
    static BinghamSampler withAcceptanceRuleForTests(RandomSource random, AcceptanceRule rule) {
        return new BinghamSampler(random, DEFAULT_MAX_PROPOSALS, rule);
    }

    /** Thrown when no proposal was accepted within the cap (should not happen at sane settings). */
    public static final class SamplerExhaustedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SamplerExhaustedException(String message) {
            super(message);
        }
    }

    /**
     * Proposals drawn by this sampler so far (over all samples).
     *
     * @return the number of proposals, ≥ {@link #samples()}
     */
    public long totalProposals() {
        return totalProposals;
    }

    /**
     * Samples drawn by this sampler so far.
     *
     * @return the number of completed samples
     */
    public long samples() {
        return samples;
    }

    /**
     * A unit vector u ∈ R^q with density ∝ exp(κ·uᵀCu). Not modified: c (symmetric q × q, only its lower
     * triangle is read).
     *
     * @param c     the symmetric q × q matrix of the density
     * @param kappa the concentration κ, ≥ 0 (0: uniform on the sphere)
     * @return the unit vector and the number of proposals it took
     * @throws SamplerExhaustedException when the proposal cap is reached
     */
    public Sample sample(Matrix c, double kappa) {
        Objects.requireNonNull(c, "c");
        if (!c.isSquare()) {
            throw new IllegalArgumentException("Bingham parameter matrix must be square, got " + c.rows() + " x "
                    + c.cols());
        }
        checkKappa(kappa);
        int q = c.rows();
        if (q == 0) {
            throw new IllegalArgumentException("Bingham dimension q must be >= 1, got 0");
        }
        if (q == 1) {
            return countOne(new double[] {random.nextBoolean() ? 1.0 : -1.0});
        }
        SymmetricEigen e = SymmetricEigen.of(c);
        return sampleInEigenbasis(e.values(), e.vectors(), kappa);
    }

    /**
     * As {@link #sample(Matrix, double)} when the eigendecomposition C = W diag(c) Wᵀ is already known:
     * {@code values} descending-or-any order, {@code vectors} q × q with column j paired with values[j].
     * Not modified: values, vectors.
     *
     * @param values  the q eigenvalues of C
     * @param vectors the q × q orthogonal eigenvectors of C
     * @param kappa   the concentration κ, ≥ 0
     * @return the unit vector, in the original (not the eigen) basis, and the number of proposals it took
     * @throws SamplerExhaustedException when the proposal cap is reached
     */
    public Sample sampleInEigenbasis(double[] values, Matrix vectors, double kappa) {
        checkKappa(kappa);
        int q = values.length;
        if (vectors.rows() != q || vectors.cols() != q) {
            throw new IllegalArgumentException("eigenvectors must be " + q + " x " + q + ", got " + vectors.rows()
                    + " x " + vectors.cols());
        }
        if (q == 1) {
            return countOne(new double[] {vectors.get(0, 0) * (random.nextBoolean() ? 1.0 : -1.0)});
        }
        double cMax = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("Bingham parameter has a non-finite eigenvalue " + v);
            }
            cMax = Math.max(cMax, v);
        }
        double[] a = new double[q];
        for (int j = 0; j < q; j++) {
            a[j] = kappa * (cMax - values[j]); // fix A-C2: shift by the LARGEST eigenvalue, so a_j >= 0
        }
        long before = totalProposals;
        double[] y = sampleKent(a);
        long used = totalProposals - before;
        double[] u = vectors.times(y);
        io.dpspectra.linalg.Vectors.normalizeInPlace(u);
        return new Sample(u, used);
    }

    /**
     * A unit vector y ∈ R^q with density ∝ exp(−Σ_j a_j y_j²) (Kent's form, A diagonal), a_j ≥ 0.
     * Counts its proposals. Not modified: a.
     */
    double[] sampleKent(double[] a) {
        int q = a.length;
        double b = solveB(a);
        double logM = logEnvelopeConstant(q, b);
        double[] sdev = new double[q];
        for (int j = 0; j < q; j++) {
            sdev[j] = 1.0 / Math.sqrt(1.0 + 2.0 * a[j] / b); // 1/√ω_j
        }
        double[] y = new double[q];
        long start = totalProposals;
        while (totalProposals - start < maxProposals) {
            totalProposals++;
            double norm2 = 0;
            for (int j = 0; j < q; j++) {
                double v = random.standardNormal() * sdev[j];
                y[j] = v;
                norm2 += v * v;
            }
            if (norm2 == 0) {
                continue;
            }
            double t = 0;
            for (int j = 0; j < q; j++) {
                t += a[j] * y[j] * y[j];
            }
            t /= norm2; // uᵀAu for u = y/‖y‖
            double logAlpha = logAcceptance(t, q, b, logM, rule);
            if (rule == AcceptanceRule.CORRECTED && logAlpha > 1e-10) {
                throw new AssertionError("Bingham acceptance log-ratio " + logAlpha + " > 0 (t=" + t + ", b=" + b
                        + ", q=" + q + "): the envelope bound is violated");
            }
            double uniform = 1.0 - random.nextDouble(); // in (0, 1]
            if (Math.log(uniform) < logAlpha) {
                double inv = 1.0 / Math.sqrt(norm2);
                for (int j = 0; j < q; j++) {
                    y[j] *= inv;
                }
                samples++;
                return y;
            }
        }
        throw new SamplerExhaustedException("Bingham sampler made " + maxProposals + " proposals in dimension " + q
                + " without acceptance; raise maxProposals or check the parameter matrix");
    }

    /** log α = −t ± (q/2)·log1p(2t/b) − log M (plus sign: corrected; minus: the misprint). */
    static double logAcceptance(double t, int q, double b, double logM, AcceptanceRule rule) {
        double envelope = 0.5 * q * Math.log1p(2.0 * t / b);
        return rule == AcceptanceRule.CORRECTED ? -t + envelope - logM : -t - envelope - logM;
    }

    /** log M = −(q − b)/2 + (q/2)·ln(q/b) (≥ 0, = 0 at b = q). */
    static double logEnvelopeConstant(int q, double b) {
        return -(q - b) / 2.0 + 0.5 * q * Math.log(q / b);
    }

    /**
     * The root b ∈ [1, q] of h(b) = Σ_j 1/(b + 2a_j) − 1 (fix A-C1: "= 1", not "= 0"); q when all a_j = 0.
     * Newton from b = 1 (monotone for convex decreasing h), safeguarded by bisection on [1, q].
     */
    static double solveB(double[] a) {
        int q = a.length;
        boolean allZero = true;
        for (double v : a) {
            if (v < 0 || !Double.isFinite(v)) {
                throw new IllegalArgumentException("Kent parameters a_j must be finite and >= 0, got " + v);
            }
            allZero &= v == 0;
        }
        if (allZero) {
            return q;
        }
        double lo = 1.0;
        double hi = q;
        double b = 1.0;
        for (int iter = 0; iter < 100; iter++) {
            double h = -1.0;
            double dh = 0.0;
            for (double v : a) {
                double r = 1.0 / (b + 2.0 * v);
                h += r;
                dh -= r * r;
            }
            if (h > 0) {
                lo = Math.max(lo, b);
            } else {
                hi = Math.min(hi, b);
            }
            if (h == 0) {
                return b;
            }
            double next = b - h / dh;
            if (!(next > lo && next < hi)) {
                next = 0.5 * (lo + hi);
            }
            if (Math.abs(next - b) <= 1e-14 * b) {
                return next;
            }
            b = next;
        }
        return b;
    }

    private Sample countOne(double[] u) {
        totalProposals++;
        samples++;
        return new Sample(u, 1);
    }

    private static void checkKappa(double kappa) {
        if (!(kappa >= 0) || !Double.isFinite(kappa)) {
            throw new IllegalArgumentException("Bingham concentration kappa must be finite and >= 0, got " + kappa
                    + "; pass epsilon_i/4 for Amin et al.'s exponential mechanism");
        }
    }
}
