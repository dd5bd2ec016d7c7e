package io.dpspectra.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Vectors;
import org.junit.jupiter.api.Test;

/**
 * The Bingham sampler against exact moments obtained by numerical integration on the circle (q = 2)
 * and the sphere (q = 3), and the negative control: the acceptance ratio as printed in Amin et al.'s
 * Algorithm 2 must fail the same moment test (spec K9, A-C3, §6.4 item 5).
 *
 * <p>Tolerances: the sample mean of a bounded statistic s(u) over N independent samples has standard
 * error sd(s)/√N, estimated from the samples; we require |mean − exact| ≤ 4.5 SE (two-sided
 * false-alarm rate ≈ 7e-6 per assertion). The quadrature (midpoint rule on a smooth periodic
 * integrand, 2000 or 600 × 1200 nodes) is accurate to far below one SE.
 */
class BinghamSamplerTest {
    private static final double Z = 4.5;

    /** Rotation by angle t in the plane (0, 1) of R^q, embedded in the identity. */
    private static Matrix rotation(int q, double t) {
        Matrix r = Matrix.identity(q);
        r.set(0, 0, Math.cos(t));
        r.set(0, 1, -Math.sin(t));
        r.set(1, 0, Math.sin(t));
        r.set(1, 1, Math.cos(t));
        return r;
    }

    /** C = R diag(c) Rᵀ. */
    private static Matrix rotated(double[] c, Matrix r) {
        int q = c.length;
        Matrix d = new Matrix(q, q);
        for (int j = 0; j < q; j++) {
            d.set(j, j, c[j]);
        }
        Matrix m = r.times(d).times(r.transpose());
        m.symmetrizeInPlace();
        return m;
    }

    /** Exact E[y yᵀ] (returned as the 3 numbers E[y₀²], E[y₁²], E[y₀⁴]) under ∝ exp(κ Σ c_j y_j²), q = 3. */
    private static double[] exactMomentsSphere(double[] c, double kappa) {
        int nt = 600;
        int np = 1200;
        double z = 0;
        double m00 = 0;
        double m11 = 0;
        double m0000 = 0;
        for (int i = 0; i < nt; i++) {
            double th = Math.PI * (i + 0.5) / nt;
            for (int j = 0; j < np; j++) {
                double ph = 2 * Math.PI * (j + 0.5) / np;
                double y0 = Math.sin(th) * Math.cos(ph);
                double y1 = Math.sin(th) * Math.sin(ph);
                double y2 = Math.cos(th);
                double w = Math.sin(th) * Math.exp(kappa * (c[0] * y0 * y0 + c[1] * y1 * y1 + c[2] * y2 * y2 - c[0]));
                z += w;
                m00 += w * y0 * y0;
                m11 += w * y1 * y1;
                m0000 += w * y0 * y0 * y0 * y0;
            }
        }
        return new double[] {m00 / z, m11 / z, m0000 / z};
    }

    /** Exact E[y₀²] and E[y₀⁴] on the circle under ∝ exp(κ Σ c_j y_j²). */
    private static double[] exactMomentsCircle(double[] c, double kappa) {
        int n = 2000;
        double z = 0;
        double m2 = 0;
        double m4 = 0;
        for (int i = 0; i < n; i++) {
            double t = 2 * Math.PI * (i + 0.5) / n;
            double y0 = Math.cos(t);
            double y1 = Math.sin(t);
            double w = Math.exp(kappa * (c[0] * y0 * y0 + c[1] * y1 * y1 - c[0]));
            z += w;
            m2 += w * y0 * y0;
            m4 += w * y0 * y0 * y0 * y0;
        }
        return new double[] {m2 / z, m4 / z};
    }

    /** Mean and standard error of s over samples. */
    private static double[] meanAndSe(double[] s) {
        double mean = 0;
        for (double v : s) {
            mean += v;
        }
        mean /= s.length;
        double var = 0;
        for (double v : s) {
            var += (v - mean) * (v - mean);
        }
        var /= s.length - 1;
        return new double[] {mean, Math.sqrt(var / s.length)};
    }

    /**
     * Draws n samples for C = R diag(c) Rᵀ and returns, in the eigenbasis (y = Rᵀu), the statistics
     * y₀², y₁² and y₀⁴ per sample.
     */
    private static double[][] statistics(BinghamSampler sampler, double[] c, double kappa, int n, double angle) {
        int q = c.length;
        Matrix r = rotation(q, angle);
        Matrix cm = rotated(c, r);
        double[][] s = new double[3][n];
        for (int i = 0; i < n; i++) {
            double[] u = sampler.sample(cm, kappa).u();
            assertThat(Vectors.norm2(u)).isCloseTo(1.0, within(1e-12));
            double[] y = r.transposeTimes(u);
            s[0][i] = y[0] * y[0];
            s[1][i] = y[1] * y[1];
            s[2][i] = y[0] * y[0] * y[0] * y[0];
        }
        return s;
    }

    private static boolean matches(double[] stat, double exact) {
        double[] ms = meanAndSe(stat);
        return Math.abs(ms[0] - exact) <= Z * ms[1];
    }

    private static final double[] C3 = {3.0, 1.0, 0.0};
    private static final double KAPPA3 = 1.0;

    @Test
    void secondAndFourthMomentsMatchNumericalIntegrationOnTheSphere() {
        double[] exact = exactMomentsSphere(C3, KAPPA3);
        BinghamSampler sampler = new BinghamSampler(RandomSource.seededForReproducibility(11));
        double[][] s = statistics(sampler, C3, KAPPA3, 200_000, 0.7);
        assertThat(matches(s[0], exact[0])).as("E[y0^2] exact %s", exact[0]).isTrue();
        assertThat(matches(s[1], exact[1])).as("E[y1^2] exact %s", exact[1]).isTrue();
        assertThat(matches(s[2], exact[2])).as("E[y0^4] exact %s", exact[2]).isTrue();
        assertThat(sampler.samples()).isEqualTo(200_000);
        // M bounds the expected number of proposals per sample
        double b = BinghamSampler.solveB(new double[] {0, 2, 3});
        double m = Math.exp(BinghamSampler.logEnvelopeConstant(3, b));
        assertThat((double) sampler.totalProposals() / sampler.samples()).isBetween(1.0, m * 1.01);
    }

    @Test
    void momentsMatchOnTheCircleForTheSpecsExample() {
        // spec §6.4 item 5: C = [[3,1],[1,1]], κ = 0.5 has eigenvalues 2 ± √2, rotation angle π/8
        double[] c = {2 + Math.sqrt(2), 2 - Math.sqrt(2)};
        double kappa = 0.5;
        double[] exact = exactMomentsCircle(c, kappa);
        BinghamSampler sampler = new BinghamSampler(RandomSource.seededForReproducibility(12));
        double[][] s = statistics(sampler, c, kappa, 100_000, Math.PI / 8);
        assertThat(matches(s[0], exact[0])).as("E[y0^2] exact %s", exact[0]).isTrue();
        assertThat(matches(s[2], exact[1])).as("E[y0^4] exact %s", exact[1]).isTrue();
    }

    @Test
    void printedAcceptanceRatioFailsTheSameMomentTest() {
        double[] exact3 = exactMomentsSphere(C3, KAPPA3);
        BinghamSampler printed = BinghamSampler.withAcceptanceRuleForTests(RandomSource.seededForReproducibility(11),
                BinghamSampler.AcceptanceRule.PRINTED_MISPRINT);
        double[][] s = statistics(printed, C3, KAPPA3, 200_000, 0.7);
        assertThat(matches(s[0], exact3[0])).as("misprinted sampler must miss E[y0^2]").isFalse();

        double[] c2 = {2 + Math.sqrt(2), 2 - Math.sqrt(2)};
        double[] exact2 = exactMomentsCircle(c2, 0.5);
        BinghamSampler printed2 = BinghamSampler.withAcceptanceRuleForTests(RandomSource.seededForReproducibility(12),
                BinghamSampler.AcceptanceRule.PRINTED_MISPRINT);
        double[][] s2 = statistics(printed2, c2, 0.5, 100_000, Math.PI / 8);
        assertThat(matches(s2[0], exact2[0])).as("misprinted sampler must miss E[y0^2] on the circle").isFalse();
    }

    @Test
    void highlyConcentratedLargeDimensionalSamplesStayNearTheTopEigenvectorWithoutOverflow() {
        // t reaches 1e4 here: exp(-t) underflows and M would overflow outside log space
        int q = 300;
        double[] values = new double[q];
        for (int j = 0; j < q; j++) {
            values[j] = q - j;
        }
        BinghamSampler sampler = new BinghamSampler(RandomSource.seededForReproducibility(13));
        double kappa = 50.0;
        double[] u = sampler.sampleInEigenbasis(values, Matrix.identity(q), kappa).u();
        // E[1 − u₀²] ≈ Σ_{j>0} 1/(2κ(c₀ − c_j)) ≈ (ln q + 0.58)/(2κ) ≈ 0.063
        assertThat(u[0] * u[0]).isGreaterThan(0.8);
    }

    @Test
    void bLiesInOneToQAndIsQWhenAllParametersVanish() {
        assertThat(BinghamSampler.solveB(new double[] {0, 0, 0, 0})).isEqualTo(4.0);
        double[] a = {0, 0.5, 3, 100, 1e6};
        double b = BinghamSampler.solveB(a);
        assertThat(b).isBetween(1.0, 5.0);
        double h = -1;
        for (double v : a) {
            h += 1 / (b + 2 * v);
        }
        assertThat(h).isCloseTo(0.0, within(1e-12));
        assertThat(BinghamSampler.logEnvelopeConstant(5, 5.0)).isCloseTo(0.0, within(1e-15));
    }

    @Test
    void correctedLogAcceptanceNeverExceedsZero() {
        double[] a = {0, 1, 7, 40};
        double b = BinghamSampler.solveB(a);
        double logM = BinghamSampler.logEnvelopeConstant(4, b);
        for (double t = 0; t <= 40; t += 0.01) {
            assertThat(BinghamSampler.logAcceptance(t, 4, b, logM, BinghamSampler.AcceptanceRule.CORRECTED))
                    .isLessThanOrEqualTo(1e-10);
        }
    }

    @Test
    void zeroConcentrationGivesTheUniformDistributionWithEveryProposalAccepted() {
        BinghamSampler sampler = new BinghamSampler(RandomSource.seededForReproducibility(14));
        Matrix c = Matrix.identity(4);
        double[] s = new double[50_000];
        for (int i = 0; i < s.length; i++) {
            double[] u = sampler.sample(c, 0.0).u();
            s[i] = u[2] * u[2];
        }
        assertThat(sampler.totalProposals()).isEqualTo(sampler.samples());
        assertThat(matches(s, 0.25)).isTrue(); // uniform on S^3: E[u_j^2] = 1/4
    }

    @Test
    void dimensionOneReturnsPlusOrMinusOne() {
        BinghamSampler sampler = new BinghamSampler(RandomSource.seededForReproducibility(15));
        int plus = 0;
        for (int i = 0; i < 1000; i++) {
            double u = sampler.sample(Matrix.identity(1), 3.0).u()[0];
            assertThat(Math.abs(u)).isEqualTo(1.0);
            plus += u > 0 ? 1 : 0;
        }
        assertThat(plus).isBetween(400, 600);
    }

    @Test
    void invalidConcentrationIsRejectedWithItsValue() {
        BinghamSampler sampler = new BinghamSampler(RandomSource.seededForReproducibility(16));
        assertThatThrownBy(() -> sampler.sample(Matrix.identity(2), Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kappa").hasMessageContaining("NaN");
        assertThatThrownBy(() -> sampler.sample(Matrix.identity(2), -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> sampler.sample(new Matrix(2, 3), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("square");
    }
    /** CDF of the angle θ ∈ [0, π) of u = (cos θ, sin θ) under ∝ exp(κ uᵀCu), by the midpoint rule. */
    private static java.util.function.DoubleUnaryOperator angleCdf(Matrix c, double kappa) {
        int m = 20_000;
        double[] cum = new double[m + 1];
        for (int i = 0; i < m; i++) {
            double t = Math.PI * (i + 0.5) / m;
            double x = Math.cos(t);
            double y = Math.sin(t);
            double q = c.get(0, 0) * x * x + 2 * c.get(0, 1) * x * y + c.get(1, 1) * y * y;
            cum[i + 1] = cum[i] + Math.exp(kappa * (q - 4));
        }
        double total = cum[m];
        return t -> {
            double pos = t / Math.PI * m;
            int i = (int) Math.min(m - 1, Math.max(0, Math.floor(pos)));
            double frac = pos - i;
            return (cum[i] + frac * (cum[i + 1] - cum[i])) / total;
        };
    }

    private static double ksOfAngles(BinghamSampler sampler, Matrix c, double kappa, int n) {
        double[] angles = new double[n];
        for (int i = 0; i < n; i++) {
            double[] u = sampler.sample(c, kappa).u();
            double t = Math.atan2(u[1], u[0]);
            if (t < 0) {
                t += Math.PI;
            }
            angles[i] = t >= Math.PI ? t - Math.PI : t;
        }
        return NoiseTestSupport.ksStatistic(angles, angleCdf(c, kappa));
    }

    @Test
    void anglesOnTheCirclePassAKolmogorovSmirnovTestAndTheMisprintFailsIt() {
        // spec §6.4 item 5: C = [[3,1],[1,1]], κ = 0.5, 40,000 angles mod π, KS distance < 0.01
        Matrix c = Matrix.fromRows(new double[][] {{3, 1}, {1, 1}});
        int n = 40_000;
        double ks = ksOfAngles(new BinghamSampler(RandomSource.seededForReproducibility(21)), c, 0.5, n);
        assertThat(ks).isLessThan(Math.min(0.01, NoiseTestSupport.ksCritical(n)));
        double ksPrinted = ksOfAngles(BinghamSampler.withAcceptanceRuleForTests(
                RandomSource.seededForReproducibility(21), BinghamSampler.AcceptanceRule.PRINTED_MISPRINT), c, 0.5, n);
        assertThat(ksPrinted).isGreaterThan(5 * NoiseTestSupport.ksCritical(n));
    }

    @Test
    void secondMomentMatrixInDimensionFiveMatchesImportanceSampling() {
        // spec §6.4 item 5: q = 5, E[uuᵀ] within 5e-3 of a 400,000-point importance-sampling estimate
        int q = 5;
        RandomSource r = RandomSource.seededForReproducibility(22);
        Matrix c = new Matrix(q, q);
        for (int i = 0; i < q; i++) {
            for (int j = 0; j <= i; j++) {
                double v = r.standardNormal();
                c.set(i, j, v);
                c.set(j, i, v);
            }
        }
        double kappa = 0.8;
        double[][] isEst = new double[q][q];
        double z = 0;
        RandomSource u0 = RandomSource.seededForReproducibility(23);
        for (int s = 0; s < 400_000; s++) {
            double[] u = new double[q];
            for (int j = 0; j < q; j++) {
                u[j] = u0.standardNormal();
            }
            Vectors.normalizeInPlace(u);
            double w = Math.exp(kappa * Vectors.dot(u, c.times(u)));
            z += w;
            for (int i = 0; i < q; i++) {
                for (int j = 0; j < q; j++) {
                    isEst[i][j] += w * u[i] * u[j];
                }
            }
        }
        BinghamSampler sampler = new BinghamSampler(RandomSource.seededForReproducibility(24));
        double[][] est = new double[q][q];
        int n = 200_000;
        for (int s = 0; s < n; s++) {
            double[] u = sampler.sample(c, kappa).u();
            for (int i = 0; i < q; i++) {
                for (int j = 0; j < q; j++) {
                    est[i][j] += u[i] * u[j] / n;
                }
            }
        }
        for (int i = 0; i < q; i++) {
            for (int j = 0; j < q; j++) {
                assertThat(est[i][j]).as("E[u%d u%d]", i, j).isCloseTo(isEst[i][j] / z, within(5e-3));
            }
        }
    }

}
