package io.dpspectra.privacy.pld;

import io.dpspectra.noise.ErrorFunction;

/**
 * The privacy curves of the mechanisms this package describes, each in closed form.
 *
 * <p>References: Gaussian — Balle &amp; Wang, ICML 2018, Theorem 8, and Dong, Roth &amp; Su, "Gaussian Differential
 * Privacy", JRSS-B 2022, Corollary 2.13 (δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2)); Laplace — the curve
 * δ(ε) = 1 − e^{(ε − ε₀)/2} on [−ε₀, ε₀] (integral of the Laplace privacy loss, e.g. Google's dp_accounting
 * supplementary "Privacy Loss Distributions", §4.1); randomized response and the (ε, δ) point — Kairouz, Oh &amp;
 * Viswanath, ICML 2015, Theorem 2.1 (every (ε, δ)-DP mechanism is a post-processing of the four-outcome
 * mechanism whose losses are +∞, +ε, −ε, −∞); Poisson-subsampled Gaussian — Zhu, Dong &amp; Wang, AISTATS 2022,
 * Theorem 11 (add/remove: the pairs ((1 − q)N(0, σ²) + qN(−1, σ²), N(0, σ²)) and its reverse) and Lebeda,
 * Regehr, Kamath &amp; Steinke, "Avoiding Pitfalls for Privacy Accounting of Subsampled Mechanisms under
 * Composition", 2024, Proposition 13 (replace one: ((1 − q)N(0, σ²) + qN(−1, σ²), (1 − q)N(0, σ²) + qN(1, σ²))),
 * as Google's dp_accounting uses them.
 */
final class Curves {
    /** Mass of each noise tail left outside a grid's range. */
    static final double RANGE_TAIL = 1e-20;

    private static final double SQRT2 = Math.sqrt(2);

    private Curves() {
    }

    /**
     * δ(ε) of the Gaussian pair (N(0, 1), N(μ, 1)) for every real ε, without cancellation: with a = μ/2 + ε/μ and
     * b = μ/2 − ε/μ, δ = Φ(b) − e^ε·Φ(−a) and e^ε·Φ(−a) = ½·erfcx(a/√2)·e^{−b²/2} (a² − b² = 2ε).
     */
    static double gaussianDelta(double mu, double epsilon) {
        if (epsilon == Double.POSITIVE_INFINITY) {
            return 0;
        }
        if (mu == 0) {
            return Math.max(0, -Math.expm1(epsilon)); // identical distributions
        }
        double a = mu / 2 + epsilon / mu;
        double b = mu / 2 - epsilon / mu;
        double delta;
        if (a < 0) {
            // ε < −μ²/2: no cancellation (e^ε·Φ(−a) ≤ e^ε is small against Φ(b) ≥ ½)
            delta = Normal.cdf(b) - Math.exp(epsilon) * Normal.cdf(-a);
        } else {
            double tail = 0.5 * ErrorFunction.erfcx(a / SQRT2);
            if (b >= 0) {
                delta = (1 - 0.5 * ErrorFunction.erfc(b / SQRT2)) - tail * Math.exp(-b * b / 2);
            } else {
                delta = Math.exp(-b * b / 2) * (0.5 * ErrorFunction.erfcx(-b / SQRT2) - tail);
            }
        }
        return Math.min(1, Math.max(0, delta));
    }

    /** The Gaussian mechanism with sensitivity/σ = μ (symmetric: the same curve in both directions). */
    static PrivacyCurve gaussian(double mu) {
        double z = -Normal.quantile(RANGE_TAIL);
        return new PrivacyCurve() {
            @Override
            public double delta(double epsilon) {
                return gaussianDelta(mu, epsilon);
            }

            @Override
            public double lowLoss() {
                return mu * mu / 2 - z * mu;
            }

            @Override
            public double highLoss() {
                return mu * mu / 2 + z * mu;
            }
        };
    }

    /** The Laplace mechanism with sensitivity/scale = ε₀: δ(ε) = 1 − e^{(ε − ε₀)/2} on [−ε₀, ε₀]. */
    static PrivacyCurve laplace(double epsilon0) {
        return new SymmetricLosses(epsilon0) {
            @Override
            public double delta(double epsilon) {
                return outsideOr(epsilon, epsilon0, -Math.expm1((epsilon - epsilon0) / 2));
            }
        };
    }

    /**
     * Additive discrete Laplace noise on ℤ with P(k) ∝ e^{−|k|/β} and an integer shift a ≥ 1 between neighbours
     * (the pair (DLap(0), DLap(a))): losses (|k − a| − |k|)/β. With r = e^{−1/β} and K the largest k with loss
     * &gt; ε, δ(ε) = P(k ≤ K) − e^ε·P(k − a ≤ K − a) = 1 − r^{K+1}/(1 + r) − e^ε·r^{a−K}/(1 + r) for 0 ≤ K &lt; a.
     */
    static PrivacyCurve discreteLaplace(long shift, double scale) {
        double epsilon0 = shift / scale;
        return new SymmetricLosses(epsilon0) {
            @Override
            public double delta(double epsilon) {
                if (epsilon >= epsilon0 || epsilon < -epsilon0) {
                    return outsideOr(epsilon, epsilon0, Double.NaN);
                }
                // loss(k) = (a − 2k)/β > ε  ⟺  k < (a − βε)/2
                double bound = (shift - scale * epsilon) / 2;
                long k = (long) Math.ceil(bound) - 1;
                k = Math.max(0, Math.min(shift - 1, k));
                double lnR = -1 / scale;
                double onePlusR = 1 + Math.exp(lnR);
                double upper = 1 - Math.exp(lnR * (k + 1)) / onePlusR;
                double lower = Math.exp(epsilon + lnR * (shift - k)) / onePlusR;
                return Math.min(1, Math.max(0, upper - lower));
            }
        };
    }

    /**
     * The (ε₀, δ₀) four-outcome pair (losses +∞ w.p. δ₀, +ε₀ w.p. (1 − δ₀)e^{ε₀}/(1 + e^{ε₀}), −ε₀ w.p.
     * (1 − δ₀)/(1 + e^{ε₀})), which dominates every (ε₀, δ₀)-DP mechanism; δ₀ = 0 is randomized response, the
     * worst case of pure ε₀-DP (the exponential mechanism included).
     */
    static PrivacyCurve approximate(double epsilon0, double delta0) {
        double pHigh = (1 - delta0) / (1 + Math.exp(-epsilon0));
        double pLow = (1 - delta0) / (1 + Math.exp(epsilon0));
        return new SymmetricLosses(epsilon0) {
            @Override
            public double delta(double epsilon) {
                double d = delta0;
                if (epsilon < epsilon0) {
                    d += pHigh * -Math.expm1(epsilon - epsilon0);
                }
                if (epsilon < -epsilon0) {
                    d += pLow * -Math.expm1(epsilon + epsilon0);
                }
                return Math.min(1, d);
            }
        };
    }

    /**
     * δ(ε) of a pair whose losses all lie in [−ε₀, ε₀]: 0 for ε ≥ ε₀, 1 − e^ε for ε &lt; −ε₀ (every outcome's loss
     * exceeds ε), else {@code within}.
     */
    static double outsideOr(double epsilon, double epsilon0, double within) {
        if (epsilon >= epsilon0) {
            return 0;
        }
        return epsilon < -epsilon0 ? -Math.expm1(epsilon) : within;
    }

    /** A curve whose finite losses lie in [−ε₀, ε₀], each evaluated by one or two exp/expm1 and a subtraction. */
    private abstract static class SymmetricLosses implements PrivacyCurve {
        final double epsilon0;

        SymmetricLosses(double epsilon0) {
            this.epsilon0 = epsilon0;
        }

        @Override
        public double lowLoss() {
            return -epsilon0;
        }

        @Override
        public double highLoss() {
            return epsilon0;
        }

        @Override
        public double evaluationError() {
            return 1e-15; // one or two exp/expm1 and a subtraction
        }
    }

    /** Directions of a Poisson-subsampled Gaussian pair. */
    enum Direction {
        /** ((1 − q)N(0) + qN(−1), N(0)): the record removed. */
        REMOVE,
        /** (N(0), (1 − q)N(0) + qN(1)): the record added. */
        ADD,
        /** ((1 − q)N(0) + qN(−1), (1 − q)N(0) + qN(1)): the record replaced. */
        REPLACE
    }

    /**
     * The Poisson-subsampled Gaussian with sampling rate q and noise multiplier σ (noise standard deviation over
     * the bound on one record's contribution, which is 1 here).
     *
     * <p>Remove: δ(ε) = q·δ_G(ℓ) with ℓ = ln(1 + (e^ε − 1)/q) and δ_G the Gaussian curve of μ = 1/σ, for
     * ε &gt; ln(1 − q) (else 1 − e^ε): the pair's loss is ln(1 − q + q·e^{λ(x)}) with λ the Gaussian loss, so
     * {loss ≥ ε} = {λ ≥ ℓ} and the (1 − q)-parts cancel. Add: by duality δ_add(ε) = 1 − e^ε + e^ε·δ_remove(−ε)
     * = q·e^{ε + ℓ}·δ_G(−ℓ) with ℓ = ln(1 + (e^{−ε} − 1)/q), zero for ε ≥ −ln(1 − q). Replace: the loss is
     * decreasing in x; it is ≥ ε exactly for x ≤ x* = σ²·(asinh(−α·sinh(ε/2)) − ε/2), α = e^{1/(2σ²)}(1 − q)/q,
     * and δ = P(X ≤ x*) − e^ε·Q(X ≤ x*).
     */
    static PrivacyCurve subsampledGaussian(double q, double sigma, Direction direction) {
        double mu = 1 / sigma;
        double z = -Normal.quantile(RANGE_TAIL);
        double xMin = -z * sigma - 1;
        double xMax = z * sigma + 1;
        return new PrivacyCurve() {
            @Override
            public double delta(double epsilon) {
                return switch (direction) {
                    case REMOVE -> removeDelta(q, mu, epsilon);
                    case ADD -> addDelta(q, mu, epsilon);
                    case REPLACE -> replaceDelta(q, sigma, epsilon);
                };
            }

            @Override
            public double lowLoss() {
                return loss(xMax);
            }

            @Override
            public double highLoss() {
                return loss(xMin);
            }

            private double loss(double x) {
                double s2 = sigma * sigma;
                double lambdaRemove = (-2 * x - 1) / (2 * s2); // ln N(x; −1)/N(x; 0)
                double lambdaAdd = (1 - 2 * x) / (2 * s2);      // ln N(x; 0)/N(x; 1)
                return switch (direction) {
                    case REMOVE -> mixLog(q, lambdaRemove);
                    case ADD -> -mixLog(q, -lambdaAdd);
                    case REPLACE -> mixLog(q, lambdaRemove) - mixLog(q, (2 * x - 1) / (2 * s2));
                };
            }
        };
    }

    /** ln(1 − q + q·e^λ), stable for large λ. */
    static double mixLog(double q, double lambda) {
        if (q == 1) {
            return lambda;
        }
        double a = Math.log1p(-q);
        double b = Math.log(q) + lambda;
        double m = Math.max(a, b);
        return m + Math.log1p(Math.exp(Math.min(a, b) - m));
    }

    static double removeDelta(double q, double mu, double epsilon) {
        if (q == 1) {
            return gaussianDelta(mu, epsilon);
        }
        if (epsilon <= Math.log1p(-q)) {
            return -Math.expm1(epsilon);
        }
        double ell = Math.log1p(Math.expm1(epsilon) / q);
        return Math.min(1, q * gaussianDelta(mu, ell));
    }

    static double addDelta(double q, double mu, double epsilon) {
        if (q == 1) {
            return gaussianDelta(mu, epsilon);
        }
        if (epsilon >= -Math.log1p(-q)) {
            return 0;
        }
        double ell = Math.log1p(Math.expm1(-epsilon) / q);
        return Math.min(1, q * Math.exp(epsilon + ell) * gaussianDelta(mu, -ell));
    }

    static double replaceDelta(double q, double sigma, double epsilon) {
        if (q == 1) {
            return gaussianDelta(2 / sigma, epsilon);
        }
        double s2 = sigma * sigma;
        double t;
        if (epsilon == 0) {
            t = 0;
        } else {
            // asinh(−α·sinh(ε/2)) = −sign(ε)·asinh(α·|sinh(ε/2)|), in logs for large α
            double lnAlpha = 1 / (2 * s2) + Math.log1p(-q) - Math.log(q);
            double half = Math.abs(epsilon) / 2;
            double lnSinh = half + Math.log(-Math.expm1(-2 * half)) - Math.log(2);
            double lnY = lnAlpha + lnSinh;
            double asinh = asinhOfExp(lnY);
            t = -Math.signum(epsilon) * asinh - epsilon / 2;
        }
        double x = s2 * t;
        double lnQ = Math.log(q);
        double ln1mQ = Math.log1p(-q);
        // P(X ≤ x) = (1 − q)Φ(x/σ) + qΦ((x + 1)/σ);  Q(X ≤ x) = (1 − q)Φ(x/σ) + qΦ((x − 1)/σ)
        double lnPCenter = ln1mQ + Normal.logCdf(x / sigma);
        double lnPShift = lnQ + Normal.logCdf((x + 1) / sigma);
        double lnQShift = lnQ + Normal.logCdf((x - 1) / sigma);
        double p = Math.exp(lnPCenter) + Math.exp(lnPShift);
        double lnQAll = logAddExp(lnPCenter, lnQShift);
        double delta = p - Math.exp(epsilon + lnQAll);
        return Math.min(1, Math.max(0, delta));
    }

    private static double logAddExp(double a, double b) {
        double m = Math.max(a, b);
        if (m == Double.NEGATIVE_INFINITY) {
            return m;
        }
        return m + Math.log1p(Math.exp(Math.min(a, b) - m));
    }

    /** asinh(e^{lnY}) for any real lnY. */
    static double asinhOfExp(double lnY) {
        if (lnY > 20) {
            // asinh(y) = ln y + ln(1 + √(1 + 1/y²)) = ln y + ln 2 + O(1/y²)
            double inv2 = Math.exp(-2 * lnY);
            return lnY + Math.log(2) + Math.log1p(0.5 * (Math.sqrt(1 + inv2) - 1));
        }
        double y = Math.exp(lnY);
        return Math.log1p(y + y * y / (1 + Math.sqrt(1 + y * y)));
    }
}
