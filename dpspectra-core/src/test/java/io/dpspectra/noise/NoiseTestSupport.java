package io.dpspectra.noise;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/** Shared statistics for the noise tests. */
final class NoiseTestSupport {
    private NoiseTestSupport() {
    }

    /** Kolmogorov–Smirnov critical value at α = 1e−3 (asymptotic: √(−ln(α/2)/2)/√n). */
    static double ksCritical(int n) {
        return Math.sqrt(-Math.log(1e-3 / 2) / 2) / Math.sqrt(n);
    }

    /** Two-sided KS statistic sup |F_n − F| of the samples against the CDF. */
    static double ksStatistic(double[] samples, DoubleUnaryOperator cdf) {
        double[] s = samples.clone();
        Arrays.sort(s);
        int n = s.length;
        double d = 0;
        for (int i = 0; i < n; i++) {
            double f = cdf.applyAsDouble(s[i]);
            d = Math.max(d, Math.max(f - (double) i / n, (double) (i + 1) / n - f));
        }
        return d;
    }

    static double laplaceCdf(double z, double b) {
        return z < 0 ? 0.5 * Math.exp(z / b) : 1 - 0.5 * Math.exp(-z / b);
    }

    static double gaussianCdf(double z, double sigma) {
        return ErrorFunction.normalCdf(z / sigma);
    }

    static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    static double variance(double[] x) {
        double m = mean(x);
        double s = 0;
        for (double v : x) {
            s += (v - m) * (v - m);
        }
        return s / (x.length - 1);
    }

    static boolean isMultipleOf(double value, double g) {
        double units = value / g; // exact: g is a power of two
        return units == Math.rint(units);
    }
}
