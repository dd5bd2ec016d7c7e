package io.dpspectra.data;

import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.LaplaceNoise;
import io.dpspectra.noise.Noise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Objects;

/**
 * What the private statistics that noise a sum over rows with a declared L2 bound share
 * ({@link PrivateBoundedMean}, {@link PrivateTrace}): the relation (one row, add/remove or replace-one), the noise
 * source, the noise family matched to the budget (Gaussian with the analytic σ,
 * {@link GaussianNoise#sigmaFor}, for (ε, δ) with δ &gt; 0; Laplace, {@link LaplaceNoise#scaleFor}, for pure
 * ε), the row bound they are calibrated to, and the auditor's broken-twin hook.
 */
abstract class NoisyRowSum {
    final RandomSource random;
    final Neighbouring neighbouring;
    final double noiseMultiplier;

    NoisyRowSum(RandomSource random, Neighbouring neighbouring, double noiseMultiplier, String what) {
        this.random = Objects.requireNonNull(random, "random");
        this.neighbouring = Objects.requireNonNull(neighbouring, "neighbouring");
        if (neighbouring != Neighbouring.REPLACE_ROW && neighbouring != Neighbouring.ADD_REMOVE_ROW) {
            throw new IllegalArgumentException("a private " + what + " is defined for REPLACE_ROW or ADD_REMOVE_ROW, "
                    + "got " + neighbouring);
        }
        this.noiseMultiplier = DpPreconditions.checkPositive("noiseMultiplier", noiseMultiplier);
    }

    /** The declared L2 bound of {@code rows}, or an error saying how to give one. */
    static double rowBound(RowSource rows, String what) {
        DataBounds b = rows.bounds().orElseThrow(() -> new IllegalArgumentException("a private " + what + " needs rows "
                + "with a declared norm bound, but " + rows.describe() + " has none; clip them (--clip-norm) or use a "
                + "schema with bounds"));
        return b.l2Bound();
    }

    /** Gaussian noise for δ &gt; 0, Laplace for pure ε. */
    Noise noise(PrivacyParams budget) {
        return budget.isPure() ? new LaplaceNoise(random) : new GaussianNoise(random);
    }

    /** The noise scale for {@code budget}: σ for the L2 sensitivity, or the Laplace scale for the L1 sensitivity. */
    double scale(double l2Sensitivity, double l1Sensitivity, PrivacyParams budget) {
        return noiseMultiplier * (budget.isPure() ? LaplaceNoise.scaleFor(l1Sensitivity, budget.epsilon())
                : GaussianNoise.sigmaFor(l2Sensitivity, budget));
    }

    /** The mechanism's reference, for the guarantee. */
    static String reference(PrivacyParams budget) {
        return budget.isPure() ? "Laplace mechanism (Dwork & Roth 2014, Theorem 3.6)"
                : "Gaussian mechanism (Dwork & Roth 2014, Theorem A.1; analytic sigma, Balle & Wang 2018)";
    }
}
