package io.dpspectra.robust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import org.junit.jupiter.api.Test;

class StiefelTest {
    static Matrix gaussian(int d, int r, RandomSource random) {
        Matrix m = new Matrix(d, r);
        for (int i = 0; i < d * r; i++) {
            m.data()[i] = random.standardNormal();
        }
        return m;
    }

    private static double orthonormalityError(Matrix v) {
        return v.transposeTimes(v).minus(Matrix.identity(v.cols())).maxAbs();
    }

    @Test
    void projectionIsOrthonormalAndFixesOrthonormalBases() {
        RandomSource random = RandomSource.seededForReproducibility(1);
        Matrix a = gaussian(30, 4, random);
        Matrix v = Stiefel.project(a);
        assertThat(orthonormalityError(v)).isLessThan(1e-13);
        assertThat(Stiefel.project(v).minus(v).maxAbs()).isLessThan(1e-13);
    }

    @Test
    void projectionCommutesWithOrthogonalRightFactors() {
        RandomSource random = RandomSource.seededForReproducibility(2);
        Matrix a = gaussian(25, 3, random);
        Matrix s = Orthonormal.qr(gaussian(3, 3, random));
        assertThat(Stiefel.project(a.times(s)).minus(Stiefel.project(a).times(s)).maxAbs()).isLessThan(1e-12);
    }

    @Test
    void projectionIsNearerThanRandomOrthonormalBases() {
        RandomSource random = RandomSource.seededForReproducibility(3);
        Matrix a = gaussian(12, 3, random);
        double best = Stiefel.project(a).minus(a).frobeniusNorm();
        for (int t = 0; t < 2000; t++) {
            Matrix w = Orthonormal.qr(gaussian(12, 3, random));
            assertThat(w.minus(a).frobeniusNorm()).isGreaterThanOrEqualTo(best - 1e-12);
        }
        // and nearer than small perturbations of itself
        Matrix v = Stiefel.project(a);
        for (int t = 0; t < 200; t++) {
            Matrix w = Stiefel.project(v.plus(gaussian(12, 3, random).scaled(1e-3)));
            assertThat(w.minus(a).frobeniusNorm()).isGreaterThanOrEqualTo(best - 1e-12);
        }
    }

    @Test
    void rankDeficientInputStillGivesAnOrthonormalBasis() {
        Matrix a = new Matrix(5, 2);
        a.set(0, 0, 1);
        a.set(0, 1, 1); // two equal columns
        assertThat(orthonormalityError(Stiefel.project(a))).isLessThan(1e-12);
    }

    @Test
    void expMapMovesAlongTheGeodesicByTheSingularValuesOfTheTangent() {
        RandomSource random = RandomSource.seededForReproducibility(4);
        Matrix v = Orthonormal.qr(gaussian(20, 2, random));
        Matrix h = Stiefel.tangent(v, gaussian(20, 2, random)).scaled(0.3);
        double[] s = io.dpspectra.linalg.ThinSvd.of(h).singular();
        Matrix w = Stiefel.exp(v, h);
        assertThat(orthonormalityError(w)).isLessThan(1e-13);
        double[] angles = SubspaceMetrics.principalAngles(v, w); // ascending
        assertThat(angles[1]).isCloseTo(s[0], within(1e-12));
        assertThat(angles[0]).isCloseTo(s[1], within(1e-12));
        assertThat(Stiefel.exp(v, h.scaled(0)).minus(v).maxAbs()).isLessThan(1e-14);
    }

    @Test
    void projectionStepAgreesWithTheExpMapToThirdOrder() {
        // App. B.1: P_O(V + ηH) = Exp_V(ηH) + O(η³) as subspaces
        RandomSource random = RandomSource.seededForReproducibility(5);
        Matrix v = Orthonormal.qr(gaussian(15, 2, random));
        Matrix h = Stiefel.tangent(v, gaussian(15, 2, random));
        h = h.scaled(1 / h.frobeniusNorm());
        double e1 = SubspaceMetrics.projectorDistance(Stiefel.project(v.plus(h.scaled(1e-1))), Stiefel.exp(v, h.scaled(1e-1)));
        double e2 = SubspaceMetrics.projectorDistance(Stiefel.project(v.plus(h.scaled(5e-2))), Stiefel.exp(v, h.scaled(5e-2)));
        assertThat(e1).isLessThan(1e-2);
        assertThat(e1 / e2).isBetween(6.0, 10.0); // halving η divides the gap by about 8
    }
}
