package io.dpspectra.data;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Objects;

/**
 * A differentially private trace of the second moment, Tr XᵀX = Σ_i ‖x_i‖², of rows with a declared L2
 * bound B: the denominator of an explained-variance ratio Σ_{j≤k} λ̂_j / Tr, so that the ratio of released
 * eigenvalues over it is post-processing.
 *
 * <p>Privacy, one row as the unit, rows with ‖x‖₂ ≤ B (the source's declared bound): each term ‖x‖² lies in
 * [0, B²], so the sum has sensitivity B² under {@link Neighbouring#ADD_REMOVE_ROW} (one term appears or
 * disappears) and under {@link Neighbouring#REPLACE_ROW} (one term changes within [0, B²]); a scalar, so its
 * L1 and L2 sensitivities agree. The noise family follows the budget as for {@link PrivateBoundedMean}: Gaussian
 * with the analytic σ for (ε, δ) with δ &gt; 0, Laplace with scale B²/ε for pure ε. The released value is
 * clamped at 0 (post-processing).
 *
 * <p>Units: those of XᵀX of the (preprocessed) rows, a sum over rows, not divided by n.
 *
 * <p>Reference: the Laplace and Gaussian mechanisms (Dwork &amp; Roth 2014, Theorems 3.6 and A.1; Balle
 * &amp; Wang, ICML 2018, analytic Gaussian) applied to Σ‖x_i‖²; the trace is the total variance of the
 * explained-variance ratio of PCA.
 *
 * <p>Cost: one pass, O(d) memory.
 */
public final class PrivateTrace extends NoisyRowSum {
    /**
     * @param trace     the released Tr XᵀX (clamped at 0), in XᵀX units
     * @param guarantee what the release satisfies
     */
    public record Result(double trace, PrivacyGuarantee guarantee) {
    }

    private PrivateTrace(RandomSource random, Neighbouring neighbouring, double noiseMultiplier) {
        super(random, neighbouring, noiseMultiplier, "trace");
    }

    /**
     * A private trace under {@code neighbouring}, with noise from {@code random}.
     *
     * @param neighbouring the relation the guarantee is stated for
     * @param random       the randomness of the noise
     * @return the mechanism
     */
    public static PrivateTrace of(Neighbouring neighbouring, RandomSource random) {
        return new PrivateTrace(random, neighbouring, 1.0);
    }

    /**
     * Scales the noise by {@code m}: package-private, for the auditor's broken twin in tests only. A value
     * below 1 makes the release NOT private.
     */
    PrivateTrace noiseMultiplierForAuditTests(double m) {
        return new PrivateTrace(random, neighbouring, m);
    }

    /**
     * The private trace of {@code rows} (which must declare an L2 bound) for {@code budget}.
     *
     * @param rows   the rows; they must declare an L2 bound
     * @param budget the (ε, δ) to spend
     * @return the noisy trace Σ‖x‖₂² with its guarantee
     */
    public Result release(RowSource rows, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        DpPreconditions.checkEpsilon(budget.epsilon());
        double bound = rowBound(rows, "trace");
        int d = rows.dimension();
        double[] row = new double[d];
        double sum = 0;
        long n = 0;
        try (RowCursor c = rows.open()) {
            while (c.next(row)) {
                double sq = 0;
                for (double v : row) {
                    sq += v * v;
                }
                sum += Math.min(sq, bound * bound); // the declared bound holds; min guards rounding only
                n++;
            }
        }
        if (n == 0) {
            throw new InvalidDataException(rows.describe() + " has no data rows; a trace needs at least one row");
        }
        return release(sum, bound, budget);
    }

    /** The release from Σ‖x_i‖² already computed over rows with ‖x‖₂ ≤ {@code rowL2Bound}. */
    Result release(double sumOfSquaredNorms, double rowL2Bound, PrivacyParams budget) {
        double sensitivity = rowL2Bound * rowL2Bound;
        boolean gaussian = !budget.isPure();
        double scale = scale(sensitivity, sensitivity, budget);
        double noisy = noise(budget).addNoise(sumOfSquaredNorms, scale);
        PrivacyGuarantee g = new PrivacyGuarantee("private trace (" + (gaussian ? "Gaussian" : "Laplace")
                + " mechanism on the sum of squared row norms)", budget, neighbouring,
                "one row with L2 norm <= " + rowL2Bound,
                "Tr X^T X = sum of ||x||^2, each in [0, B^2]: sensitivity B^2 = " + sensitivity + " (L1 = L2, a "
                        + "scalar; add-remove and replace alike), " + (gaussian ? "Gaussian sigma " : "Laplace scale ")
                        + scale,
                reference(budget), gaussian ? io.dpspectra.privacy.PrivacyProfile.gaussianNoise(scale, sensitivity, 1)
                        : io.dpspectra.privacy.PrivacyProfile.laplaceNoise(scale, sensitivity, 1));
        return new Result(Math.max(0, noisy), g);
    }
}
