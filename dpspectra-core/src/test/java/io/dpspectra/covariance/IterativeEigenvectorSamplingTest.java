package io.dpspectra.covariance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;
import io.dpspectra.synthetic.CorrelatedSphereData;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Properties of Amin et al.'s Algorithm 1 (spec §6.4 item 7) and of the KT baseline. */
class IterativeEigenvectorSamplingTest {

    private static Matrix amin(int d, int n, long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        return CorrelatedSphereData.create(d, r).sample(n, r);
    }

    private static IterativeEigenvectorSampling ies(IterativeEigenvectorSampling.BudgetSplit split, long seed) {
        return IterativeEigenvectorSampling.builder().split(split)
                .randomSource(RandomSource.seededForReproducibility(seed)).build();
    }

    private static double normalisedError(PrivateCovariance c, Matrix exact, long n) {
        return c.matrix().minus(exact).frobeniusNorm() / n;
    }

    @SuppressWarnings("unchecked")
    @Test
    void vectorBudgetsAndEigenvalueBudgetSumToEpsilonForBothSplits() {
        Matrix x = amin(6, 300, 1);
        for (IterativeEigenvectorSampling.BudgetSplit split : IterativeEigenvectorSampling.BudgetSplit.values()) {
            PrivateCovariance c = ies(split, 2).release(InMemoryRows.of(x).clipL2(1), PrivacyParams.pure(0.7));
            double sum = (double) c.diagnostics().get("epsilonEigenvalues");
            for (double e : (List<Double>) c.diagnostics().get("epsilonVectors")) {
                assertThat(e).isPositive();
                sum += e;
            }
            assertThat(sum).isCloseTo(0.7, within(0.7 * 1e-15 * 8));
            assertThat(c.guarantee().params()).isEqualTo(PrivacyParams.pure(0.7));
            assertThat(c.guarantee().neighbouring()).isEqualTo(Neighbouring.REPLACE_ROW);
        }
    }

    @SuppressWarnings("unchecked")
    @Test
    void adaptiveSplitGivesLargerEigenvaluesMoreBudget() {
        Matrix x = amin(8, 2000, 3);
        PrivateCovariance c = ies(IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE, 4)
                .release(InMemoryRows.of(x).clipL2(1), PrivacyParams.pure(5));
        List<Double> eps = (List<Double>) c.diagnostics().get("epsilonVectors");
        for (int i = 1; i < eps.size(); i++) {
            assertThat(eps.get(i)).isLessThanOrEqualTo(eps.get(i - 1));
        }
        assertThat(eps.get(0)).isGreaterThan(eps.get(eps.size() - 1));
    }

    @Test
    void sampledVectorsAreOrthonormalAndEigenvaluesSortedInZeroToN() {
        Matrix x = amin(12, 400, 5);
        PrivateCovariance c = ies(IterativeEigenvectorSampling.BudgetSplit.UNIFORM, 6)
                .release(InMemoryRows.of(x).clipL2(1), PrivacyParams.pure(0.5));
        Matrix theta = c.eigenvectors();
        Matrix gram = theta.transposeTimes(theta);
        assertThat(gram.minus(Matrix.identity(12)).maxAbs()).isLessThan(1e-12);
        double[] l = c.eigenvalues();
        for (int i = 0; i < l.length; i++) {
            assertThat(l[i]).isBetween(0.0, 400.0);
            if (i > 0) {
                assertThat(l[i]).isLessThanOrEqualTo(l[i - 1]);
            }
        }
        // the matrix is exactly Θ diag(λ) Θᵀ
        assertThat(SampledEigenvalues.assemble(l, theta).minus(c.matrix()).maxAbs()).isLessThan(1e-9);
        assertThat(CovarianceTestSupport.isSymmetric(c.matrix())).isTrue();
    }

    @Test
    void nearNonPrivateRunRecoversTheCovariance() {
        // spec §6.4 item 7: Algorithm 3 data, d = 10, n = 1000, AD, eps = 1e6: error < 2e-3
        Matrix x = amin(10, 1000, 7);
        Matrix exact = x.transposeTimes(x);
        PrivateCovariance c = ies(IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE, 8)
                .release(InMemoryRows.of(x).clipL2(1), PrivacyParams.pure(1e6));
        assertThat(normalisedError(c, exact, 1000)).isLessThan(2e-3);
        assertThat((double) c.diagnostics().get("proposalsMean")).isLessThan(20.0);
    }

    @Test
    void errorFallsAsEpsilonGrows() {
        Matrix x = amin(10, 2000, 9);
        Matrix exact = x.transposeTimes(x);
        RowSource rows = InMemoryRows.of(x).clipL2(1);
        double[] eps = {0.05, 1, 50};
        double[] err = new double[eps.length];
        for (int e = 0; e < eps.length; e++) {
            for (int rep = 0; rep < 5; rep++) {
                err[e] += normalisedError(ies(IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE, 100 + rep)
                        .release(rows, PrivacyParams.pure(eps[e])), exact, 2000) / 5;
            }
        }
        assertThat(err[1]).isLessThan(err[0]);
        assertThat(err[2]).isLessThan(err[1]);
    }

    @Test
    void topKVectorsGiveARankKRelease() {
        Matrix x = amin(8, 500, 10);
        PrivateCovariance c = IterativeEigenvectorSampling.builder().vectors(3)
                .randomSource(RandomSource.seededForReproducibility(11)).build()
                .release(InMemoryRows.of(x).clipL2(1), PrivacyParams.pure(2));
        double[] l = c.eigenvalues();
        assertThat(l[3]).isCloseTo(0.0, within(1e-9));
        assertThat(c.topK(3).components().cols()).isEqualTo(3);
    }

    @Test
    void dimensionOneReleasesTheNoisySumOfSquares() {
        Matrix x = Matrix.fromRows(new double[][] {{0.5}, {-1}, {0.2}});
        PrivateCovariance c = ies(IterativeEigenvectorSampling.BudgetSplit.UNIFORM, 12)
                .release(InMemoryRows.of(x).clipL2(1), PrivacyParams.pure(1e6));
        assertThat(c.matrix().get(0, 0)).isCloseTo(1.29, within(1e-3));
        assertThat(Math.abs(c.eigenvectors().get(0, 0))).isEqualTo(1.0);
    }

    @Test
    void invalidConfigurationsNameTheParameter() {
        RowSource rows = InMemoryRows.of(amin(4, 50, 13)).clipL2(1);
        assertThatThrownBy(() -> IterativeEigenvectorSampling.builder().vectors(5).build()
                .release(rows, PrivacyParams.pure(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k = 5");
        assertThatThrownBy(() -> IterativeEigenvectorSampling.builder().failureProbability(1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("failureProbability")
                .hasMessageContaining("1.5");
        assertThatThrownBy(() -> IterativeEigenvectorSampling.builder().build()
                .release(InMemoryRows.of(new double[][] {{1, 2}}), PrivacyParams.pure(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("norm bound");
        assertThatThrownBy(() -> IterativeEigenvectorSampling.builder().build()
                .releaseFromTrustedGram(Matrix.identity(2), 0, 1, PrivacyParams.pure(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("n = 0");
    }

    @Test
    void kapralovTalwarReleaseIsPsdInZeroToNAndImprovesWithEpsilon() {
        Matrix x = amin(8, 1000, 14);
        Matrix exact = x.transposeTimes(x);
        RowSource rows = InMemoryRows.of(x).clipL2(1);
        double low = 0;
        double high = 0;
        for (int rep = 0; rep < 4; rep++) {
            PrivateCovariance a = KapralovTalwar.builder().randomSource(RandomSource.seededForReproducibility(20 + rep))
                    .build().release(rows, PrivacyParams.pure(0.1));
            PrivateCovariance b = KapralovTalwar.builder().randomSource(RandomSource.seededForReproducibility(30 + rep))
                    .build().release(rows, PrivacyParams.pure(100));
            for (double v : a.eigenvalues()) {
                assertThat(v).isBetween(-1e-9, 1000 + 1e-9);
            }
            low += normalisedError(a, exact, 1000);
            high += normalisedError(b, exact, 1000);
        }
        assertThat(high).isLessThan(low);
        assertThat(high / 4).isLessThan(0.05);
    }

    @Test
    void householderDeflationKeepsTheReducedMatrixConsistentWithTheBasis() {
        Matrix x = amin(7, 200, 15);
        Matrix c = x.transposeTimes(x);
        Matrix basis = Matrix.identity(7);
        double[] u = {0.3, -0.5, 0.1, 0.7, 0.2, -0.1, 0.3};
        io.dpspectra.linalg.Vectors.normalizeInPlace(u);
        Matrix[] next = HouseholderDeflation.deflate(basis, c, u);
        Matrix nb = next[0];
        assertThat(nb.transposeTimes(nb).minus(Matrix.identity(6)).maxAbs()).isLessThan(1e-14);
        assertThat(io.dpspectra.linalg.Vectors.norm2(nb.transposeTimes(u))).isLessThan(1e-14);
        assertThat(nb.transposeTimes(c.times(nb)).minus(next[1]).maxAbs()).isLessThan(1e-10);
    }
    @SuppressWarnings("unchecked")
    @Test
    void skipLastVectorGivesTheDeterminedVectorNoBudgetAndKeepsTheTotal() {
        Matrix x = amin(5, 300, 16);
        for (IterativeEigenvectorSampling.BudgetSplit split : IterativeEigenvectorSampling.BudgetSplit.values()) {
            PrivateCovariance c = IterativeEigenvectorSampling.builder().split(split).skipLastVector(true)
                    .randomSource(RandomSource.seededForReproducibility(17)).build()
                    .release(InMemoryRows.of(x).clipL2(1), PrivacyParams.pure(2));
            List<Double> eps = (List<Double>) c.diagnostics().get("epsilonVectors");
            assertThat(eps.get(4)).isZero();
            double sum = (double) c.diagnostics().get("epsilonEigenvalues");
            for (double e : eps) {
                sum += e;
            }
            assertThat(sum).isCloseTo(2.0, within(1e-14));
            Matrix theta = c.eigenvectors();
            assertThat(theta.transposeTimes(theta).minus(Matrix.identity(5)).maxAbs()).isLessThan(1e-12);
        }
    }

}
