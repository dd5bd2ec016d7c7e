package io.dpspectra.data;

import io.dpspectra.linalg.RowBlocks;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.LaplaceNoise;
import io.dpspectra.noise.Noise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Objects;

/**
 * A differentially private mean of rows with a declared L2 bound B, for private centring: the noise
 * family follows the budget, Gaussian for (ε, δ) with δ &gt; 0 and Laplace for pure ε. (Not the k-DP-PCA
 * paper's PrivMean, which needs no bound: that is {@code io.dpspectra.pca.HistogramClampedMean}.)
 *
 * <p>Privacy, one row as the unit, rows with ‖x‖₂ ≤ B (the source's declared bound):
 * <ul>
 *   <li>{@link Neighbouring#REPLACE_ROW} (n public): the sum Σx changes by x − x', L2 sensitivity 2B
 *       and L1 sensitivity 2B√d (‖v‖₁ ≤ √d‖v‖₂); the whole budget noises the sum, and the mean is
 *       the noisy sum over the public n;</li>
 *   <li>{@link Neighbouring#ADD_REMOVE_ROW} (n private): the sum has sensitivity B (L2) or B√d (L1)
 *       and the count sensitivity 1; each gets half the budget (basic composition), and the mean is
 *       noisy sum / max(1, noisy count).</li>
 * </ul>
 * Gaussian noise uses the analytic-Gaussian σ ({@link GaussianNoise#sigmaFor}); Laplace noise
 * {@link LaplaceNoise#scaleFor}. The released mean is then projected onto the ball of radius B, where
 * the true mean lies (post-processing). Centring by it gives rows with ‖x − μ̂‖₂ ≤ B + ‖μ̂‖₂ ≤ 2B by the
 * triangle inequality: {@link Result#centredBound()}, a bound that holds by construction.
 *
 * <p>Reference: the Gaussian and Laplace mechanisms (Dwork &amp; Roth 2014, Theorems 3.6 and A.1; Balle
 * &amp; Wang, ICML 2018, analytic Gaussian), applied to the sum as in the private-mean step of private
 * PCA pipelines (e.g. Dwork, Talwar, Thakurta &amp; Zhang, STOC 2014, §3 on centring).
 *
 * <p>Cost: one pass, O(d) memory.
 */
public final class PrivateBoundedMean extends NoisyRowSum {
    /**
     * @param mean         the released mean (in the B-ball)
     * @param centredBound B + ‖mean‖₂: the L2 bound of the centred rows
     * @param guarantee    what the release satisfies
     */
    public record Result(double[] mean, double centredBound, PrivacyGuarantee guarantee) {
    }

    private PrivateBoundedMean(RandomSource random, Neighbouring neighbouring, double noiseMultiplier) {
        super(random, neighbouring, noiseMultiplier, "mean");
    }

    /**
     * A private mean under {@code neighbouring}, with noise from {@code random}.
     *
     * @param neighbouring the relation of the guarantee
     * @param random       the noise source
     * @return the mechanism
     */
    public static PrivateBoundedMean of(Neighbouring neighbouring, RandomSource random) {
        return new PrivateBoundedMean(random, neighbouring, 1.0);
    }

    /**
     * Scales the noise by {@code m}: package-private, for the auditor's broken twin in tests only. A value
     * below 1 makes the release NOT private.
     */
    PrivateBoundedMean noiseMultiplierForAuditTests(double m) {
        return new PrivateBoundedMean(random, neighbouring, m);
    }

    /**
     * The private mean of {@code rows} (which must declare an L2 bound) for {@code budget}.
     *
     * @param rows   the rows, with a declared L2 bound
     * @param budget the (ε, δ) to spend
     * @return the mean, the bound of the centred rows and the guarantee
     */
    public Result estimate(RowSource rows, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        double bound = rowBound(rows, "mean");
        Sum s = sum(rows);
        if (s.rows() == 0) {
            throw new InvalidDataException(rows.describe() + " has no data rows; a mean needs at least one row");
        }
        return estimate(s, bound, budget);
    }

    /**
     * The exact sum of some rows and their number: the statistic the mechanism privatises (not private by
     * itself). Sums of disjoint parts of the rows add up to the sum of their union (a cluster computes one
     * per partition).
     */
    public record Sum(double[] sum, long rows) {
    }

    /**
     * The sum of {@code rows} and their number: one pass. The sum is the canonical one of
     * {@link RowBlocks#columnSums}: plain sums over blocks of rows by row number, added in an order-free
     * way, so that the same rows summed across the partitions of a cluster job give the same bits.
     *
     * @param rows the rows
     * @return their exact sum and number (not private)
     */
    public static Sum sum(RowSource rows) {
        int d = rows.dimension();
        RowBlocks sums = new RowBlocks(d, RowBlocks.columnSums(d));
        long n = 0;
        // the sums are plain Java on this thread: the next block is read while they run
        try (RowCursor c = rows.open(); ReadAhead blocks = ReadAhead.start(c, d, sums.blockRows(), rows.knownSize(), 1)) {
            int filled;
            while ((filled = blocks.next()) > 0) {
                sums.add(n, blocks.values(), 0, filled);
                n += filled;
            }
        }
        return new Sum(sums.result(), n);
    }

    /**
     * The private mean from the {@linkplain #sum sum} of rows with L2 norm ≤ {@code bound} (summed
     * elsewhere, e.g. across a cluster's partitions): the same mechanism and guarantee as
     * {@link #estimate(RowSource, PrivacyParams)}. The caller vouches that every summed row was bounded by
     * {@code bound} (clipped or checked) and that the bound is public.
     *
     * @param rowSum the exact sum of the rows and their number
     * @param bound  the public L2 bound of every summed row
     * @param budget the (ε, δ) to spend
     * @return the mean, the bound of the centred rows and the guarantee
     */
    public Result estimate(Sum rowSum, double bound, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        DpPreconditions.checkPositive("bound", bound);
        long n = rowSum.rows();
        if (n == 0) {
            throw new InvalidDataException("no rows were summed; a mean needs at least one row");
        }
        double[] sum = rowSum.sum().clone();
        int d = sum.length;
        boolean gaussian = !budget.isPure();
        boolean replace = neighbouring == Neighbouring.REPLACE_ROW;
        PrivacyParams sumBudget = replace ? budget : budget.scaled(0.5);
        double l2 = (replace ? 2 : 1) * bound;
        double l1 = l2 * Math.sqrt(d);
        Noise noise = noise(budget);
        double sumScale = scale(l2, l1, sumBudget);
        noise.addNoiseInPlace(sum, sumScale);
        double denominator;
        String countText;
        io.dpspectra.privacy.PrivacyProfile profile = gaussian
                ? io.dpspectra.privacy.PrivacyProfile.gaussianNoise(sumScale, l2, d)
                : io.dpspectra.privacy.PrivacyProfile.laplaceNoise(sumScale, l1, d);
        if (replace) {
            denominator = n;
            countText = "n public (replace neighbouring)";
        } else {
            PrivacyParams countBudget = budget.scaled(0.5);
            double countScale = scale(1, 1, countBudget);
            denominator = Math.max(1, noise.addNoise(n, countScale));
            countText = "count: sensitivity 1 at " + countBudget + ", noise scale " + countScale;
            profile = io.dpspectra.privacy.PrivacyProfile.compose(profile, gaussian
                    ? io.dpspectra.privacy.PrivacyProfile.gaussianNoise(countScale, 1, 1)
                    : io.dpspectra.privacy.PrivacyProfile.laplaceNoise(countScale, 1, 1));
        }
        double[] mean = new double[d];
        for (int j = 0; j < d; j++) {
            mean[j] = sum[j] / denominator;
        }
        double norm = Vectors.norm2(mean);
        if (norm > bound) {
            for (int j = 0; j < d; j++) {
                mean[j] *= bound / norm;
            }
            norm = bound;
        }
        String sensitivity = "sum: " + (gaussian ? "L2 sensitivity " + l2 : "L1 sensitivity " + l1 + " (= "
                + (replace ? 2 : 1) + "*B*sqrt(d))") + " at " + sumBudget + ", " + (gaussian ? "Gaussian sigma "
                : "Laplace scale ") + sumScale + "; " + countText;
        PrivacyGuarantee g = new PrivacyGuarantee("private mean (" + (gaussian ? "Gaussian" : "Laplace")
                + " mechanism on the sum" + (replace ? "" : " and the count") + ")", budget, neighbouring,
                "one row with L2 norm <= " + bound, sensitivity, reference(budget), profile);
        return new Result(mean, bound + norm, g);
    }
}
