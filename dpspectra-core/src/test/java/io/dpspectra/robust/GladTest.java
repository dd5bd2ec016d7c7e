package io.dpspectra.robust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.synthetic.Haystack;
import org.junit.jupiter.api.Test;

class GladTest {
    @Test
    void riemannianGradientMatchesFiniteDifferencesAlongTangentDirections() {
        RandomSource random = RandomSource.seededForReproducibility(11);
        Haystack.Sample s = Haystack.generate(300, 12, 2, 0.3, random);
        Matrix v = Orthonormal.qr(StiefelTest.gaussian(12, 2, random)); // away from every inlier's subspace
        Matrix grad = Glad.riemannianGradient(s.rows(), v);
        assertThat(v.transposeTimes(grad).maxAbs()).isLessThan(1e-13); // tangent
        for (int t = 0; t < 5; t++) {
            Matrix h = Stiefel.tangent(v, StiefelTest.gaussian(12, 2, random));
            double eps = 1e-6;
            double up = Glad.objective(s.rows(), null, Stiefel.exp(v, h.scaled(eps)));
            double down = Glad.objective(s.rows(), null, Stiefel.exp(v, h.scaled(-eps)));
            double fd = (up - down) / (2 * eps);
            assertThat(grad.frobeniusInner(h)).isCloseTo(fd, within(1e-7 * Math.max(1, Math.abs(fd))));
        }
    }

    @Test
    void printedDirectionIsMinusTheGradientSoSteppingAlongItDecreasesTheEnergy() {
        RandomSource random = RandomSource.seededForReproducibility(12);
        Haystack.Sample s = Haystack.generate(400, 10, 2, 0.5, random);
        Matrix v = Orthonormal.qr(StiefelTest.gaussian(10, 2, random));
        Matrix g = Glad.descentDirection(s.rows(), null, v, 400, Glad.DEFAULT_TOLERANCE);
        assertThat(g.plus(Glad.riemannianGradient(s.rows(), v)).maxAbs()).isLessThan(1e-15);
        double f0 = Glad.objective(s.rows(), null, v);
        assertThat(Glad.objective(s.rows(), null, Stiefel.project(v.plus(g.scaled(1e-3))))).isLessThan(f0);
        assertThat(Glad.objective(s.rows(), null, Stiefel.project(v.minus(g.scaled(1e-3))))).isGreaterThan(f0);
    }

    @Test
    void eachRowsTermHasFrobeniusNormAtMostOne() {
        RandomSource random = RandomSource.seededForReproducibility(13);
        Haystack.Sample s = Haystack.generate(200, 8, 3, 0.5, random);
        Matrix v = Orthonormal.qr(StiefelTest.gaussian(8, 3, random));
        for (int i = 0; i < 200; i++) {
            Matrix gi = Glad.descentDirection(s.rows(), new int[] {i}, v, 1, 0);
            assertThat(gi.frobeniusNorm()).isLessThanOrEqualTo(1 + 1e-12);
        }
    }

    @Test
    void parallelBlocksGiveTheSameDirectionAsOneThread() {
        RandomSource random = RandomSource.seededForReproducibility(14);
        Haystack.Sample s = Haystack.generate(3000, 400, 2, 0.5, random); // above the parallel threshold
        Matrix v = Orthonormal.qr(StiefelTest.gaussian(400, 2, random));
        Matrix a = Glad.descentDirection(s.rows(), null, v, 3000, Glad.DEFAULT_TOLERANCE);
        Matrix b = Glad.descentDirection(s.rows(), null, v, 3000, Glad.DEFAULT_TOLERANCE);
        assertThat(a).isEqualTo(b);
    }
}
