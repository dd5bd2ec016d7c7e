package io.dpspectra.synthetic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.metrics.SubspaceMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SyntheticDataTest {

    /** (1/n) Σ xxᵀ over one pass. */
    private static Matrix empiricalSecondMoment(RowSource rows) {
        int d = rows.dimension();
        Matrix s = new Matrix(d, d);
        long n = 0;
        try (RowCursor c = rows.open()) {
            double[] x = new double[d];
            while (c.next(x)) {
                n++;
                for (int j = 0; j < d; j++) {
                    for (int i = 0; i < d; i++) {
                        s.add(i, j, x[i] * x[j]);
                    }
                }
            }
        }
        assertThat(n).isEqualTo(rows.knownSize().orElseThrow());
        return s.scaled(1.0 / n);
    }

    /**
     * For x ~ N(0, Σ): E‖S_n − Σ‖_F² = (tr(Σ)² + ‖Σ‖_F²)/n, since Var(x_ix_j) = Σ_iiΣ_jj + Σ_ij². Rademacher
     * factors have negative excess kurtosis, which only lowers these variances. Markov's inequality at 25×
     * the mean square gives a 5σ-style tolerance that fails with probability ≤ 4% for a correct generator.
     */
    private static double tolerance(Matrix sigma, long n) {
        double tr = sigma.trace();
        double f = sigma.frobeniusNorm();
        return 5 * Math.sqrt((tr * tr + f * f) / n);
    }

    private static void assertOrthonormal(Matrix v) {
        Matrix g = v.transposeTimes(v).minus(Matrix.identity(v.cols()));
        assertThat(g.maxAbs()).isLessThan(1e-12);
    }

    @Test
    void rankKEmpiricalSecondMomentConvergesToThePopulationOne() {
        double[] lambdas = {6, 3};
        double sigma = 0.7;
        long n = 20_000;
        SyntheticDataset data = SpikedCovariance.rankK(8, lambdas, sigma).sample(n, 1);
        Matrix pop = data.populationSecondMoment();
        double err = empiricalSecondMoment(data.rows()).minus(pop).frobeniusNorm();
        assertThat(err).isLessThan(tolerance(pop, n));
        // the tolerance is tight enough to see a wrong spike: it is far below λ_k
        assertThat(tolerance(pop, n)).isLessThan(lambdas[1] / 4);
    }

    @Test
    void gaussianEmpiricalSecondMomentConvergesToThePopulationOne() {
        long n = 20_000;
        SyntheticDataset data = GaussianData.of(6, new double[] {4, 2, 1}, 1.0).sample(n, 2);
        Matrix pop = data.populationSecondMoment();
        assertThat(empiricalSecondMoment(data.rows()).minus(pop).frobeniusNorm()).isLessThan(tolerance(pop, n));
    }

    @ParameterizedTest
    @EnumSource(SpikedCovariance.Amplitude.class)
    void rankOneAmplitudeModesHaveTheSpecsTopEigenvalue(SpikedCovariance.Amplitude mode) {
        double lambda1 = 4;
        double sigma = 0.5;
        SpikedCovariance model = SpikedCovariance.rankOne(7, lambda1, sigma, mode);
        double expectedTop = switch (mode) {
            case EIGENVALUE_CONSISTENT -> lambda1 + sigma * sigma;
            case PAPER_G1_LITERAL -> lambda1 * lambda1 + sigma * sigma;
            case EXAMPLE_1 -> 1 + sigma * sigma;
        };
        assertThat(model.populationEigenvalues()).containsExactly(new double[] {expectedTop}, within(1e-12));
        long n = 20_000;
        SyntheticDataset data = model.sample(n, 3);
        Matrix pop = data.populationSecondMoment();
        SymmetricEigen eig = SymmetricEigen.of(pop);
        assertThat(eig.values()[0]).isCloseTo(expectedTop, within(1e-10));
        assertThat(eig.values()[1]).isCloseTo(sigma * sigma, within(1e-10));
        assertThat(empiricalSecondMoment(data.rows()).minus(pop).frobeniusNorm()).isLessThan(tolerance(pop, n));
    }

    @ParameterizedTest
    @EnumSource(SpikedCovariance.Amplitude.class)
    void rankOneRowsWithoutNoiseAreExactlyPlusOrMinusTheScaledSpike(SpikedCovariance.Amplitude mode) {
        SpikedCovariance model = SpikedCovariance.rankOne(5, 9, 0, mode);
        double amp = Math.sqrt(model.populationEigenvalues()[0]);
        SyntheticDataset data = model.sample(200, 4);
        double[] v = data.truthBasis().column(0);
        int plus = 0;
        try (RowCursor c = data.rows().open()) {
            double[] x = new double[5];
            while (c.next(x)) {
                double proj = Vectors.dot(x, v);
                assertThat(Math.abs(proj)).isCloseTo(amp, within(1e-12));
                assertThat(Vectors.norm2(x)).isCloseTo(amp, within(1e-12));
                plus += proj > 0 ? 1 : 0;
            }
        }
        assertThat(plus).as("signs are fair coin flips").isBetween(70, 130);
    }

    @Test
    void rankKRowsWithoutNoiseHaveRademacherCoordinatesInTheTruthBasis() {
        double[] lambdas = {9, 4, 1};
        SyntheticDataset data = SpikedCovariance.rankK(10, lambdas, 0).sample(100, 5);
        Matrix v = data.truthBasis();
        try (RowCursor c = data.rows().open()) {
            double[] x = new double[10];
            while (c.next(x)) {
                double[] coords = v.transposeTimes(x);
                for (int l = 0; l < 3; l++) {
                    assertThat(Math.abs(coords[l])).isCloseTo(Math.sqrt(lambdas[l]), within(1e-12));
                }
            }
        }
    }

    @Test
    void truthBasisIsOrthonormalAndSpansThePopulationTopSubspace() {
        double[] lambdas = {5, 2.5};
        for (SyntheticDataset data : new SyntheticDataset[] {
            SpikedCovariance.rankK(30, lambdas, 1.0).sample(10, 6),
            GaussianData.of(30, lambdas, 1.0).sample(10, 6),
            SpikedCovariance.rankOne(30, 5, 1.0).sample(10, 6)}) {
            Matrix v = data.truthBasis();
            assertOrthonormal(v);
            Matrix pop = data.populationSecondMoment();
            Matrix top = SymmetricEigen.top(pop, v.cols()).vectors();
            assertThat(SubspaceMetrics.projectorDistance(v, top)).isLessThan(1e-10);
            assertThat(SubspaceMetrics.capturedVarianceRatio(v, pop)).isCloseTo(1.0, within(1e-12));
        }
        assertThat(GaussianData.of(4, lambdas, 1.0).populationEigenvalues()).containsExactly(6.0, 3.5);
    }

    @Test
    void sameSeedGivesTheSameDataOnEveryPassAndDifferentSeedsDiffer() {
        SpikedCovariance model = SpikedCovariance.rankK(12, new double[] {3, 2}, 0.4);
        SyntheticDataset a = model.sample(50, 7);
        SyntheticDataset b = model.sample(50, 7);
        SyntheticDataset longer = model.sample(500, 7);
        SyntheticDataset other = model.sample(50, 8);
        assertThat(a.truthBasis()).isEqualTo(b.truthBasis()).isEqualTo(longer.truthBasis());
        assertThat(a.truthBasis()).isNotEqualTo(other.truthBasis());
        double[][] first = readAll(a.rows());
        assertThat(readAll(a.rows())).isDeepEqualTo(first);
        assertThat(readAll(b.rows())).isDeepEqualTo(first);
        double[][] prefix = java.util.Arrays.copyOf(readAll(longer.rows()), 50);
        assertThat(prefix).as("n only truncates the stream").isDeepEqualTo(first);
        assertThat(readAll(other.rows())[0]).isNotEqualTo(first[0]);
    }

    private static double[][] readAll(RowSource rows) {
        java.util.List<double[]> out = new java.util.ArrayList<>();
        try (RowCursor c = rows.open()) {
            double[] x = new double[rows.dimension()];
            while (c.next(x)) {
                out.add(x.clone());
            }
        }
        return out.toArray(new double[0][]);
    }

    @Test
    void badParametersAreRefusedByName() {
        assertThatThrownBy(() -> SpikedCovariance.rankK(5, new double[] {1, 2}, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("descending");
        assertThatThrownBy(() -> SpikedCovariance.rankK(1, new double[] {2, 1}, 1))
                .hasMessageContaining("k = 2").hasMessageContaining("d = 1");
        assertThatThrownBy(() -> SpikedCovariance.rankOne(5, -1, 1)).hasMessageContaining("lambdas[0]")
                .hasMessageContaining("-1.0");
        assertThatThrownBy(() -> SpikedCovariance.rankOne(5, 1, Double.NaN)).hasMessageContaining("sigma");
        assertThatThrownBy(() -> GaussianData.of(0, new double[] {1}, 1)).hasMessageContaining("d must be >= 1");
        assertThatThrownBy(() -> GaussianData.of(3, new double[] {1}, -1)).hasMessageContaining("s0");
        assertThatThrownBy(() -> SpikedCovariance.rankOne(3, 1, 1).sample(0, 1)).hasMessageContaining("n must be");
    }
}
