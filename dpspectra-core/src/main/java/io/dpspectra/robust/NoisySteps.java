package io.dpspectra.robust;

import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.ComposedGaussian;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.privacy.PrivacyProfile;
import io.dpspectra.privacy.pld.PldCalibration;
import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/**
 * What the noisy first-order methods of this package share: the batch of each step and the noise level of
 * each step for a private budget. Used by {@link GrassmannDescent} and {@link Reaper}.
 *
 * <p>Privacy: a step releases (1/B)·Σ_{batch} g(x) + E with per-row terms of norm ≤ 1 (Frobenius, or the L2
 * norm of the upper triangle for symmetric REAPER subgradients). Full batch: sensitivity 2/N under
 * replacement, T steps by exact GDP composition ({@link NoiseCalibration#PLD}, σ = (2/N)√T/μ*) or by zCDP.
 * Poisson batches at rate q = B/N: each row's term moves the batch sum by at most 1; {@link NoiseCalibration#PLD}
 * gives the noise multiplier z of T replace-one steps from their privacy loss distribution
 * ({@link PldCalibration}), {@link NoiseCalibration#RDP_POISSON} from the Rényi accountant at the add/remove target
 * (ε/2, δ/(1 + e^{ε/2})) and group privacy ({@link ComposedGaussian}). In every case the sensitivity is inflated by
 * the rounding of the floating-point-safe sampler (m coordinates, each moved by at most half its granularity).
 */
final class NoisySteps {
    private NoisySteps() {
    }

    /** The paper's §5.1 batch size max(⌈N√(ε/(4T))⌉, 1) (Bassily et al. 2019; rounded up). */
    static int defaultBatchSize(int n, int t, double epsilon) {
        return (int) Math.max(1, Math.ceil(n * Math.sqrt(epsilon / (4.0 * t))));
    }

    /** σ of each step's noise on the batch mean for a private calibration (ZCDP full batch, RDP_POISSON). */
    static double privateSigma(NoiseCalibration calibration, int n, int b, int t, long coordinates,
                               PrivacyParams iterBudget) {
        return switch (calibration) {
            case PLD -> {
                if (b >= n) {
                    // full batch: T Gaussian releases of sensitivity 2/N compose exactly
                    double mu = io.dpspectra.privacy.pld.GaussianPrivacy.mu(iterBudget);
                    yield withRounding(2.0 / n, coordinates, delta -> delta * Math.sqrt(t) / mu);
                }
                double z = PldCalibration.poissonNoiseMultiplier((double) b / n, t, iterBudget,
                        io.dpspectra.privacy.Neighbouring.REPLACE_ROW);
                yield withRounding(1.0 / b, coordinates, delta -> z * delta);
            }
            case ZCDP -> withRounding(2.0 / n, coordinates, delta -> ComposedGaussian.zcdpSigma(delta, t, iterBudget));
            case RDP_POISSON -> {
                double z = ComposedGaussian.poissonNoiseMultiplier((double) b / n, t,
                        ComposedGaussian.addRemoveTargetForReplace(iterBudget));
                yield withRounding(1.0 / b, coordinates, delta -> z * delta);
            }
            default -> throw new IllegalArgumentException(calibration + " is not a private calibration");
        };
    }

    /** The sensitivity and accountant, in words, for a guarantee. */
    static String sensitivityText(NoiseCalibration calibration, int n, int b, String term) {
        boolean full = b >= n && calibration != NoiseCalibration.RDP_POISSON;
        if (full) {
            return "L2 sensitivity of the mean " + term + " over N = " + n + " rows: 2/N (each row's term has norm "
                    + "<= 1); the T steps composed " + (calibration == NoiseCalibration.ZCDP ? "by zCDP"
                    : "exactly (Gaussian DP)");
        }
        return "L2 sensitivity of the batch sum of " + term + " terms: 1 per row, divided by the fixed B = " + b
                + "; Poisson rate q = " + ((double) b / n) + "; " + (calibration == NoiseCalibration.PLD
                ? "the T steps' privacy loss distribution for replace-one (Lebeda et al. 2024, Prop. 13)"
                : "Renyi accountant of the sampled Gaussian mechanism at (eps/2, delta/(1+e^(eps/2))) add/remove, "
                        + "group privacy for replacement");
    }

    /**
     * The profile of T noisy steps with noise σ on the batch mean of m coordinates: full batch, T Gaussian releases
     * of sensitivity 2/N (μ = √T·(2/N + √m·g)/σ); Poisson batches, T replace-one subsampled Gaussian steps with the
     * noise multiplier over the rounded contribution of one row, z = σ/(1/B + √m·g).
     */
    static PrivacyProfile stepsProfile(Batch batch, int n, int b, int t, long coordinates, double sigma) {
        double g = GaussianNoise.granularity(sigma);
        double rounding = Math.sqrt((double) coordinates) * g;
        if (batch == Batch.FULL) {
            double mu = (2.0 / n + rounding) / sigma;
            return new PrivacyProfile.Gaussian(Math.nextUp(Math.nextUp(mu * Math.sqrt(t))));
        }
        double z = sigma / (1.0 / b + rounding);
        return new PrivacyProfile.SubsampledGaussian((double) b / n, Math.nextDown(z), t,
                io.dpspectra.privacy.Neighbouring.REPLACE_ROW);
    }

    /**
     * σ for sensitivity Δ inflated by the sampler's rounding: each of m coordinates moves by at most g/2, so
     * neighbours' released vectors differ by at most Δ + √m·g(σ) (a fixed point, since g depends on σ).
     */
    static double withRounding(double delta, long coordinates, DoubleUnaryOperator sigmaOf) {
        double s = sigmaOf.applyAsDouble(delta);
        for (int i = 0; i < 8; i++) {
            double next = sigmaOf.applyAsDouble(delta + Math.sqrt((double) coordinates) * GaussianNoise.granularity(2 * s));
            if (next <= s * (1 + 1e-15)) {
                return Math.max(s, next);
            }
            s = next;
        }
        return s;
    }

    /** The row indices of one step: null for the full batch. */
    static int[] batch(Batch kind, int n, int b, RandomSource random) {
        switch (kind) {
            case FULL:
                return null;
            case WITH_REPLACEMENT: {
                int[] idx = new int[b];
                for (int i = 0; i < b; i++) {
                    idx[i] = random.nextInt(n);
                }
                return idx;
            }
            default:
                return poisson(n, (double) b / n, random);
        }
    }

    /** Each of n rows independently with probability q, by geometric skips (O(qn) expected). */
    static int[] poisson(int n, double q, RandomSource random) {
        if (q >= 1) {
            int[] all = new int[n];
            Arrays.setAll(all, i -> i);
            return all;
        }
        int[] idx = new int[Math.max(4, (int) (2 * q * n))];
        int count = 0;
        double lnKeep = Math.log1p(-q);
        long i = -1;
        while (true) {
            double u = 1 - random.nextDouble(); // (0, 1]
            i += 1 + (long) Math.floor(Math.log(u) / lnKeep);
            if (i >= n) {
                return Arrays.copyOf(idx, count);
            }
            if (count == idx.length) {
                idx = Arrays.copyOf(idx, 2 * idx.length);
            }
            idx[count++] = (int) i;
        }
    }
}
