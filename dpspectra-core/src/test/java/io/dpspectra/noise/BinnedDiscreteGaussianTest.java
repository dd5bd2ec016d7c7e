package io.dpspectra.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import org.junit.jupiter.api.Test;

/**
 * {@link BinnedDiscreteGaussian}: the invariants its exactness rests on (every weight dominates the
 * Gaussian on its bin, the integer alias table reproduces the weights exactly), the fast acceptance never
 * deciding differently from the exact one on the same bits, and the samples' fit to the discrete
 * Gaussian, across bins and within them (χ² at α = 1e−3).
 */
class BinnedDiscreteGaussianTest {
    private static final MathContext MC = new MathContext(40);
    private static final long[] SIGMAS = {1L << 16, (1L << 16) + 12345, 3L * (1L << 40) + 7, 1L << 44,
        (1L << 49) - 1};

    /** exp(−x) for x ≥ 0 to about 35 digits: e^−⌊x⌋ by powers of e^−1, the rest by its Taylor series. */
    private static BigDecimal expMinus(BigDecimal x) {
        BigInteger n = x.toBigInteger();
        BigDecimal f = x.subtract(new BigDecimal(n));
        return taylorExpMinus(BigDecimal.ONE).pow(n.intValueExact(), MC).multiply(taylorExpMinus(f), MC);
    }

    private static BigDecimal taylorExpMinus(BigDecimal y) {
        BigDecimal sum = BigDecimal.ZERO;
        BigDecimal term = BigDecimal.ONE;
        for (int i = 1; term.abs().compareTo(BigDecimal.ONE.movePointLeft(45)) > 0; i++) {
            sum = sum.add(term, MC);
            term = term.multiply(y.negate(), MC).divide(BigDecimal.valueOf(i), MC);
        }
        return sum;
    }

    @Test
    void everyWeightDominatesTheGaussianOnItsBinAndTheAliasTableIsExact() {
        for (long sigma : SIGMAS) {
            BinnedDiscreteGaussian t = new BinnedDiscreteGaussian(sigma);
            BigDecimal twoSigma2 = new BigDecimal(BigInteger.valueOf(sigma).pow(2).shiftLeft(1));
            long total = 0;
            for (int j = 0; j < t.bins(); j++) {
                long a = t.weight(j);
                assertThat(a).isGreaterThanOrEqualTo(1);
                assertThat(t.aliasMass(j)).as("sigma %s bin %s", sigma, j).isEqualTo(a);
                total += a;
                // a_j ≥ 2^(κ + b_j − binBits)·ρ(L_j), so that D_j·ρ ≤ 1 on the bin
                BigDecimal l = BigDecimal.valueOf(t.left(j));
                BigDecimal gamma = l.multiply(l).divide(twoSigma2, MC);
                if (gamma.compareTo(BigDecimal.valueOf(700)) < 0) {
                    int shift = t.kappa() + t.widthBits(j) - t.binBits();
                    BigDecimal bound = expMinus(gamma).multiply(new BigDecimal(BigInteger.ONE.shiftLeft(shift)), MC);
                    assertThat(BigDecimal.valueOf(a)).as("sigma %s bin %s", sigma, j).isGreaterThanOrEqualTo(bound);
                } // beyond, ρ(L_j) < e^−700 and 2^shift ≤ 2^115, so the bound is below 1 ≤ a_j
            }
            assertThat(total + t.aliasMass(t.bins())).isEqualTo(1L << 62);
            // the bins tile [0, 2^53) without gaps
            for (int j = 1; j < t.bins(); j++) {
                assertThat(t.left(j)).isEqualTo(t.left(j - 1) + (1L << t.widthBits(j - 1)));
            }
            assertThat(t.left(t.bins() - 1) + (1L << t.widthBits(t.bins() - 1))).isEqualTo(1L << 53);
        }
    }

    @Test
    void fastAcceptanceNeverDisagreesWithTheExactDecisionOnTheSameBits() {
        RandomSource rnd = RandomSource.seededForReproducibility(201);
        int decided = 0;
        int undecided = 0;
        for (long sigma : new long[] {(1L << 16) + 12345, 3L * (1L << 40) + 7}) {
            BinnedDiscreteGaussian t = new BinnedDiscreteGaussian(sigma);
            for (int i = 0; i < 3000; i++) {
                int j = i % 10 == 0 ? t.bins() - 1 - (int) rnd.nextLong(t.bins() - 2048) : (int) rnd.nextLong(400);
                long u = rnd.nextLong() >>> (64 - t.widthBits(j));
                long w;
                if (i % 3 == 0) {
                    // a word right next to the threshold D_j·ρ(m), where the double path must give up
                    double g = (double) t.left(j) + u;
                    double theta = Math.exp(-g * g / (2.0 * sigma * sigma)
                            + (t.kappa() + t.widthBits(j) - t.binBits()) * Math.log(2) - Math.log(t.weight(j)));
                    w = theta >= 1 ? -1L : (long) (Math.min(theta, 0.5) * 0x1.0p63) * 2 + rnd.nextLong(5) - 2;
                } else {
                    w = rnd.nextLong();
                }
                int fast = t.acceptFast(j, u, w);
                boolean exact = t.acceptExact(new DiscreteSamplers.LazyUniform(
                        RandomSource.seededForReproducibility(i), w), j, u);
                if (fast == DiscreteSamplers.UNDECIDED) {
                    undecided++;
                } else {
                    decided++;
                    assertThat(fast == 1).as("sigma %s bin %s u %s w %s", sigma, j, u, w).isEqualTo(exact);
                }
            }
        }
        assertThat(decided).isGreaterThan(3000);
        assertThat(undecided).isGreaterThan(100); // the near-threshold words did reach the exact path
    }

    private static double chiSquareCritical(int df) {
        double z = 3.090232;
        double a = 2.0 / (9 * df);
        return df * Math.pow(1 - a + z * Math.sqrt(a), 3);
    }

    private static double chiSquare(long[] counts, double[] p, long n) {
        double chi2 = 0;
        for (int i = 0; i < counts.length; i++) {
            double e = p[i] * n;
            assertThat(e).isGreaterThan(5);
            chi2 += (counts[i] - e) * (counts[i] - e) / e;
        }
        return chi2;
    }

    /** Mass of the discrete Gaussian on [a, b) (a < b integers), from the normal CDF at half-integers. */
    private static double mass(double a, double b, double sigma) {
        return ErrorFunction.normalCdf((b - 0.5) / sigma) - ErrorFunction.normalCdf((a - 0.5) / sigma);
    }

    /**
     * Across the distribution (32 cells of σ/4 plus the two tails beyond 4σ) and within the bins: the position of |k| inside
     * its regular bin, in 16 slices, whose masses tilt by about 0.5% towards the bins' left ends (a wrong
     * acceptance inside the bins, such as a sign error in δ, would show here and not in the coarse cells).
     */
    @Test
    void samplesFitTheDiscreteGaussianAcrossAndWithinBins() {
        for (long sigma : new long[] {(1L << 16) + 12345, (1L << 20) + 3}) {
            BinnedDiscreteGaussian t = new BinnedDiscreteGaussian(sigma);
            RandomSource rnd = RandomSource.seededForReproducibility(300 + sigma);
            int n = 8_000_000; // about 0.3 s; enough to see a reversed in-bin tilt (χ² ≈ 70 against 37.7)
            long[] coarse = new long[34];
            long[] slices = new long[16];
            long w = 1L << t.binBits();
            long inside = 0;
            for (int i = 0; i < n; i++) {
                long k = t.sample(rnd);
                assertThat(Math.abs(k)).isLessThan(1L << 53);
                double z = k / (sigma / 4.0);
                coarse[(int) Math.max(0, Math.min(33, Math.floor(z) + 17))]++;
                long m = Math.abs(k);
                if (m < 4 * sigma) {
                    slices[(int) ((m & (w - 1)) * 16 / w)]++;
                    inside++;
                }
            }
            double s = sigma;
            double[] pc = new double[34];
            for (int c = 1; c < 33; c++) {
                double a = Math.ceil((c - 17) * s / 4);
                double b = Math.ceil((c - 16) * s / 4);
                pc[c] = mass(a, b, s);
            }
            pc[0] = mass(-1e300, Math.ceil(-4 * s), s);
            pc[33] = 1 - mass(-1e300, Math.ceil(4 * s), s);
            assertThat(chiSquare(coarse, pc, n)).as("coarse, sigma %s", sigma).isLessThan(chiSquareCritical(33));
            double[] ps = new double[16];
            double totalInside = 0;
            for (long base = 0; base < 4 * sigma; base += w) {
                for (int sl = 0; sl < 16; sl++) {
                    long a = base + sl * w / 16;
                    long b = Math.min(base + (sl + 1) * w / 16, 4 * sigma);
                    if (a >= b) {
                        continue;
                    }
                    double pm = mass(a, b, s) + mass(-b + 1, -a + 1, s) - (a == 0 ? mass(0, 1, s) : 0);
                    ps[sl] += pm;
                    totalInside += pm;
                }
            }
            for (int sl = 0; sl < 16; sl++) {
                ps[sl] /= totalInside;
            }
            assertThat(ps[0] / ps[15]).isGreaterThan(1.004); // the tilt (0.5%) the test must resolve
            assertThat(chiSquare(slices, ps, inside)).as("within bins, sigma %s", sigma)
                    .isLessThan(chiSquareCritical(15));
        }
    }

    @Test
    void sigmaOutsideTheTableRangeIsRefused() {
        assertThatThrownBy(() -> new BinnedDiscreteGaussian((1L << 16) - 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sigma");
        assertThatThrownBy(() -> new BinnedDiscreteGaussian(1L << 49))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sigma");
    }
}
