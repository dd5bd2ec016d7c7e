package io.dpspectra.linalg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.noise.RandomSubspace;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class FantopeProjectionTest {

    private static Matrix randomSymmetric(int d, double scale, RandomSource random) {
        Matrix y = new Matrix(d, d);
        for (int j = 0; j < d; j++) {
            for (int i = j; i < d; i++) {
                double v = scale * random.standardNormal();
                y.set(i, j, v);
                y.set(j, i, v);
            }
        }
        return y;
    }

    /** A random point of F_r: V diag(g) Vᵀ with g in [0,1], Σ g = r (g from a random feasible vector). */
    private static Matrix randomFeasible(int d, double r, RandomSource random) {
        Matrix v = RandomSubspace.basis(d, d, random);
        double[] g = new double[d];
        // start from a uniform r/d and move mass between random pairs while staying in [0, 1]
        Arrays.fill(g, r / d);
        for (int t = 0; t < 4 * d; t++) {
            int a = (int) random.nextLong(d);
            int b = (int) random.nextLong(d);
            double room = Math.min(1 - g[a], g[b]);
            double move = room * random.nextDouble();
            g[a] += move;
            g[b] -= move;
        }
        Matrix p = new Matrix(d, d);
        for (int k = 0; k < d; k++) {
            double[] w = v.column(k);
            for (int j = 0; j < d; j++) {
                for (int i = 0; i < d; i++) {
                    p.add(i, j, g[k] * w[i] * w[j]);
                }
            }
        }
        return p;
    }

    /** Brute-force θ: sort the 2D breakpoints of φ and interpolate on the piece that crosses r. */
    private static double breakpointShift(double[] gamma, double r) {
        double[] bp = new double[2 * gamma.length];
        for (int i = 0; i < gamma.length; i++) {
            bp[2 * i] = gamma[i];
            bp[2 * i + 1] = gamma[i] - 1;
        }
        Arrays.sort(bp);
        for (int i = 0; i + 1 < bp.length; i++) {
            double fa = FantopeProjection.phi(gamma, bp[i]);
            double fb = FantopeProjection.phi(gamma, bp[i + 1]);
            if (fa >= r && fb <= r && fa > fb) {
                return bp[i] + (fa - r) / (fa - fb) * (bp[i + 1] - bp[i]);
            }
        }
        throw new AssertionError("no piece crosses r");
    }

    @ParameterizedTest
    @CsvSource({"5, 1, 1.0", "12, 2, 0.3", "12, 2, 5.0", "30, 3, 1.0", "30, 29, 1.0", "40, 7.5, 2.0"})
    void projectionIsFeasibleAndSatisfiesTheVariationalInequality(int d, double r, double scale) {
        RandomSource random = RandomSource.seededForReproducibility(11 + d);
        for (int rep = 0; rep < 5; rep++) {
            Matrix y = randomSymmetric(d, scale, random);
            Matrix p = FantopeProjection.of(y, r);
            assertThat(p.trace()).isCloseTo(r, within(1e-12 * d));
            assertThat(p.minus(p.transpose()).maxAbs()).isLessThan(1e-14);
            for (double g : SymmetricEigen.of(p).values()) {
                assertThat(g).isBetween(-1e-12, 1 + 1e-12);
            }
            // P = proj(Y) iff <Y − P, Z − P>_F ≤ 0 for every Z in the (convex) Fantope
            Matrix residual = y.minus(p);
            double bestDistance = residual.frobeniusNorm();
            for (int t = 0; t < 200; t++) {
                Matrix z = randomFeasible(d, r, random);
                assertThat(residual.frobeniusInner(z.minus(p))).isLessThanOrEqualTo(1e-9 * (1 + scale * d));
                assertThat(y.minus(z).frobeniusNorm()).isGreaterThanOrEqualTo(bestDistance - 1e-12);
            }
        }
    }

    @Test
    void shiftAgreesWithTheBreakpointMethod() {
        RandomSource random = RandomSource.seededForReproducibility(5);
        for (int rep = 0; rep < 200; rep++) {
            int d = 2 + (int) random.nextLong(40);
            double r = 1 + random.nextLong(d - 1);
            double[] gamma = new double[d];
            for (int i = 0; i < d; i++) {
                gamma[i] = 3 * random.standardNormal();
            }
            Arrays.sort(gamma);
            for (int i = 0; i < d / 2; i++) {
                double t = gamma[i];
                gamma[i] = gamma[d - 1 - i];
                gamma[d - 1 - i] = t;
            }
            double theta = FantopeProjection.shift(gamma, r);
            assertThat(FantopeProjection.phi(gamma, theta)).isCloseTo(r, within(1e-12 * d));
            double reference = breakpointShift(gamma, r);
            // θ is unique where φ is strictly decreasing; elsewhere both give φ = r, which is what matters
            assertThat(FantopeProjection.phi(gamma, reference)).isCloseTo(r, within(1e-12 * d));
        }
    }

    @Test
    void diagonalInputHasTheClosedForm() {
        // γ = (3, 0.9, 0.5, 0.2, −1), r = 2: θ with min(max(γ−θ,0),1) summing to 2 is θ = 0.2:
        // g = (1, 0.7, 0.3, 0, 0)
        Matrix y = new Matrix(5, 5);
        double[] gamma = {0.5, 3, -1, 0.9, 0.2};
        for (int i = 0; i < 5; i++) {
            y.set(i, i, gamma[i]);
        }
        FantopeProjection.Result result = FantopeProjection.project(y, 2);
        assertThat(result.theta()).isCloseTo(0.2, within(1e-14));
        assertThat(result.weights()).containsExactly(new double[] {1, 0.7, 0.3, 0, 0}, within(1e-14));
        double[] expectedDiagonal = {0.3, 1, 0, 0.7, 0};
        for (int i = 0; i < 5; i++) {
            assertThat(result.projection().get(i, i)).isCloseTo(expectedDiagonal[i], within(1e-14));
        }
    }

    @Test
    void fullTraceGivesTheIdentityAndAProjectorStaysPut() {
        RandomSource random = RandomSource.seededForReproducibility(2);
        Matrix y = randomSymmetric(6, 1, random);
        assertThat(FantopeProjection.of(y, 6).minus(Matrix.identity(6)).maxAbs()).isLessThan(1e-14);
        Matrix u = RandomSubspace.basis(8, 3, random);
        Matrix projector = u.times(u.transpose());
        assertThat(FantopeProjection.of(projector, 3).minus(projector).maxAbs()).isLessThan(1e-12);
    }

    @Test
    void badInputIsRefusedWithTheReason() {
        Matrix y = Matrix.identity(3);
        assertThatThrownBy(() -> FantopeProjection.project(y, 0)).hasMessageContaining("trace r must be in (0, 3]");
        assertThatThrownBy(() -> FantopeProjection.project(y, 4)).hasMessageContaining("got 4.0");
        Matrix bad = Matrix.identity(3);
        bad.set(1, 0, Double.NaN);
        assertThatThrownBy(() -> FantopeProjection.project(bad, 1)).hasMessageContaining("NaN");
        assertThatThrownBy(() -> FantopeProjection.project(new Matrix(2, 3), 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Q diag(gamma) Qᵀ for a random orthogonal Q. */
    private static Matrix withSpectrum(double[] gamma, RandomSource random) {
        int d = gamma.length;
        Matrix q = RandomSubspace.basis(d, d, random);
        Matrix scaled = q.copy();
        for (int j = 0; j < d; j++) {
            for (int i = 0; i < d; i++) {
                scaled.set(i, j, q.get(i, j) * gamma[j]);
            }
        }
        Matrix y = scaled.times(q.transpose());
        y.symmetrizeInPlace();
        return y;
    }

    private static void assertSameAsFull(FantopeProjection.Partial partial, Matrix y, double r) {
        FantopeProjection.Result full = FantopeProjection.project(y, r);
        FantopeProjection.Result part = partial.project(y, r);
        // the two are the same projection up to the eigensolvers' rounding (||Y|| ~ 1 here)
        assertThat(part.projection().minus(full.projection()).maxAbs()).isLessThan(1e-9);
        assertThat(part.theta()).isCloseTo(full.theta(), within(1e-10));
        assertThat(part.projection().trace()).isCloseTo(r, within(1e-9));
    }

    @Test
    void partialProjectionEqualsTheFullOneOnRandomMatrices() {
        RandomSource random = RandomSource.seededForReproducibility(41);
        FantopeProjection.Partial partial = FantopeProjection.partial();
        for (int t = 0; t < 4; t++) {
            // a few large eigenvalues on top of a Wigner bulk: the active set is small
            Matrix y = randomSymmetric(160, 0.5 / Math.sqrt(160), random);
            Matrix v = RandomSubspace.basis(160, 3, random);
            y = y.plus(v.times(v.transpose()).scaled(3));
            assertSameAsFull(partial, y, 3);
        }
        assertThat(partial.partialCount()).isEqualTo(4);
        assertThat(partial.fullCount()).isZero();
        // a pure Wigner matrix at r = 5: the shift falls inside the bulk's edge, dozens of pairs are active
        assertSameAsFull(partial, randomSymmetric(160, 1 / Math.sqrt(160), random), 5);
    }

    @Test
    void clusteredSpectraForceTheCertificateToGrowOrFallBack() {
        RandomSource random = RandomSource.seededForReproducibility(43);
        int d = 200;
        // 1. a cluster of 30 equal eigenvalues on top with r = 2: θ = 1 - 2/30 is below the cluster, every
        //    member is active; the first request (m = 10) sees gamma_11 = 1 > θ_10 and must grow to m = 40.
        double[] gamma = new double[d];
        Arrays.fill(gamma, 0, 30, 1.0);
        for (int i = 30; i < d; i++) {
            gamma[i] = -1 + 1.5 * random.nextDouble();
        }
        FantopeProjection.Partial partial = FantopeProjection.partial();
        assertSameAsFull(partial, withSpectrum(gamma, random), 2);
        assertThat(partial.regrowths()).isPositive();
        assertThat(partial.partialCount()).isEqualTo(1);
        // 2. a cluster straddling any m: 150 eigenvalues within 1e-3 of each other, r = 3 → the active set is
        //    the whole cluster (> d/2), so the partial path gives up and the full decomposition is used.
        double[] flat = new double[d];
        for (int i = 0; i < d; i++) {
            flat[i] = i < 150 ? 0.5 + 1e-3 * random.nextDouble() : -2 + random.nextDouble();
        }
        FantopeProjection.Partial other = FantopeProjection.partial();
        assertSameAsFull(other, withSpectrum(flat, random), 3);
        assertThat(other.fullCount()).isEqualTo(1);
        assertThat(other.partialCount()).isZero();
        // 3. eigenvalues tied exactly at the boundary gamma_m = gamma_{m+1}, both capped above θ
        double[] tied = new double[d];
        for (int i = 0; i < d; i++) {
            tied[i] = i < 12 ? 5.0 : -1.0 * i / d;
        }
        FantopeProjection.Partial third = FantopeProjection.partial();
        assertSameAsFull(third, withSpectrum(tied, random), 2.5);
        assertThat(third.partialCount() + third.fullCount()).isEqualTo(1);
    }
}
