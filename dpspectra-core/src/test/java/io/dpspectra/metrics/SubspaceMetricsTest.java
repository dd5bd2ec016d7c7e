package io.dpspectra.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.noise.RandomSource;
import org.junit.jupiter.api.Test;

class SubspaceMetricsTest {
    private static final int D = 9;

    private static double[] unit(int d, int i) {
        double[] e = new double[d];
        e[i] = 1;
        return e;
    }

    private static double[] combo(double c1, double[] a, double c2, double[] b) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = c1 * a[i] + c2 * b[i];
        }
        return out;
    }

    /** U = [e1, e2], V = [cos a e1 + sin a e3, cos b e2 + sin b e4]: principal angles exactly {a, b}. */
    private static Matrix[] pairWithAngles(double a, double b) {
        Matrix u = Matrix.fromColumns(unit(D, 0), unit(D, 1));
        Matrix v = Matrix.fromColumns(combo(Math.cos(a), unit(D, 0), Math.sin(a), unit(D, 2)),
                combo(Math.cos(b), unit(D, 1), Math.sin(b), unit(D, 3)));
        return new Matrix[] {u, v};
    }

    private static Matrix randomOrthogonal(int d, int cols, long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        Matrix g = new Matrix(d, cols);
        for (int j = 0; j < cols; j++) {
            for (int i = 0; i < d; i++) {
                g.set(i, j, r.standardNormal());
            }
        }
        return Orthonormal.qr(g);
    }

    private static Matrix randomPsd(int d, long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        Matrix g = new Matrix(d + 3, d);
        for (int j = 0; j < d; j++) {
            for (int i = 0; i < d + 3; i++) {
                g.set(i, j, r.standardNormal() * (j + 1));
            }
        }
        return g.transposeTimes(g);
    }

    private static double denseProjectorDistance(Matrix u, Matrix v) {
        return u.times(u.transpose()).minus(v.times(v.transpose())).frobeniusNorm();
    }

    @Test
    void principalAnglesRecoverHandConstructedAnglesIncludingTinyOnes() {
        Matrix[] uv = pairWithAngles(0.7, 1e-9);
        double[] theta = SubspaceMetrics.principalAngles(uv[0], uv[1]);
        assertThat(theta).hasSize(2);
        assertThat(theta[0]).as("a tiny angle survives: no 1 − cos² cancellation").isCloseTo(1e-9, within(1e-20));
        assertThat(theta[1]).isCloseTo(0.7, within(1e-14));
        assertThat(SubspaceMetrics.principalAngles(uv[1], uv[0])).containsExactly(theta, within(1e-15));
    }

    @Test
    void nearlyOrthogonalSubspacesHaveAnglesNearHalfPi() {
        Matrix[] uv = pairWithAngles(Math.PI / 2 - 1e-10, 0.2);
        double[] theta = SubspaceMetrics.principalAngles(uv[0], uv[1]);
        assertThat(theta[1]).isCloseTo(Math.PI / 2 - 1e-10, within(1e-15));
        assertThat(theta[0]).isCloseTo(0.2, within(1e-14));
    }

    @Test
    void projectorDistanceSinThetaAndDr2MatchTheirDefinitions() {
        double a = 0.9;
        double b = 0.25;
        Matrix[] uv = pairWithAngles(a, b);
        double expected = Math.sqrt(2 * (Math.pow(Math.sin(a), 2) + Math.pow(Math.sin(b), 2)));
        assertThat(SubspaceMetrics.projectorDistance(uv[0], uv[1])).isCloseTo(expected, within(1e-14))
                .isCloseTo(denseProjectorDistance(uv[0], uv[1]), within(1e-13));
        assertThat(SubspaceMetrics.sinTheta(uv[0], uv[1])).isCloseTo(Math.sin(a), within(1e-14));
        assertThat(SubspaceMetrics.dR2(uv[0], uv[1])).isCloseTo(1 - Math.cos(a), within(1e-14));
        assertThat(SubspaceMetrics.projectionResidual(uv[1], uv[0])).isCloseTo(Math.sin(a), within(1e-14));
    }

    @Test
    void dR2OfATinyAngleIsHalfItsSquareWithoutCancellation() {
        Matrix[] uv = pairWithAngles(3e-9, 1e-9);
        assertThat(SubspaceMetrics.dR2(uv[0], uv[1])).isCloseTo(4.5e-18, within(1e-30));
    }

    @Test
    void projectorDistanceForUnequalRanksMatchesTheDenseFormula() {
        Matrix u = randomOrthogonal(D, 2, 5);
        Matrix v = randomOrthogonal(D, 4, 6);
        assertThat(SubspaceMetrics.projectorDistance(u, v)).isCloseTo(denseProjectorDistance(u, v), within(1e-12));
        assertThat(SubspaceMetrics.projectorDistance(v, u)).isCloseTo(denseProjectorDistance(u, v), within(1e-12));
        assertThat(SubspaceMetrics.principalAngles(u, v)).hasSize(2);
    }

    @Test
    void identicalSubspacesAreAtDistanceZeroWhateverTheirBases() {
        Matrix u = randomOrthogonal(D, 3, 7);
        Matrix r = randomOrthogonal(3, 3, 8);
        Matrix ur = u.times(r);
        assertThat(SubspaceMetrics.principalAngles(u, ur)).containsExactly(new double[] {0, 0, 0}, within(1e-14));
        assertThat(SubspaceMetrics.projectorDistance(u, ur)).isLessThan(1e-14);
        assertThat(SubspaceMetrics.dR2(u, ur)).isLessThan(1e-28);
        assertThat(SubspaceMetrics.projectionResidual(ur, u)).isLessThan(1e-14);
    }

    @Test
    void projectionResidualIsZeroWhenULiesInsideALargerX() {
        Matrix x = randomOrthogonal(D, 5, 9);
        Matrix u = Orthonormal.qr(x.times(randomOrthogonal(5, 2, 10)));
        assertThat(SubspaceMetrics.projectionResidual(x, u)).isLessThan(1e-14);
        assertThat(SubspaceMetrics.sinTheta(u, x)).isLessThan(1e-14);
    }

    @Test
    void anglesAreInvariantUnderACommonRotation() {
        Matrix[] uv = pairWithAngles(0.4, 1.1);
        Matrix q = randomOrthogonal(D, D, 11);
        double[] before = SubspaceMetrics.principalAngles(uv[0], uv[1]);
        double[] after = SubspaceMetrics.principalAngles(q.times(uv[0]), q.times(uv[1]));
        assertThat(after).containsExactly(before, within(1e-13));
    }

    @Test
    void capturedVarianceRatioIsOneForTheTrueSubspaceAndMatchesTheHandValue() {
        Matrix c = randomPsd(D, 12);
        Matrix top = SymmetricEigen.top(c, 3).vectors();
        assertThat(SubspaceMetrics.capturedVarianceRatio(top, c)).isCloseTo(1.0, within(1e-12));
        assertThat(SubspaceMetrics.zeta(top, c)).isLessThan(1e-5);
        // a rotated basis of the same span captures the same variance
        Matrix rotated = top.times(randomOrthogonal(3, 3, 13));
        assertThat(SubspaceMetrics.capturedVarianceRatio(rotated, c)).isCloseTo(1.0, within(1e-12));
        // diag(4, 2, 1, ...): e2 captures 2 of the best 4
        Matrix diag = new Matrix(D, D);
        for (int i = 0; i < D; i++) {
            diag.set(i, i, i == 0 ? 4 : i == 1 ? 2 : 1);
        }
        Matrix e2 = Matrix.fromColumns(unit(D, 1));
        assertThat(SubspaceMetrics.capturedVarianceRatio(e2, diag)).isCloseTo(0.5, within(1e-15));
        assertThat(SubspaceMetrics.zeta(e2, diag)).isCloseTo(Math.sqrt(0.5), within(1e-15));
    }

    @Test
    void capturedVarianceRatioOfAnyBasisLiesInTheUnitIntervalAndIsRotationInvariant() {
        Matrix c = randomPsd(D, 14);
        Matrix q = randomOrthogonal(D, D, 15);
        Matrix qcqt = q.times(c).times(q.transpose());
        for (long seed = 20; seed < 30; seed++) {
            Matrix u = randomOrthogonal(D, 2, seed);
            double r = SubspaceMetrics.capturedVarianceRatio(u, c);
            assertThat(r).isBetween(0.0, 1.0 + 1e-12);
            assertThat(SubspaceMetrics.capturedVarianceRatio(q.times(u), qcqt)).isCloseTo(r, within(1e-12));
        }
    }

    @Test
    void zetaBoundsTheProjectorDistanceAsInLemma1() {
        // [DS] Lemma 1: ζ² ≥ ‖UUᵀ − V_kV_kᵀ‖_F² (λ_k − λ_{k+1}) / (2 Σ_{j≤k} λ_j)
        Matrix c = randomPsd(D, 16);
        SymmetricEigen eig = SymmetricEigen.of(c);
        int k = 2;
        Matrix vk = eig.vectors().leadingColumns(k);
        double gap = eig.values()[k - 1] - eig.values()[k];
        double sum = eig.values()[0] + eig.values()[1];
        for (long seed = 30; seed < 40; seed++) {
            Matrix u = randomOrthogonal(D, k, seed);
            double z = SubspaceMetrics.zeta(u, c);
            double dist = SubspaceMetrics.projectorDistance(u, vk);
            assertThat(z * z).isGreaterThanOrEqualTo(dist * dist * gap / (2 * sum) - 1e-12);
        }
    }

    @Test
    void structuredSpikedRatioEqualsTheDenseOne() {
        Matrix v = randomOrthogonal(D, 2, 41);
        double[] lambdas = {5, 2};
        double s2 = 0.3;
        Matrix sigma = Matrix.identity(D).scaled(s2);
        for (int l = 0; l < 2; l++) {
            double[] col = v.column(l);
            for (int i = 0; i < D; i++) {
                for (int j = 0; j < D; j++) {
                    sigma.add(i, j, lambdas[l] * col[i] * col[j]);
                }
            }
        }
        for (long seed = 42; seed < 46; seed++) {
            Matrix u = randomOrthogonal(D, 2, seed);
            assertThat(SubspaceMetrics.capturedVarianceRatio(u, v, lambdas, s2))
                    .isCloseTo(SubspaceMetrics.capturedVarianceRatio(u, sigma), within(1e-12));
        }
        assertThat(SubspaceMetrics.zeta(v, v, lambdas, s2)).isLessThan(1e-7);
    }

    @Test
    void capturedVarianceOfLeadingColumnsUsesTheTopKDenominator() {
        Matrix c = randomPsd(D, 50);
        Matrix top = SymmetricEigen.top(c, 4).vectors();
        assertThat(SubspaceMetrics.capturedVarianceRatio(top, c, 2)).isCloseTo(1.0, within(1e-12));
        assertThatThrownBy(() -> SubspaceMetrics.capturedVarianceRatio(top, c, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 5");
    }

    @Test
    void aNonOrthonormalBasisIsRefusedWithTheDeviation() {
        Matrix u = Matrix.fromColumns(new double[] {1, 1, 0}, new double[] {0, 1, 0});
        Matrix v = Matrix.fromColumns(new double[] {1, 0, 0}, new double[] {0, 1, 0});
        assertThatThrownBy(() -> SubspaceMetrics.principalAngles(u, v)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("u must have orthonormal columns").hasMessageContaining("Orthonormal.qr");
        assertThatThrownBy(() -> SubspaceMetrics.capturedVarianceRatio(u, Matrix.identity(3)))
                .hasMessageContaining("orthonormal");
        assertThatThrownBy(() -> SubspaceMetrics.sinTheta(v, Matrix.fromColumns(new double[] {1, 0})))
                .hasMessageContaining("rows");
        assertThatThrownBy(() -> SubspaceMetrics.dR2(v, Matrix.fromColumns(new double[] {1, 0, 0})))
                .hasMessageContaining("same number of columns");
    }

    @org.junit.jupiter.api.Test
    void canonicalCorrelationsIgnoreAffineMapsAndMatchAKnownCase() {
        io.dpspectra.noise.RandomSource r = io.dpspectra.noise.RandomSource.seededForReproducibility(3);
        int n = 500;
        double[][] a = new double[n][2];
        double[][] b = new double[n][2];
        for (int i = 0; i < n; i++) {
            double u = r.standardNormal();
            double v = r.standardNormal();
            double w = r.standardNormal();
            a[i] = new double[] {u, v};
            // an invertible affine map of (u, v) plus a shift: the same centred span
            b[i] = new double[] {3 * u - v + 7, 0.5 * v - 2};
        }
        Matrix x = Matrix.fromRows(a);
        assertThat(SubspaceMetrics.meanSquaredCanonicalCorrelation(x, Matrix.fromRows(b)))
                .isCloseTo(1, org.assertj.core.data.Offset.offset(1e-9));
        // y = (u, noise): correlations 1 and about 0 (the second is the largest of |corr(v, w)| over the span,
        // of order 1/sqrt(n))
        double[][] c = new double[n][2];
        for (int i = 0; i < n; i++) {
            c[i] = new double[] {a[i][0], r.standardNormal()};
        }
        double[] rho = SubspaceMetrics.canonicalCorrelations(x, Matrix.fromRows(c));
        assertThat(rho[0]).isCloseTo(1, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(rho[1]).isLessThan(5 / Math.sqrt(n));
        // a constant column spans nothing
        double[][] k = new double[n][2];
        for (int i = 0; i < n; i++) {
            k[i] = new double[] {a[i][1], 4};
        }
        assertThat(SubspaceMetrics.canonicalCorrelations(x, Matrix.fromRows(k))).containsExactly(
                new double[] {1, 0}, org.assertj.core.data.Offset.offset(1e-9));
    }
}
