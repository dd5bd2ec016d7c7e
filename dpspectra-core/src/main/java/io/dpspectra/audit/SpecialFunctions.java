package io.dpspectra.audit;

/**
 * ln Γ and the regularised incomplete beta function I_x(a, b), accurate to about 1e-13 relative, for
 * the Clopper–Pearson bounds of the auditor.
 *
 * <p>Reference: the continued fraction of I_x(a, b) (Abramowitz &amp; Stegun 26.5.8) evaluated by the
 * modified Lentz method, with the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) used where the fraction
 * converges slowly (x &gt; (a+1)/(a+b+2)).
 */
final class SpecialFunctions {
    private static final double EPS = 1e-16;
    private static final double TINY = 1e-300;
    private static final int MAX_ITERATIONS = 100_000;
    private static final double HALF_LN_TWO_PI = 0.5 * Math.log(2 * Math.PI);

    private SpecialFunctions() {
    }

    /** ln Γ(x) for x &gt; 0: Stirling's series for x ≥ 15, the recurrence Γ(x+1) = xΓ(x) below. */
    static double logGamma(double x) {
        if (!(x > 0) || Double.isInfinite(x)) {
            throw new IllegalArgumentException("logGamma needs a finite x > 0, got " + x);
        }
        double shift = 0;
        while (x < 15) {
            shift += Math.log(x);
            x += 1;
        }
        double z = 1 / (x * x);
        // Stirling series: 1/(12x) − 1/(360x³) + 1/(1260x⁵) − 1/(1680x⁷) + 1/(1188x⁹) − 691/(360360x¹¹)
        double series = (1.0 / 12 - z * (1.0 / 360 - z * (1.0 / 1260 - z * (1.0 / 1680
                - z * (1.0 / 1188 - z * 691.0 / 360360))))) / x;
        return (x - 0.5) * Math.log(x) - x + HALF_LN_TWO_PI + series - shift;
    }

    /** I_x(a, b), the regularised incomplete beta function, for a, b &gt; 0 and x in [0, 1]. */
    static double regularizedBeta(double x, double a, double b) {
        if (!(a > 0) || !(b > 0) || Double.isInfinite(a) || Double.isInfinite(b)) {
            throw new IllegalArgumentException("incomplete beta needs finite a, b > 0, got a=" + a + ", b=" + b);
        }
        if (!(x >= 0 && x <= 1)) {
            throw new IllegalArgumentException("incomplete beta needs x in [0, 1], got " + x);
        }
        if (x == 0 || x == 1) {
            return x;
        }
        if (x > (a + 1) / (a + b + 2)) {
            return 1 - regularizedBeta(1 - x, b, a);
        }
        double logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
        return Math.exp(logFront) * continuedFraction(x, a, b) / a;
    }

    /** The continued fraction of I_x(a, b) by the modified Lentz method (converges for x &lt; (a+1)/(a+b+2)). */
    private static double continuedFraction(double x, double a, double b) {
        double qab = a + b;
        double qap = a + 1;
        double qam = a - 1;
        double c = 1;
        double d = 1 - qab * x / qap;
        if (Math.abs(d) < TINY) {
            d = TINY;
        }
        d = 1 / d;
        double h = d;
        for (int m = 1; m <= MAX_ITERATIONS; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
            d = 1 + aa * d;
            if (Math.abs(d) < TINY) {
                d = TINY;
            }
            c = 1 + aa / c;
            if (Math.abs(c) < TINY) {
                c = TINY;
            }
            d = 1 / d;
            h *= d * c;
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
            d = 1 + aa * d;
            if (Math.abs(d) < TINY) {
                d = TINY;
            }
            c = 1 + aa / c;
            if (Math.abs(c) < TINY) {
                c = TINY;
            }
            d = 1 / d;
            double del = d * c;
            h *= del;
            if (Math.abs(del - 1) < EPS) {
                return h;
            }
        }
        throw new ArithmeticException("incomplete beta continued fraction did not converge for x=" + x
                + ", a=" + a + ", b=" + b);
    }

    /**
     * The p-quantile of the Beta(a, b) distribution: the x with I_x(a, b) = p, by bisection to an
     * absolute accuracy of 1e-15 or a relative accuracy of 1e-13, whichever is reached first.
     */
    static double inverseRegularizedBeta(double p, double a, double b) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("probability must be in [0, 1], got " + p);
        }
        if (p == 0) {
            return 0;
        }
        if (p == 1) {
            return 1;
        }
        double lo = 0;
        double hi = 1;
        for (int i = 0; i < 2000; i++) {
            double mid = 0.5 * (lo + hi);
            if (regularizedBeta(mid, a, b) < p) {
                lo = mid;
            } else {
                hi = mid;
            }
            if (hi - lo <= Math.max(1e-300, Math.min(1e-15, 1e-13 * hi))) {
                break;
            }
        }
        return 0.5 * (lo + hi);
    }
}
