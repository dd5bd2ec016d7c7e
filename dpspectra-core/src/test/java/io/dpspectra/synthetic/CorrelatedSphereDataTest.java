package io.dpspectra.synthetic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.noise.RandomSource;
import org.junit.jupiter.api.Test;

/** Amin et al.'s Algorithm 3 generator (spec §5.7, A-C13). */
class CorrelatedSphereDataTest {
    @Test
    void rowsHaveUnitNormAndOneDirectionDominates() {
        RandomSource r = RandomSource.seededForReproducibility(3);
        CorrelatedSphereData gen = CorrelatedSphereData.create(10, r);
        Matrix x = gen.sample(5000, r);
        for (int i = 0; i < x.rows(); i++) {
            double s = 0;
            for (int j = 0; j < x.cols(); j++) {
                s += x.get(i, j) * x.get(i, j);
            }
            assertThat(s).isCloseTo(1.0, within(1e-12));
        }
        double[] l = SymmetricEigen.of(x.transposeTimes(x)).values();
        // the spec's prototype: λ₁/n ≈ 0.53–0.56 for this construction
        assertThat(l[0] / 5000).isBetween(0.4, 0.7);
        assertThat(l[1] / 5000).isLessThan(0.2);
    }

    @Test
    void trainingAndTestSetsShareTheMixingMatrix() {
        RandomSource r = RandomSource.seededForReproducibility(4);
        CorrelatedSphereData gen = CorrelatedSphereData.create(6, r);
        Matrix a = gen.sample(20000, r);
        Matrix b = gen.sample(20000, r);
        Matrix ca = a.transposeTimes(a).scaled(1.0 / 20000);
        Matrix cb = b.transposeTimes(b).scaled(1.0 / 20000);
        // same population second moment: entries agree to sampling error (sd of an entry mean < 1/sqrt(n))
        assertThat(ca.minus(cb).maxAbs()).isLessThan(5 * Math.sqrt(2.0 / 20000));
    }
}
