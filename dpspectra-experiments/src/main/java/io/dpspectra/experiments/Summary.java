package io.dpspectra.experiments;

import java.util.Arrays;

/**
 * Mean, standard deviation, a 95% confidence band for the mean, and the median of repeated trials.
 * The band is mean ± t·s/√T with Student's t quantile for T − 1 degrees of freedom (T ≥ 2), the same
 * "mean and 95% band" the papers plot. With one trial the band is the point itself.
 */
public record Summary(int trials, double mean, double sd, double lower, double upper, double median) {

    /** Summarises the finite values of {@code values}; NaN entries (failed trials) are not allowed. */
    public static Summary of(double[] values) {
        int t = values.length;
        if (t == 0) {
            throw new IllegalArgumentException("no trials to summarise");
        }
        double mean = 0;
        for (double v : values) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("trial value " + v + " is not finite");
            }
            mean += v;
        }
        mean /= t;
        double ss = 0;
        for (double v : values) {
            ss += (v - mean) * (v - mean);
        }
        double sd = t > 1 ? Math.sqrt(ss / (t - 1)) : 0;
        double half = t > 1 ? tQuantile975(t - 1) * sd / Math.sqrt(t) : 0;
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double median = t % 2 == 1 ? sorted[t / 2] : 0.5 * (sorted[t / 2 - 1] + sorted[t / 2]);
        return new Summary(t, mean, sd, mean - half, mean + half, median);
    }

    /**
     * The 0.975 quantile of Student's t with {@code df} degrees of freedom: exact table values up to 30,
     * then the Cornish–Fisher expansion (error below 1e-4 there).
     */
    public static double tQuantile975(int df) {
        final double[] table = {12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
            2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739,
            2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
        if (df < 1) {
            throw new IllegalArgumentException("degrees of freedom must be >= 1, got " + df);
        }
        if (df <= table.length) {
            return table[df - 1];
        }
        double z = 1.959963984540054;
        double z3 = z * z * z;
        double z5 = z3 * z * z;
        return z + (z3 + z) / (4.0 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96.0 * df * df);
    }
}
