package io.dpspectra.privacy.pld;

import io.dpspectra.noise.ErrorFunction;

/**
 * The standard normal distribution function Φ, its logarithm and (for choosing grid ranges only) its inverse,
 * from W. J. Cody's erfc/erfcx ({@link ErrorFunction}, relative error about 1e−15 over the whole range).
 */
final class Normal {
    private static final double SQRT2 = Math.sqrt(2);
    private static final double LN2 = Math.log(2);

    private Normal() {
    }

    /** Φ(x) = P(Z ≤ x), accurate to about 1e−15 relative in both tails. */
    static double cdf(double x) {
        return 0.5 * ErrorFunction.erfc(-x / SQRT2);
    }

    /** ln Φ(x), finite for every finite x (through erfcx in the lower tail). */
    static double logCdf(double x) {
        if (x > -5) {
            return Math.log1p(-0.5 * ErrorFunction.erfc(x / SQRT2));
        }
        // Φ(x) = ½·erfcx(−x/√2)·exp(−x²/2)
        return Math.log(ErrorFunction.erfcx(-x / SQRT2)) - LN2 - x * x / 2;
    }

    /**
     * Φ⁻¹(p) for p in (0, 1), to about 1e−9 relative (bisection on {@link #cdf}): used only to choose where a grid
     * starts and ends, never in a privacy bound.
     */
    static double quantile(double p) {
        if (!(p > 0 && p < 1)) {
            throw new IllegalArgumentException("quantile needs p in (0, 1), got " + p);
        }
        if (p > 0.5) {
            return -quantile(1 - p);
        }
        double lo = -40;
        double hi = 0;
        double lnP = Math.log(p);
        for (int i = 0; i < 100 && hi - lo > 1e-10; i++) {
            double mid = 0.5 * (lo + hi);
            if (logCdf(mid) < lnP) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return 0.5 * (lo + hi);
    }
}
