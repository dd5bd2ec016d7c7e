package io.dpspectra.pca;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.noise.StableHistogram;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Private top-eigenvalue estimation ([DS] Alg. 6, "PrivRange"): a power of 2^{1/4} close to the largest
 * eigenvalue of the covariance of the pairwise differences g_{2j} − g_{2j−1} of N vectors, or ⊥ (empty).
 *
 * <p>Privacy: (ε, δ)-DP; the unit is one input vector g_j (one sample A_i), neighbouring = replace one
 * (n public, spec §0.1). A replaced g_j changes one difference, hence one of the s subsets, hence one
 * subset eigenvalue λ_j, hence one item of the {@link StableHistogram} over geometric bins; the histogram
 * spends the whole (ε, δ) (count sensitivity 2), everything else is post-processing. With
 * {@code relation(ADD_REMOVE_ROW)} (the paper's claim; paper-literal mode only) the histogram uses count
 * sensitivity 1, which is NOT a valid calibration for positional pairing (spec §8 #9).
 *
 * <p>Algorithm (spec §2.3): M = ⌊N/2⌋ differences; s = min(M, ⌈C1·ln(1/(δτ))/ε⌉) subsets of b = ⌊M/s⌋
 * contiguous differences; λ_j = top eigenvalue of (1/b)G_jᵀG_j (b × b, never d × d); bin
 * ⌊4·log2 λ⌋ (λ ≤ 0: no bin); release the lower edge 2^{idx/4} of the noisy-argmax released bin.
 *
 * <p>Reference: papers/kdp-pca-adaptive-noise.txt Alg. 6; spec stochastic-and-power-methods.md §2.3,
 * §0.3, §8 #2–#4.
 *
 * <p>Cost: O(M·b·d + s·b³) time, O(b²) extra memory.
 */
public final class PrivRange {
    private final double c1;
    private final Neighbouring relation;

    private PrivRange(double c1, Neighbouring relation) {
        this.c1 = c1;
        this.relation = relation;
    }

    /**
     * C1 = 1 (spec §8 #3), replace-one.
     *
     * @return the estimator
     */
    public static PrivRange defaults() {
        return new PrivRange(1, Neighbouring.REPLACE_ROW);
    }

    /**
     * C1 &gt; 0 scales the number of subsets (unspecified in [DS]; spec default 1).
     *
     * @param c1       C1
     * @param relation the histogram relation
     * @return the estimator
     */
    public static PrivRange of(double c1, Neighbouring relation) {
        return new PrivRange(DpPreconditions.checkPositive("C1", c1), Objects.requireNonNull(relation, "relation"));
    }

    /**
     * The number s of subsets for M differences (0 means ⊥).
     *
     * @param differences M
     * @param params      the (ε, δ) of the estimate
     * @param tau         τ
     * @return s, or 0
     */
    public int subsets(int differences, PrivacyParams params, double tau) {
        double s = Math.ceil(c1 * Math.log(1 / (params.delta() * tau)) / params.epsilon());
        return (int) Math.min(differences, Math.max(1, s));
    }

    /**
     * The histogram bin ⌊4·log2 λ⌋ of a value, or {@link StableHistogram#NO_BIN} for λ ≤ 0 or non-finite.
     *
     * @param lambda a value
     * @return its bin
     */
    public static long bin(double lambda) {
        if (!(lambda > 0) || !Double.isFinite(lambda)) {
            return StableHistogram.NO_BIN;
        }
        return (long) Math.floor(4 * (Math.log(lambda) / Math.log(2)));
    }

    /**
     * The lower edge 2^{idx/4} of a bin.
     *
     * @param idx a bin index
     * @return 2^{idx/4}
     */
    public static double lowerEdge(long idx) {
        return Math.pow(2, idx / 4.0);
    }

    /**
     * The estimate L̂, or empty (⊥). Not modified: g (N vectors of length d).
     *
     * @param tau failure probability τ ∈ (0, 1)
     * @param g      the vectors
     * @param count  N, the number of vectors used
     * @param params the (ε, δ) of the estimate
     * @param random the randomness of the noise
     * @return L̂, or empty
     */
    public OptionalDouble estimate(double[][] g, int count, PrivacyParams params, double tau, RandomSource random) {
        DpPreconditions.checkPositiveDelta(params.delta(), "PrivRange");
        if (!(tau > 0 && tau < 1)) {
            throw new IllegalArgumentException("tau must be in (0, 1), got " + tau);
        }
        int m = count / 2;
        if (m == 0) {
            return OptionalDouble.empty();
        }
        int s = subsets(m, params, tau);
        int b = m / s;
        int d = g[0].length;
        long[] bins = new long[s];
        double[][] diffs = new double[b][d];
        for (int j = 0; j < s; j++) {
            for (int q = 0; q < b; q++) {
                int pair = j * b + q;
                double[] hi = g[2 * pair + 1];
                double[] lo = g[2 * pair];
                for (int c = 0; c < d; c++) {
                    diffs[q][c] = hi[c] - lo[c];
                }
            }
            bins[j] = bin(topEigenvalueOfMeanGram(diffs, b));
        }
        TreeMap<Long, Double> released = new StableHistogram(random).release(bins, params, relation);
        OptionalLong best = StableHistogram.argmax(released);
        return best.isPresent() ? OptionalDouble.of(lowerEdge(best.getAsLong())) : OptionalDouble.empty();
    }

    /** Largest eigenvalue of (1/b) Σ_q v_q v_qᵀ via the b × b Gram matrix. */
    static double topEigenvalueOfMeanGram(double[][] v, int b) {
        if (b == 1) {
            double s = 0;
            for (double x : v[0]) {
                s += x * x;
            }
            return s;
        }
        Matrix gram = new Matrix(b, b);
        for (int p = 0; p < b; p++) {
            for (int q = 0; q <= p; q++) {
                double s = 0;
                for (int c = 0; c < v[p].length; c++) {
                    s += v[p][c] * v[q][c];
                }
                gram.set(p, q, s / b);
                gram.set(q, p, s / b);
            }
        }
        return SymmetricEigen.top(gram, 1).values()[0];
    }
}
