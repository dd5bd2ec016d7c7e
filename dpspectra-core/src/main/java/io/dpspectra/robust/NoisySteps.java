package io.dpspectra.robust;

import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.ComposedGaussian;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/**
 * What the noisy first-order methods of this package share: the batch of each step and the noise level of
 * each step for a private budget. Used by {@link GrassmannDescent} and {@link Reaper}.
 *
 * <p>Privacy: a step releases (1/B)·Σ_{batch} g(x) + E with per-row terms of norm ≤ 1 (Frobenius, or the L2
 * norm of the upper triangle for symmetric REAPER subgradients). Full batch: sensitivity 2/N under
 * replacement, T steps by zCDP. Poisson batches at rate q = B/N: the batch sum has sensitivity 1 under
 * add/remove; the Rényi accountant gives the noise multiplier z for (ε/2, δ/(1 + e^{ε/2})), and group privacy
 * gives (ε, δ) under replacement ({@link ComposedGaussian}). In both cases the sensitivity is inflated by the
 * rounding of the floating-point-safe sampler (m coordinates, each moved by at most half its granularity).
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
        return calibration == NoiseCalibration.ZCDP
                ? "L2 sensitivity of the mean " + term + " over N = " + n + " rows: 2/N (each row's term has norm "
                        + "<= 1); the T steps composed by zCDP"
                : "L2 sensitivity of the batch sum of " + term + " terms: 1 per row (add/remove), divided by the fixed "
                        + "B = " + b + "; Poisson rate q = " + ((double) b / n) + "; Renyi accountant of the sampled "
                        + "Gaussian mechanism at (eps/2, delta/(1+e^(eps/2))) add/remove, group privacy for replacement";
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
