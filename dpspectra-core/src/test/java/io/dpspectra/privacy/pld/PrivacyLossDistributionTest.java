package io.dpspectra.privacy.pld;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The privacy loss distributions against closed forms (never below the exact curve, and within the discretisation's
 * measured error: 1e−3 relative plus 1e−10 absolute at h = 1e−4, the absolute part covering the floating-point
 * bound that every δ carries) and against published values of Google's dp_accounting.
 *
 * <p>dp_accounting values are copied from github.com/google/differential-privacy at commit
 * b5b0286e313b64a692abfc8c528d54ef47d960a0, python/dp_accounting/dp_accounting/pld/: pld_privacy_accountant_test.py
 * (PLD_ACC), privacy_loss_distribution_test.py (PLD_TEST) and accountant_test.py (ACC_TEST), each with the name of
 * the test it comes from and that test's own tolerance.
 */
class PrivacyLossDistributionTest {
    private static final double H = PrivacyLossDistribution.DEFAULT_DISCRETIZATION;
    private static final double[] EPSILONS = {0, 0.1, 0.5, 1, 2, 4};

    private static void assertSafeAndClose(double pld, double exact, String what) {
        assertThat(pld).as("%s: never below the exact value", what).isGreaterThanOrEqualTo(exact);
        assertThat(pld).as("%s: within the discretisation's error", what).isLessThanOrEqualTo(exact * 1.001 + 1e-10);
    }

    // ---- FFT ------------------------------------------------------------------------------------------------

    @Test
    void fftConvolutionMatchesTheDirectSumWithinItsStatedBound() {
        RandomSource r = RandomSource.seededForReproducibility(7);
        for (int[] sizes : new int[][] {{300, 500}, {4096, 3000}, {20_000, 1}, {1, 70_000}}) {
            double[] a = randomPmf(sizes[0], r);
            double[] b = randomPmf(sizes[1], r);
            Fft.Result fft = Fft.convolve(a, b);
            double[] exact = new double[a.length + b.length - 1];
            for (int i = 0; i < a.length; i++) {
                for (int j = 0; j < b.length; j++) {
                    exact[i + j] += a[i] * b[j];
                }
            }
            double l1 = 0;
            for (int k = 0; k < exact.length; k++) {
                assertThat(fft.values()[k]).isGreaterThanOrEqualTo(0);
                l1 += Math.abs(fft.values()[k] - exact[k]);
            }
            assertThat(l1).as("L1 error for sizes %s x %s", sizes[0], sizes[1]).isLessThanOrEqualTo(fft.l1Error());
            assertThat(fft.l1Error()).isLessThan(1e-9);
        }
    }

    @Test
    void selfConvolutionAgreesWithConvolutionOfACopy() {
        double[] a = randomPmf(50_000, RandomSource.seededForReproducibility(8));
        Fft.Result self = Fft.convolve(a, a);
        Fft.Result copy = Fft.convolve(a, a.clone());
        double l1 = 0;
        for (int k = 0; k < self.values().length; k++) {
            l1 += Math.abs(self.values()[k] - copy.values()[k]);
        }
        assertThat(l1).isLessThanOrEqualTo(self.l1Error() + copy.l1Error());
    }

    private static double[] randomPmf(int n, RandomSource r) {
        double[] p = new double[n];
        double s = 0;
        for (int i = 0; i < n; i++) {
            p[i] = r.nextDouble();
            s += p[i];
        }
        for (int i = 0; i < n; i++) {
            p[i] /= s;
        }
        return p;
    }

    // ---- closed forms: never optimistic, close --------------------------------------------------------------

    @Test
    void gaussianCompositionsAreNeverBelowTheExactGdpCurve() {
        for (double mu : new double[] {0.05, 0.3, 1.0, 2.5}) {
            PrivacyLossDistribution one = PrivacyLossDistribution.gaussian(mu, H);
            for (int k : mu < 1 ? new int[] {1, 3, 40} : new int[] {1, 3}) {
                PrivacyLossDistribution c = k == 1 ? one : one.selfCompose(k);
                double muK = mu * Math.sqrt(k);
                for (double e : EPSILONS) {
                    double exact = GaussianPrivacy.delta(muK, e);
                    assertSafeAndClose(c.deltaForEpsilon(e), exact, "mu " + mu + " x" + k + " at eps " + e);
                }
                for (double d : new double[] {1e-3, 1e-6, 1e-9}) {
                    // the same error, seen from the other axis: never below the exact ε at δ, never above the exact
                    // ε at the δ lowered by the discretisation's error
                    double eps = c.epsilonForDelta(d);
                    assertThat(eps).as("epsilon(%s) of mu %s x%s", d, mu, k)
                            .isGreaterThanOrEqualTo(GaussianPrivacy.epsilon(muK, d) * (1 - 1e-12))
                            .isLessThanOrEqualTo(GaussianPrivacy.epsilon(muK, (d - 1e-10) / 1.001));
                }
            }
        }
    }

    @Test
    void gaussianDeltaIsTheClosedForm() {
        // Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2), evaluated directly where no cancellation threatens
        for (double mu : new double[] {0.5, 1, 2}) {
            for (double e : new double[] {0, 0.3, 1}) {
                double direct = Normal.cdf(-e / mu + mu / 2) - Math.exp(e) * Normal.cdf(-e / mu - mu / 2);
                assertThat(GaussianPrivacy.delta(mu, e)).isCloseTo(direct, within(1e-14));
            }
        }
        assertThat(GaussianPrivacy.delta(1, 1)).isCloseTo(0.126936737506644, within(1e-12)); // PLD_ACC test_gaussian_basic
    }

    @Test
    void laplaceIsNeverBelowItsExactCurve() {
        for (double eps0 : new double[] {0.1, 1, 3}) {
            PrivacyLossDistribution pld = PrivacyLossDistribution.laplace(eps0, H);
            for (double e : new double[] {-eps0, -0.5 * eps0, 0, 0.3 * eps0, 0.9 * eps0, eps0, 2 * eps0}) {
                double exact = e >= eps0 ? 0 : -Math.expm1((e - eps0) / 2);
                assertSafeAndClose(pld.deltaForEpsilon(e), exact, "laplace " + eps0 + " at " + e);
            }
        }
    }

    @Test
    void twoLaplaceMechanismsAreNeverBelowTheirExactComposition() {
        // the exact composition by numerical integration over the first loss (Simpson, 200,000 cells)
        double e1 = 1.0;
        double e2 = 0.6;
        PrivacyLossDistribution pld = PrivacyLossDistribution.laplace(e1, H).compose(PrivacyLossDistribution.laplace(e2, H));
        DoubleUnaryOperator second = e -> e >= e2 ? 0 : e < -e2 ? -Math.expm1(e) : -Math.expm1((e - e2) / 2);
        for (double e : new double[] {0, 0.4, 1.0, 1.5}) {
            // L1 = e1 w.p. 1/2, −e1 w.p. e^{−e1}/2, e1 − 2y (y ∈ (0, e1)... in scale units) with density e^{−y}/2
            double exact = 0.5 * deltaShifted(second, e - e1) + 0.5 * Math.exp(-e1) * deltaShifted(second, e + e1);
            int cells = 200_000;
            double w = e1 / cells;
            double integral = 0;
            for (int i = 0; i <= cells; i++) {
                double y = i * w;
                double f = 0.5 * Math.exp(-y) * deltaShifted(second, e - (e1 - 2 * y));
                integral += f * (i == 0 || i == cells ? 1 : (i % 2 == 1 ? 4 : 2));
            }
            exact += integral * w / 3;
            assertThat(pld.deltaForEpsilon(e)).as("at %s", e).isGreaterThanOrEqualTo(exact - 1e-12)
                    .isLessThanOrEqualTo(exact * 1.001 + 1e-10);
        }
    }

    /**
     * δ of (M1 then M2) at ε, given that M1's loss was ℓ: E over M2 of (1 − e^{ε − ℓ − L2})_+, which is M2's δ at
     * ε − ℓ (here passed as the shifted argument).
     */
    private static double deltaShifted(DoubleUnaryOperator curve, double shifted) {
        return curve.applyAsDouble(shifted);
    }

    @Test
    void randomizedResponseCompositionsAreNeverBelowTheBinomialClosedForm() {
        for (double eps0 : new double[] {0.05, 0.7}) {
            for (int k : new int[] {1, 7, 30}) {
                PrivacyLossDistribution pld = PrivacyLossDistribution.pureDp(eps0, H).selfCompose(k);
                for (double e : new double[] {0, 0.5, 1, 3}) {
                    double exact = binomialRr(eps0, k, e);
                    assertSafeAndClose(pld.deltaForEpsilon(e), exact, "RR " + eps0 + " x" + k + " at " + e);
                }
            }
        }
    }

    /** k-fold randomized response: loss (2j − k)ε₀ with probability C(k, j) p^j (1 − p)^{k−j}, p = e^ε₀/(1 + e^ε₀). */
    private static double binomialRr(double eps0, int k, double e) {
        double p = 1 / (1 + Math.exp(-eps0));
        double d = 0;
        double logC = 0;
        for (int j = 0; j <= k; j++) {
            if (j > 0) {
                logC += Math.log((double) (k - j + 1) / j);
            }
            double loss = (2.0 * j - k) * eps0;
            if (loss > e) {
                d += Math.exp(logC + j * Math.log(p) + (k - j) * Math.log1p(-p)) * -Math.expm1(e - loss);
            }
        }
        return d;
    }

    @Test
    void discreteLaplaceMatchesItsSumOverTheLattice() {
        long shift = 3;
        double scale = 2.5;
        PrivacyLossDistribution pld = PrivacyLossDistribution.discreteLaplace(shift, scale, H);
        for (double e : new double[] {-1, 0, 0.2, 0.7, 1.1, 1.3}) {
            // δ(ε) = Σ_k [P(k) − e^ε P(k − a)]_+ over the lattice, P(k) ∝ e^{−|k|/β}
            double exact = 0;
            double r = Math.exp(-1 / scale);
            double norm = (1 - r) / (1 + r);
            for (int k = -2000; k <= 2000; k++) {
                double pk = norm * Math.exp(-Math.abs(k) / scale);
                double qk = norm * Math.exp(-Math.abs(k - shift) / scale);
                exact += Math.max(0, pk - Math.exp(e) * qk);
            }
            assertSafeAndClose(pld.deltaForEpsilon(e), exact, "discrete Laplace at " + e);
        }
    }

    @Test
    void subsampledGaussianAtRateOneIsTheGaussian() {
        PrivacyLossDistribution sub = PrivacyLossDistribution.poissonSubsampledGaussian(1.0, 0.8, Neighbouring.ADD_REMOVE_ROW, H);
        PrivacyLossDistribution rep = PrivacyLossDistribution.poissonSubsampledGaussian(1.0, 0.8, Neighbouring.REPLACE_ROW, H);
        for (double e : EPSILONS) {
            assertSafeAndClose(sub.deltaForEpsilon(e), GaussianPrivacy.delta(1 / 0.8, e), "q = 1 add/remove at " + e);
            assertSafeAndClose(rep.deltaForEpsilon(e), GaussianPrivacy.delta(2 / 0.8, e), "q = 1 replace at " + e);
        }
    }

    @Test
    void subsampledGaussianCurvesMatchNumericalIntegration() {
        double q = 0.3;
        double sigma = 0.7;
        for (Curves.Direction dir : Curves.Direction.values()) {
            PrivacyCurve curve = Curves.subsampledGaussian(q, sigma, dir);
            for (double e : new double[] {-0.2, 0, 0.5, 1.5}) {
                double numeric = integrateHockeyStick(q, sigma, dir, e);
                assertThat(curve.delta(e)).as("%s at %s", dir, e).isCloseTo(numeric, within(1e-9));
            }
        }
    }

    /** ∫ [p(x) − e^ε q(x)]_+ dx by the midpoint rule on [−12, 12] with 400,000 cells. */
    private static double integrateHockeyStick(double q, double sigma, Curves.Direction dir, double e) {
        int cells = 400_000;
        double lo = -12;
        double w = 24.0 / cells;
        double s = 0;
        for (int i = 0; i < cells; i++) {
            double x = lo + (i + 0.5) * w;
            double n0 = density(x, 0, sigma);
            double nm = density(x, -1, sigma);
            double np = density(x, 1, sigma);
            double p;
            double qq;
            switch (dir) {
                case REMOVE -> {
                    p = (1 - q) * n0 + q * nm;
                    qq = n0;
                }
                case ADD -> {
                    p = n0;
                    qq = (1 - q) * n0 + q * np;
                }
                default -> {
                    p = (1 - q) * n0 + q * nm;
                    qq = (1 - q) * n0 + q * np;
                }
            }
            s += Math.max(0, p - Math.exp(e) * qq);
        }
        return s * w;
    }

    private static double density(double x, double mean, double sigma) {
        double z = (x - mean) / sigma;
        return Math.exp(-z * z / 2) / (sigma * Math.sqrt(2 * Math.PI));
    }

    @Test
    void replaceOneIsTighterThanGroupPrivacyAndLooserThanAddRemove() {
        double q = 0.01;
        double z = 1.0;
        int t = 500;
        PrivacyLossDistribution addRemove = PrivacyLossDistribution.poissonSubsampledGaussian(q, z, Neighbouring.ADD_REMOVE_ROW, 1e-3)
                .selfCompose(t);
        PrivacyLossDistribution replace = PrivacyLossDistribution.poissonSubsampledGaussian(q, z, Neighbouring.REPLACE_ROW, 1e-3)
                .selfCompose(t);
        double delta = 1e-5;
        double epsReplace = replace.epsilonForDelta(delta);
        double epsAddRemove = addRemove.epsilonForDelta(delta / (1 + Math.exp(epsReplace / 2)));
        assertThat(epsReplace).isGreaterThan(addRemove.epsilonForDelta(delta));
        // group privacy of size 2 needs twice the add/remove epsilon at a smaller delta
        assertThat(epsReplace).isLessThan(2 * epsAddRemove);
    }

    // ---- published values of Google's dp_accounting ---------------------------------------------------------

    @Test
    void dpAccountingGaussianBasic() {
        // PLD_ACC test_gaussian_basic: σ = √3 composed 1 + 2 times, exact δ(1) = 0.126936, ε(0.126936) = 1 (±1e-3)
        PrivacyLossDistribution g = PrivacyLossDistribution.gaussian(1 / Math.sqrt(3), H);
        PrivacyLossDistribution c = g.compose(g.selfCompose(2));
        assertThat(c.deltaForEpsilon(1)).isCloseTo(0.126936, within(1e-3)).isGreaterThanOrEqualTo(0.126936737506644);
        assertThat(c.epsilonForDelta(0.126936)).isCloseTo(1, within(1e-3));
    }

    @Test
    void dpAccountingPoissonSubsampledGaussian() {
        // PLD_ACC test_poisson_subsampled_gaussian / test_self_composed_subsampled_gaussian: q = 0.2, σ = 0.5,
        // three steps, add-or-remove: δ(1) = 0.15594, ε(0.15594) = 1 (±1e-3)
        PrivacyLossDistribution s = PrivacyLossDistribution.poissonSubsampledGaussian(0.2, 0.5, Neighbouring.ADD_REMOVE_ROW, H);
        PrivacyLossDistribution c = s.compose(s.selfCompose(2));
        assertThat(c.deltaForEpsilon(1)).isCloseTo(0.15594, within(1e-3));
        assertThat(c.epsilonForDelta(0.15594)).isCloseTo(1, within(1e-3));
        assertThat(s.selfCompose(3).deltaForEpsilon(1)).isCloseTo(0.15594, within(1e-3));
    }

    @Test
    void dpAccountingLaplaceBasic() {
        // PLD_ACC test_laplace_basic: Laplace parameter 1 three times and 2 twice (sensitivity 1): ε = 4 at δ ≈ 1e-14
        // (their tolerance 1e-6). Our δ carries the rigorous floating-point bound of the convolutions (about 1e-10
        // here), so ε is checked at δ = 1e-9.
        PrivacyLossDistribution c = PrivacyLossDistribution.laplace(1, H).selfCompose(3)
                .compose(PrivacyLossDistribution.laplace(0.5, H).selfCompose(2));
        assertThat(c.deltaForEpsilon(4)).isCloseTo(1e-14, within(1e-6));
        assertThat(c.epsilonForDelta(1e-9)).isCloseTo(4, within(1e-6));
    }

    @Test
    void dpAccountingDiscreteLaplaceBasic() {
        // PLD_ACC test_discrete_laplace_basic: parameter a = 1 (P(k) ∝ e^{−a|k|}) three times and a = 0.5 twice,
        // sensitivity 1: δ(4) = 0, ε(0) = 4 (±1e-6)
        PrivacyLossDistribution c = PrivacyLossDistribution.discreteLaplace(1, 1.0, H).selfCompose(3)
                .compose(PrivacyLossDistribution.discreteLaplace(1, 2.0, H).selfCompose(2));
        assertThat(c.deltaForEpsilon(4)).isCloseTo(0, within(1e-6));
        assertThat(c.epsilonForDelta(1e-9)).isCloseTo(4, within(1e-6));
    }

    @Test
    void dpAccountingEpsilonDeltaAndPureCompositions() {
        // PLD_ACC test_epsilon_delta_basic: (1, 0.1) then (2, 0.2): δ(3) = 0.28, ε(0.28) = 3
        PrivacyLossDistribution ed = PrivacyLossDistribution.approximateDp(1, 0.1, H)
                .compose(PrivacyLossDistribution.approximateDp(2, 0.2, H));
        assertThat(ed.deltaForEpsilon(3)).isCloseTo(0.28, within(1e-9)).isGreaterThanOrEqualTo(0.28);
        assertThat(ed.epsilonForDelta(0.28 + 1e-9)).isCloseTo(3, within(1e-8));
        // PLD_ACC test_epsilon_basic and test_exponential_mechanism_basic: pure 1 then pure 2: δ(3) = 0, ε(0) = 3
        PrivacyLossDistribution pure = PrivacyLossDistribution.pureDp(1, H).compose(PrivacyLossDistribution.pureDp(2, H));
        assertThat(pure.deltaForEpsilon(3)).isCloseTo(0, within(1e-12));
        assertThat(pure.epsilonForDelta(1e-12)).isCloseTo(3, within(1e-9));
    }

    @Test
    void dpAccountingConnectTheDotsLaplaceMasses() {
        // PLD_TEST test_laplace_varying_parameter_and_sensitivity_connect_dots, parameter 1, sensitivity 1, q = 1,
        // interval 1: {1: 0.62245933, 0: 0.14855068, -1: 0.22898999}; test_laplace_discretization_connect_dots,
        // parameter 1, intervals 0.5 and 0.3
        assertMasses(ConnectTheDots.discretise(Curves.laplace(1), 1.0), -1, 0.22898999, 0.14855068, 0.62245933);
        assertMasses(ConnectTheDots.discretise(Curves.laplace(1), 0.5), -2,
                0.20681318, 0.05874020, 0.07542391, 0.09684622, 0.56217650);
        assertMasses(ConnectTheDots.discretise(Curves.laplace(1), 0.3), -4,
                0.05667611, 0.15117006, 0.03363663, 0.03908019, 0.04540470, 0.05275273, 0.06128993, 0.37181835, 0.18817131);
    }

    private static void assertMasses(LossPmf pmf, long lower, double... masses) {
        assertThat(pmf.lower).isEqualTo(lower);
        assertThat(pmf.probs).hasSize(masses.length);
        for (int i = 0; i < masses.length; i++) {
            assertThat(pmf.probs[i]).as("mass at %s", lower + i).isCloseTo(masses[i], within(1e-8));
        }
        assertThat(pmf.infinity).isCloseTo(0, within(1e-15));
    }

    @Test
    void dpAccountingSmallestLaplaceNoise() {
        // ACC_TEST test_get_smallest_laplace_noise (±0.1): (ε, δ) = (1, 1e-4); 20 queries of sensitivity 1 → 13.6,
        // of sensitivity 0.5 → 6.8; 500 queries → 71.0. Their interval: 0.1 ε / queries.
        assertThat(smallestLaplaceScale(1, 20)).isCloseTo(13.6, within(0.1));
        assertThat(smallestLaplaceScale(0.5, 20)).isCloseTo(6.8, within(0.1));
        assertThat(smallestLaplaceScale(1, 500)).isCloseTo(71.0, within(0.1));
    }

    private static double smallestLaplaceScale(double sensitivity, int queries) {
        double h = 0.1 / queries;
        return bisect(b -> PrivacyLossDistribution.laplace(sensitivity / b, h).selfCompose(queries).deltaForEpsilon(1) <= 1e-4,
                1e-3, queries * sensitivity, 1e-4);
    }

    @Test
    void dpAccountingSmallestDiscreteLaplaceNoise() {
        // ACC_TEST test_get_smallest_discrete_laplace_noise (±1e-3): (1, 1e-4), 20 queries: sensitivity 1 → a = 0.073,
        // sensitivity 5 → a = 0.014, with P(k) ∝ e^{−a|k|}
        assertThat(smallestDiscreteLaplaceParameter(1, 20)).isCloseTo(0.073, within(1e-3));
        assertThat(smallestDiscreteLaplaceParameter(5, 20)).isCloseTo(0.014, within(1e-3));
    }

    private static double smallestDiscreteLaplaceParameter(long sensitivity, int queries) {
        double h = 0.1 / queries;
        // the largest a (least noise) that still meets the target
        double scale = bisect(b -> PrivacyLossDistribution.discreteLaplace(sensitivity, b, h).selfCompose(queries)
                .deltaForEpsilon(1) <= 1e-4, 1e-2, 1e4, 1e-6);
        return 1 / scale;
    }

    @Test
    void dpAccountingSmallestSubsampledGaussianNoise() {
        // ACC_TEST test_get_smallest_subsampled_gaussian_noise: (1, 1e-5), one query of sensitivity 1 at q = 0.01 →
        // σ = 0.67379294682; 25 queries of sensitivity 6 at q = 0.001 → σ = 3.20956502598. Their interval:
        // min(1e-3, 0.1 ε / queries), their search tolerance 1e-7. Ours is not smaller by more than that tolerance
        // (we are never optimistic), and within 1e-4 relative.
        double s1 = smallestSubsampledSigma(1, 0.01, 1, 1e-3);
        assertThat(s1).isGreaterThanOrEqualTo(0.67379294682 - 1e-7).isCloseTo(0.67379294682, within(1e-4 * 0.674));
        double s25 = smallestSubsampledSigma(6, 0.001, 25, 1e-3);
        assertThat(s25).isGreaterThanOrEqualTo(3.20956502598 - 1e-7).isCloseTo(3.20956502598, within(1e-4 * 3.21));
    }

    private static double smallestSubsampledSigma(double sensitivity, double q, int queries, double h) {
        return bisect(s -> {
            PrivacyLossDistribution one = PrivacyLossDistribution.poissonSubsampledGaussian(q, s / sensitivity,
                    Neighbouring.ADD_REMOVE_ROW, h);
            return (queries == 1 ? one : one.selfCompose(queries)).deltaForEpsilon(1) <= 1e-5;
        }, 0.05, 50, 1e-7);
    }

    @Test
    void dpAccountingSmallestGaussianNoise() {
        // ACC_TEST test_get_smallest_gaussian_noise: (1, 0.78760074) one query of sensitivity 1 → σ = 1/3; 25 queries
        // of sensitivity 6 → σ = 10 (μ = 6·5/10 = 3 = 1/(1/3))
        assertThat(1 / GaussianPrivacy.mu(PrivacyParams.of(1, 0.78760074))).isCloseTo(1.0 / 3, within(1e-7));
    }

    /** The smallest x in [lo, hi] with ok(x) (ok monotone: false below, true above), to tol. */
    private static double bisect(java.util.function.DoublePredicate ok, double lo, double hi, double tol) {
        assertThat(ok.test(hi)).isTrue();
        while (hi - lo > tol) {
            double mid = 0.5 * (lo + hi);
            if (ok.test(mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    // ---- input checks -----------------------------------------------------------------------------------------

    @Test
    void badArgumentsAreRefusedWithTheirNames() {
        assertThatThrownBy(() -> PrivacyLossDistribution.gaussian(-1, H)).hasMessageContaining("mu");
        assertThatThrownBy(() -> PrivacyLossDistribution.gaussian(1, 0)).hasMessageContaining("discretisation interval");
        assertThatThrownBy(() -> PrivacyLossDistribution.poissonSubsampledGaussian(1.5, 1, Neighbouring.ADD_REMOVE_ROW, H))
                .hasMessageContaining("sampling rate");
        assertThatThrownBy(() -> PrivacyLossDistribution.gaussian(1, H).compose(PrivacyLossDistribution.gaussian(1, 1e-3)))
                .hasMessageContaining("different discretisation intervals");
        assertThatThrownBy(() -> PrivacyLossDistribution.gaussian(1, H).selfCompose(0)).hasMessageContaining(">= 1");
    }

    @Test
    void anEpsilonBelowTheIntervalIsStillDominated() {
        // ε = 3e-5 < h: the atoms ±ε fall between grid points -1, 0, 1
        PrivacyLossDistribution tiny = PrivacyLossDistribution.pureDp(3e-5, H);
        for (double e : new double[] {-1e-4, 0, 1e-5, 3e-5}) {
            assertThat(tiny.deltaForEpsilon(e)).isGreaterThanOrEqualTo(binomialRr(3e-5, 1, e));
        }
        assertThat(tiny.epsilonForDelta(1e-12)).isLessThanOrEqualTo(1e-4 + 1e-12);
    }

    @Test
    void identityRevealsNothing() {
        PrivacyLossDistribution id = PrivacyLossDistribution.identity(H);
        assertThat(id.deltaForEpsilon(0)).isCloseTo(0, within(1e-14));
        assertThat(id.epsilonForDelta(1e-12)).isEqualTo(0);
        PrivacyLossDistribution g = PrivacyLossDistribution.gaussian(0.7, H);
        assertThat(id.compose(g).deltaForEpsilon(0.5)).isCloseTo(g.deltaForEpsilon(0.5), within(1e-12));
    }
}
