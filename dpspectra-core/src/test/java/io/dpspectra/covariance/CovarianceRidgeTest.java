package io.dpspectra.covariance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.CovarianceRidge;
import io.dpspectra.result.PrivateCovariance;
import io.dpspectra.synthetic.CorrelatedSphereData;
import org.junit.jupiter.api.Test;

/** Ridge regression from a (released) second-moment matrix, and the output-perturbation baseline P. */
class CovarianceRidgeTest {
    private static final int D = 6;
    private static final int N = 3000;

    private static Matrix data(long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        return CorrelatedSphereData.create(D, r).sample(N, r);
    }

    private static double distance(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(s);
    }

    @Test
    void weightsSolveTheRegularisedNormalEquations() {
        Matrix x = data(1);
        Matrix c = x.transposeTimes(x);
        CovarianceRidge m = CovarianceRidge.fit(c, 2, 3.0, CovarianceRidge.Scaling.APPENDIX_C2, 0);
        double[] w = m.weights();
        int[] f = m.features();
        assertThat(f).containsExactly(0, 1, 3, 4, 5);
        for (int i = 0; i < f.length; i++) {
            double lhs = 3.0 * w[i];
            for (int j = 0; j < f.length; j++) {
                lhs += c.get(f[i], f[j]) * w[j];
            }
            assertThat(lhs).isCloseTo(c.get(f[i], 2), within(1e-9));
        }
        // Section 1.1 scaling is C.2 with alpha' = 2 alpha n
        double[] w11 = CovarianceRidge.fit(c, 2, 0.5, CovarianceRidge.Scaling.SECTION_1_1, N).weights();
        double[] wc2 = CovarianceRidge.fit(c, 2, 0.5 * 2 * N, CovarianceRidge.Scaling.APPENDIX_C2, 0).weights();
        assertThat(distance(w11, wc2)).isLessThan(1e-12);
    }

    @Test
    void ridgeFromAReleasedCovarianceApproachesRawDataRidgeAsEpsilonGrows() {
        final int reps = 16; // eps = 0.1 and 1 are both noise-dominated: 4 repetitions were seed luck
        Matrix x = data(2);
        RowSource rows = InMemoryRows.of(x).clipL2(1);
        double[] raw = CovarianceRidge.fit(x.transposeTimes(x), 0, 10, CovarianceRidge.Scaling.APPENDIX_C2, 0)
                .weights();
        double[] eps = {0.1, 1, 10, 1000};
        double[] dist = new double[eps.length];
        for (int e = 0; e < eps.length; e++) {
            for (int rep = 0; rep < reps; rep++) {
                PrivateCovariance c = IterativeEigenvectorSampling.builder()
                        .randomSource(RandomSource.seededForReproducibility(100 * e + rep)).build()
                        .release(rows, PrivacyParams.pure(eps[e]));
                dist[e] += distance(c.ridge(0, 10).weights(), raw) / reps;
            }
        }
        for (int e = 1; e < eps.length; e++) {
            assertThat(dist[e]).as("distance at eps=%s", eps[e]).isLessThan(dist[e - 1]);
        }
        assertThat(dist[eps.length - 1] / Vectors.norm2(raw)).isLessThan(0.05);
    }

    @Test
    void outputPerturbationNoiseShrinksAsEpsilonGrowsAndIsCentredOnTheExactSolution() {
        Matrix x = data(3);
        RowSource rows = InMemoryRows.of(x).clipL2(1);
        double[] raw = CovarianceRidge.fit(x.transposeTimes(x), 1, 100, CovarianceRidge.Scaling.APPENDIX_C2, 0)
                .weights();
        OutputPerturbationRidge p = OutputPerturbationRidge.builder().target(1).alpha(100)
                .randomSource(RandomSource.seededForReproducibility(4)).build();
        // E‖b‖ = (d−1)·s for the Gamma(d−1, s) radius
        double s1 = 2 * (1 + Math.sqrt(N / 100.0)) / 100.0; // Δ at β = 1
        assertThat(p.sensitivity(N, 1)).isCloseTo(s1, within(1e-12));
        int reps = 400;
        double meanNorm = 0;
        for (int i = 0; i < reps; i++) {
            double[] w = p.fit(rows, PrivacyParams.pure(1)).model().weights();
            meanNorm += distance(w, raw) / reps;
        }
        double expected = (D - 1) * s1;
        // sd of the Gamma(5, s) radius is √5·s; 4 standard errors over 400 draws
        assertThat(meanNorm).isCloseTo(expected, within(4 * Math.sqrt(D - 1) * s1 / Math.sqrt(reps)));
        double[] w = p.fit(rows, PrivacyParams.pure(1e6)).model().weights();
        assertThat(distance(w, raw)).isLessThan(1e-4);
    }

    @Test
    void invalidArgumentsAreRejectedWithTheValue() {
        Matrix c = Matrix.identity(3);
        assertThatThrownBy(() -> CovarianceRidge.fit(c, 3, 1, CovarianceRidge.Scaling.APPENDIX_C2, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("target").hasMessageContaining("3");
        assertThatThrownBy(() -> CovarianceRidge.fit(c, 0, -1, CovarianceRidge.Scaling.APPENDIX_C2, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("alpha");
        assertThatThrownBy(() -> OutputPerturbationRidge.builder().target(0).alpha(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("alpha");
    }
}
