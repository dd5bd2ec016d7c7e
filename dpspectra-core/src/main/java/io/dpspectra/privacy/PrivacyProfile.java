package io.dpspectra.privacy;

import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.LaplaceNoise;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What a release actually ran, for the accountant to compose: the parameters of a dominating pair of output
 * distributions, from which {@code io.dpspectra.privacy.pld.PrivacyLossDistribution#of} builds its privacy loss
 * distribution. It is the tightest statement a mechanism can make; {@link Point} (an (ε, δ) point) is the fallback
 * when nothing tighter is known.
 *
 * <p>The profile is stated for the neighbouring relation of the {@link PrivacyGuarantee} that carries it. Every
 * profile dominates the mechanism it describes as run by this library's samplers (granularity rounding and lattice
 * noise included: see {@link #gaussianNoise} and {@link #laplaceNoise}).
 *
 * <p>Text form ({@link #encode}, {@link #decode}), used by the ledger: {@code gaussian(mu=0.04)},
 * {@code pure(epsilon=0.5)}, {@code point(epsilon=0.5,delta=1.0E-6)}, {@code discrete-laplace(shift=9,scale=2.5)},
 * {@code subsampled-gaussian(q=0.01,z=1.1,steps=2000,relation=replace)} and {@code compose(A;B;...)}.
 */
public sealed interface PrivacyProfile {

    /**
     * Gaussian noise with sensitivity/σ = μ, or an adaptive composition of Gaussian mechanisms with
     * μ = √(Σμ_i²): μ-GDP, exactly (Dong, Roth &amp; Su 2022).
     */
    record Gaussian(double mu) implements PrivacyProfile {
        /**
         * Checks μ.
         *
         * @param mu sensitivity / σ, &gt; 0 and finite
         * @throws IllegalArgumentException for another μ
         */
        public Gaussian {
            if (!(mu > 0) || !Double.isFinite(mu)) {
                throw new IllegalArgumentException("mu (sensitivity / sigma) must be > 0 and finite, got " + mu);
            }
        }
    }

    /** Any ε-DP mechanism (exponential mechanism, randomized response, Laplace noise): randomized response dominates. */
    record Pure(double epsilon) implements PrivacyProfile {
        /**
         * Checks ε.
         *
         * @param epsilon ε ≥ 0
         * @throws IllegalArgumentException for a negative or non-finite ε
         */
        public Pure {
            DpPreconditions.checkEpsilon(epsilon);
        }
    }

    /** Only an (ε, δ) guarantee is known: the four-outcome mechanism of Kairouz, Oh &amp; Viswanath dominates. */
    record Point(double epsilon, double delta) implements PrivacyProfile {
        /**
         * Checks ε and δ.
         *
         * @param epsilon ε ≥ 0
         * @param delta   δ in [0, 1)
         * @throws IllegalArgumentException for an invalid ε or δ
         */
        public Point {
            DpPreconditions.checkEpsilon(epsilon);
            DpPreconditions.checkDelta(delta);
        }
    }

    /**
     * One scalar release with discrete Laplace noise P(k) ∝ e^{−|k|/scale} on a lattice, neighbours' values differing
     * by at most {@code shift} lattice steps (as {@link LaplaceNoise} draws it, in units of its granularity).
     */
    record DiscreteLaplace(long shift, double scale) implements PrivacyProfile {
        /**
         * Checks the shift and the scale.
         *
         * @param shift the largest difference of neighbours' values, in lattice steps, ≥ 1
         * @param scale the noise scale in lattice steps, &gt; 0
         * @throws IllegalArgumentException for a shift below 1 or a scale ≤ 0
         */
        public DiscreteLaplace {
            if (shift < 1) {
                throw new IllegalArgumentException("shift must be >= 1 lattice step, got " + shift);
            }
            DpPreconditions.checkPositive("scale", scale);
        }
    }

    /**
     * {@code steps} Poisson-subsampled Gaussian steps: each record joins each step's batch with probability q, and
     * the batch's sum of per-record terms (norm ≤ the bound the noise multiplier z refers to) gets noise z times that
     * bound. {@code relation} is {@link Neighbouring#ADD_REMOVE_ROW} or {@link Neighbouring#REPLACE_ROW} (accounted
     * exactly, Lebeda et al. 2024, Proposition 13).
     */
    record SubsampledGaussian(double q, double z, int steps, Neighbouring relation) implements PrivacyProfile {
        /**
         * Checks the parameters.
         *
         * @param q        the sampling rate, in (0, 1]
         * @param z        the noise multiplier, &gt; 0
         * @param steps    the number of steps, ≥ 1
         * @param relation add/remove or replace-one rows
         * @throws IllegalArgumentException for a parameter out of range or another relation
         */
        public SubsampledGaussian {
            if (!(q > 0 && q <= 1)) {
                throw new IllegalArgumentException("sampling rate q must be in (0, 1], got " + q);
            }
            DpPreconditions.checkPositive("noise multiplier", z);
            DpPreconditions.checkAtLeast("steps", steps, 1);
            Objects.requireNonNull(relation, "relation");
            if (relation != Neighbouring.ADD_REMOVE_ROW && relation != Neighbouring.REPLACE_ROW) {
                throw new IllegalArgumentException("a subsampled Gaussian is stated for add/remove or replace-one rows, "
                        + "got " + relation);
            }
        }
    }

    /** Mechanisms run one after the other on the same rows (in any order, adaptively chosen or not). */
    record Composition(List<PrivacyProfile> parts) implements PrivacyProfile {
        /**
         * Copies and checks the parts.
         *
         * @param parts the parts, at least two, none a composition
         * @throws IllegalArgumentException for fewer than two parts or a nested composition
         */
        public Composition {
            parts = List.copyOf(parts);
            if (parts.size() < 2) {
                throw new IllegalArgumentException("a composition needs at least two parts, got " + parts.size());
            }
            for (PrivacyProfile p : parts) {
                if (p instanceof Composition) {
                    throw new IllegalArgumentException("compositions are flat; use PrivacyProfile.compose");
                }
            }
        }
    }

    // ---- factories -------------------------------------------------------------------------------------------

    /**
     * The profile implied by (ε, δ) alone: {@link Pure} for δ = 0, else {@link Point}.
     *
     * @param params the (ε, δ)
     * @return the profile
     */
    static PrivacyProfile of(PrivacyParams params) {
        return params.delta() == 0 ? new Pure(params.epsilon()) : new Point(params.epsilon(), params.delta());
    }

    /**
     * A release made only of Gaussian mechanisms calibrated together to (ε, δ) by the analytic rule
     * ({@link GaussianNoise#sigmaFor}): μ = 1/σ*, σ* the analytic σ for sensitivity 1 (rounding included, since
     * sigmaFor calibrates for the rounded sensitivity), raised by a relative 1e−12 for the bisections of σ at other
     * sensitivities (as {@link GaussianNoise#zcdpRho}). For δ = 0, {@link Pure}.
     *
     * @param params the (ε, δ) the release was calibrated to
     * @return the profile
     */
    static PrivacyProfile gaussianCalibratedTo(PrivacyParams params) {
        if (params.delta() == 0) {
            return new Pure(params.epsilon());
        }
        return new Gaussian(1 / GaussianNoise.analyticSigma(1.0, params.epsilon(), params.delta()) * (1 + 1e-12));
    }

    /**
     * {@link GaussianNoise} with standard deviation σ on m coordinates of L2 sensitivity Δ: μ = (Δ + √m·g(σ))/σ,
     * rounded up. Why a continuous Gaussian dominates the lattice mechanism actually run: rounding to gℤ moves the
     * neighbours' difference to an integer vector v (in units of g) of norm ≤ (Δ + √m·g)/g; the noise is the discrete
     * Gaussian with parameter s = ⌈σ/g⌉ ≥ σ/g. Adding N(0, s'²) with s'² = s² − 16 and then drawing each coordinate
     * as k with probability c·φ_4(k − y) (a Gaussian kernel of width 4 lattice steps, c = 1/max_y Σ_k φ_4(k − y),
     * the rest "⊥") gives exactly λ^m·(discrete Gaussian shifted by v) + (1 − λ^m)·⊥ with λ independent of v, so
     * the discrete mechanism's δ(ε) is at most δ_Gauss(μ·s/s')(ε)/λ^m (post-processing). With s ≥ 2^43,
     * s/s' − 1 &lt; 2^−83 and 1/λ^m − 1 &lt; 10^−120 for every m ≤ 2^52: below double precision, covered by rounding μ
     * up. For μ ≤ 256 the sampler's redraw of |k| ≥ 2^53 (beyond 256 of its standard deviations) changes δ by
     * less than e^{ε − 30000}.
     *
     * @param sigma         the noise standard deviation, &gt; 0
     * @param l2Sensitivity the L2 sensitivity of the released vector
     * @param coordinates   the number of noisy coordinates m
     * @return the dominating Gaussian profile
     */
    static PrivacyProfile gaussianNoise(double sigma, double l2Sensitivity, long coordinates) {
        DpPreconditions.checkPositive("sigma", sigma);
        DpPreconditions.checkSensitivity("l2Sensitivity", l2Sensitivity);
        double g = GaussianNoise.granularity(sigma);
        double mu = (l2Sensitivity + Math.sqrt((double) coordinates) * g) / sigma;
        return new Gaussian(Math.nextUp(Math.nextUp(mu)));
    }

    /**
     * {@link LaplaceNoise} with scale b on m coordinates of L1 sensitivity Δ: for one coordinate the exact lattice
     * mechanism ({@link DiscreteLaplace}, shift ⌊Δ/g⌋ + 1 steps, scale b/g), else pure ε = (Δ + m·g)/b.
     *
     * @param scale         the Laplace scale b, &gt; 0
     * @param l1Sensitivity the L1 sensitivity of the released vector
     * @param coordinates   the number of noisy coordinates m
     * @return the dominating profile
     */
    static PrivacyProfile laplaceNoise(double scale, double l1Sensitivity, long coordinates) {
        DpPreconditions.checkPositive("scale", scale);
        DpPreconditions.checkSensitivity("l1Sensitivity", l1Sensitivity);
        double g = LaplaceNoise.granularity(scale);
        if (coordinates == 1) {
            long shift = (long) Math.floor(l1Sensitivity / g) + 1;
            return new DiscreteLaplace(shift, scale / g);
        }
        return new Pure(Math.nextUp((l1Sensitivity + coordinates * g) / scale));
    }

    /**
     * The composition of the parts: flattened, its Gaussian parts merged into one (μ = √Σμ²), exactly.
     *
     * @param parts the mechanisms run
     * @return their composition (a single part is returned as it is)
     */
    static PrivacyProfile compose(List<PrivacyProfile> parts) {
        Objects.requireNonNull(parts, "parts");
        List<PrivacyProfile> flat = new ArrayList<>();
        double muSquared = 0;
        for (PrivacyProfile p : parts) {
            Objects.requireNonNull(p, "part");
            List<PrivacyProfile> inner = p instanceof Composition c ? c.parts() : List.of(p);
            for (PrivacyProfile q : inner) {
                if (q instanceof Gaussian g) {
                    muSquared += g.mu() * g.mu();
                } else {
                    flat.add(q);
                }
            }
        }
        if (muSquared > 0) {
            flat.add(0, new Gaussian(Math.nextUp(Math.sqrt(muSquared))));
        }
        if (flat.isEmpty()) {
            throw new IllegalArgumentException("nothing to compose");
        }
        return flat.size() == 1 ? flat.get(0) : new Composition(flat);
    }

    /**
     * The composition of the parts (see {@link #compose(List)}).
     *
     * @param parts the mechanisms run
     * @return their composition
     */
    static PrivacyProfile compose(PrivacyProfile... parts) {
        return compose(List.of(parts));
    }

    // ---- what it implies -------------------------------------------------------------------------------------

    /**
     * The zCDP cost ρ this profile implies (Bun &amp; Steinke 2016): μ²/2 for Gaussian noise (Prop. 1.6), ε²/2 for
     * pure ε (Prop. 1.4), steps·μ²/2 for subsampled Gaussian steps without amplification (μ = 1/z, 2/z for
     * replace-one), the sum for a composition (Lemma 2.3), NaN for an (ε, δ) point with δ &gt; 0 (it has none).
     *
     * @return ρ, or NaN
     */
    default double zcdpRho() {
        if (this instanceof Gaussian g) {
            return g.mu() * g.mu() / 2;
        }
        if (this instanceof Pure p) {
            return p.epsilon() * p.epsilon() / 2;
        }
        if (this instanceof Point p) {
            return p.delta() == 0 ? p.epsilon() * p.epsilon() / 2 : Double.NaN;
        }
        if (this instanceof DiscreteLaplace l) {
            double e = l.shift() / l.scale();
            return e * e / 2;
        }
        if (this instanceof SubsampledGaussian s) {
            double mu = (s.relation() == Neighbouring.REPLACE_ROW ? 2 : 1) / s.z();
            return s.steps() * mu * mu / 2;
        }
        double r = 0;
        for (PrivacyProfile p : ((Composition) this).parts()) {
            r += p.zcdpRho();
        }
        return r;
    }

    /**
     * The ε of a pure-DP profile (its parts' ε added up for a composition: basic composition is exact for the
     * worst case of pure DP at δ = 0), NaN when some part has δ &gt; 0.
     *
     * @return ε, or NaN
     */
    default double pureEpsilon() {
        if (this instanceof Pure p) {
            return p.epsilon();
        }
        if (this instanceof Point p) {
            return p.delta() == 0 ? p.epsilon() : Double.NaN;
        }
        if (this instanceof DiscreteLaplace l) {
            return l.shift() / l.scale();
        }
        if (this instanceof Composition c) {
            double e = 0;
            for (PrivacyProfile part : c.parts()) {
                e += part.pureEpsilon();
            }
            return e;
        }
        return Double.NaN;
    }

    /**
     * The GDP parameter μ when the profile is Gaussian only (exact composition), else NaN.
     *
     * @return μ, or NaN
     */
    default double gaussianMu() {
        return this instanceof Gaussian g ? g.mu() : Double.NaN;
    }

    /**
     * One line for people, e.g. "Gaussian noise, mu = 0.0453".
     *
     * @return the description
     */
    default String describe() {
        if (this instanceof Gaussian g) {
            return "Gaussian noise, mu = " + num(g.mu()) + " (sensitivity / sigma; exact GDP)";
        }
        if (this instanceof Pure p) {
            return "pure epsilon = " + num(p.epsilon());
        }
        if (this instanceof Point p) {
            return "(epsilon = " + num(p.epsilon()) + ", delta = " + num(p.delta()) + ") only";
        }
        if (this instanceof DiscreteLaplace l) {
            return "discrete Laplace noise, shift " + l.shift() + " / scale " + num(l.scale()) + " lattice steps";
        }
        if (this instanceof SubsampledGaussian s) {
            return s.steps() + " Poisson-subsampled Gaussian steps, rate " + num(s.q()) + ", noise multiplier "
                    + num(s.z()) + " (" + (s.relation() == Neighbouring.REPLACE_ROW ? "replace one" : "add/remove") + ")";
        }
        List<String> out = new ArrayList<>();
        for (PrivacyProfile p : ((Composition) this).parts()) {
            out.add(p.describe());
        }
        return String.join(" + ", out);
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.6g", v);
    }

    // ---- text form -------------------------------------------------------------------------------------------

    /**
     * The text form, exact (doubles in their round-trip decimal form).
     *
     * @return the text form
     */
    default String encode() {
        if (this instanceof Gaussian g) {
            return "gaussian(mu=" + g.mu() + ")";
        }
        if (this instanceof Pure p) {
            return "pure(epsilon=" + p.epsilon() + ")";
        }
        if (this instanceof Point p) {
            return "point(epsilon=" + p.epsilon() + ",delta=" + p.delta() + ")";
        }
        if (this instanceof DiscreteLaplace l) {
            return "discrete-laplace(shift=" + l.shift() + ",scale=" + l.scale() + ")";
        }
        if (this instanceof SubsampledGaussian s) {
            return "subsampled-gaussian(q=" + s.q() + ",z=" + s.z() + ",steps=" + s.steps() + ",relation="
                    + (s.relation() == Neighbouring.REPLACE_ROW ? "replace" : "add-remove") + ")";
        }
        List<String> out = new ArrayList<>();
        for (PrivacyProfile p : ((Composition) this).parts()) {
            out.add(p.encode());
        }
        return "compose(" + String.join(";", out) + ")";
    }

    /**
     * Parses {@link #encode}'s form; throws IllegalArgumentException naming what is wrong.
     *
     * @param text the text form
     * @return the profile
     * @throws IllegalArgumentException when the text is not a profile
     */
    static PrivacyProfile decode(String text) {
        Objects.requireNonNull(text, "text");
        String t = text.strip();
        int open = t.indexOf('(');
        if (open < 0 || !t.endsWith(")")) {
            throw new IllegalArgumentException("not a privacy profile: \"" + text + "\"");
        }
        String kind = t.substring(0, open);
        String body = t.substring(open + 1, t.length() - 1);
        if (kind.equals("compose")) {
            List<PrivacyProfile> parts = new ArrayList<>();
            int depth = 0;
            int start = 0;
            for (int i = 0; i < body.length(); i++) {
                char c = body.charAt(i);
                if (c == '(') {
                    depth++;
                } else if (c == ')') {
                    depth--;
                } else if (c == ';' && depth == 0) {
                    parts.add(decode(body.substring(start, i)));
                    start = i + 1;
                }
            }
            parts.add(decode(body.substring(start)));
            return new Composition(parts);
        }
        java.util.Map<String, String> f = new java.util.HashMap<>();
        for (String kv : body.split(",")) {
            int eq = kv.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("not a key=value pair in privacy profile \"" + text + "\": " + kv);
            }
            f.put(kv.substring(0, eq).strip(), kv.substring(eq + 1).strip());
        }
        try {
            return switch (kind) {
                case "gaussian" -> new Gaussian(d(f, "mu"));
                case "pure" -> new Pure(d(f, "epsilon"));
                case "point" -> new Point(d(f, "epsilon"), d(f, "delta"));
                case "discrete-laplace" -> new DiscreteLaplace(Long.parseLong(req(f, "shift")), d(f, "scale"));
                case "subsampled-gaussian" -> new SubsampledGaussian(d(f, "q"), d(f, "z"),
                        Integer.parseInt(req(f, "steps")), switch (req(f, "relation")) {
                            case "replace" -> Neighbouring.REPLACE_ROW;
                            case "add-remove" -> Neighbouring.ADD_REMOVE_ROW;
                            default -> throw new IllegalArgumentException("relation must be replace or add-remove");
                        });
                default -> throw new IllegalArgumentException("unknown kind \"" + kind + "\"");
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad number in privacy profile \"" + text + "\": " + e.getMessage(), e);
        }
    }

    private static String req(java.util.Map<String, String> f, String key) {
        String v = f.get(key);
        if (v == null) {
            throw new IllegalArgumentException("privacy profile lacks " + key);
        }
        return v;
    }

    private static double d(java.util.Map<String, String> f, String key) {
        return Double.parseDouble(req(f, key));
    }
}
