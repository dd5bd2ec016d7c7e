package io.dpspectra.pca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricOperator;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.result.PrivateSubspace;
import io.dpspectra.synthetic.GaussianData;
import io.dpspectra.synthetic.KnownSpectrum;
import io.dpspectra.synthetic.SyntheticDataset;
import java.util.List;
import org.junit.jupiter.api.Test;

class NoisyPowerMethodTest {
    private static final int D = 64;
    private static final int K = 3;

    /** A with eigenvalues 10, 9, 8, then 4 (gap σ_k − σ_{k+1} = 4, ratio 1/2) in a random basis. */
    private static Matrix[] matrixAndTruth(long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        Matrix q = KnownSpectrum.randomBasis(D, D, r);
        double[] eig = KnownSpectrum.spectrum(D, new double[] {10, 9, 8}, 4);
        return new Matrix[] {KnownSpectrum.symmetric(q, eig), q.leadingColumns(K)};
    }

    @Test
    void exactPowerMethodConvergesGeometricallyAtRateSigmaKPlusOneOverSigmaK() {
        Matrix[] at = matrixAndTruth(1);
        PowerMethodResult r = NoisyPowerMethod.builder().components(K).iterations(40)
                .randomSource(RandomSource.seededForReproducibility(2)).trackAnglesTo(at[1]).build()
                .run(SymmetricOperator.dense(at[0]));
        List<PowerMethodResult.Iteration> trace = r.trace();
        assertThat(trace).hasSize(40);
        // tan θ_k(U, X_ℓ) ≤ (σ_{k+1}/σ_k)^ℓ tan θ_k(U, X_0) for the exact power method: each step divides it by >= 2
        for (int l = 1; l < 20; l++) {
            double ratio = trace.get(l).tanThetaK() / trace.get(l - 1).tanThetaK();
            assertThat(ratio).isLessThanOrEqualTo(0.5 + 1e-9);
        }
        assertThat(SubspaceMetrics.projectionResidual(r.basis(), at[1])).isLessThan(1e-9);
        assertThat(SubspaceMetrics.sinTheta(r.components(), at[1])).isLessThan(1e-9);
        // all k principal angles are recorded; the largest is θ_k, whose sine is the residual
        for (PowerMethodResult.Iteration it : trace) {
            double[] angles = it.principalAngles();
            assertThat(angles).hasSize(K);
            assertThat(angles).isSorted();
            assertThat(Math.sin(angles[K - 1])).isCloseTo(it.sinThetaK(), org.assertj.core.data.Offset.offset(1e-9));
        }
    }

    @Test
    void componentsAreOrthonormalAndOrderedByTheirRayleighQuotients() {
        Matrix[] at = matrixAndTruth(3);
        PowerMethodResult r = NoisyPowerMethod.builder().components(K).blockSize(2 * K).iterations(60)
                .randomSource(RandomSource.seededForReproducibility(4)).build().run(SymmetricOperator.dense(at[0]));
        Matrix c = r.components();
        Matrix gram = c.transposeTimes(c);
        Matrix ac = at[0].times(c);
        for (int i = 0; i < K; i++) {
            for (int j = 0; j < K; j++) {
                assertThat(gram.get(i, j)).isCloseTo(i == j ? 1 : 0, org.assertj.core.data.Offset.offset(1e-12));
            }
        }
        double[] expected = {10, 9, 8};
        for (int j = 0; j < K; j++) {
            double rq = 0;
            for (int i = 0; i < D; i++) {
                rq += c.get(i, j) * ac.get(i, j);
            }
            assertThat(rq).isCloseTo(expected[j], org.assertj.core.data.Offset.offset(1e-6));
            assertThat(r.singularValues()[j]).isCloseTo(expected[j], org.assertj.core.data.Offset.offset(1e-6));
        }
    }

    @Test
    void gaussianPerturbationWithinCorollary11ConvergesToWithinEpsilon() {
        // Cor. 1.1: 5‖G‖ ≤ ε(σ_k − σ_{k+1}). ‖G‖ ≤ s(√d + √p + 3) whp, so s = ε·gap/(5(√d + √p + 3)).
        double eps = 0.1;
        double gap = 4;
        double s = eps * gap / (5 * (Math.sqrt(D) + Math.sqrt(2 * K) + 3));
        for (long seed = 10; seed < 15; seed++) {
            Matrix[] at = matrixAndTruth(seed);
            PowerMethodResult r = NoisyPowerMethod.builder().components(K).blockSize(2 * K).iterations(40)
                    .perturbation(Perturbation.gaussian(s)).randomSource(RandomSource.seededForReproducibility(seed))
                    .build().run(SymmetricOperator.dense(at[0]));
            assertThat(SubspaceMetrics.projectionResidual(r.basis(), at[1])).isLessThanOrEqualTo(eps);
        }
    }

    @Test
    void adversarialPerturbationIsHarmlessBelowTheGapAndHarmfulFarAboveIt() {
        Matrix[] at = matrixAndTruth(20);
        // a fixed pull towards the bottom eigenvectors of A (orthogonal to U): the same Q as matrixAndTruth(20)
        Matrix bottom = new Matrix(D, K);
        Matrix basis = KnownSpectrum.randomBasis(D, D, RandomSource.seededForReproducibility(20));
        for (int j = 0; j < K; j++) {
            bottom.setColumn(j, basis.column(D - 1 - j));
        }
        double eps = 0.05;
        double small = eps * 4 / 5;
        PowerMethodResult ok = NoisyPowerMethod.builder().components(K).iterations(60)
                .perturbation(Perturbation.fixed(bottom, small)).randomSource(RandomSource.seededForReproducibility(22))
                .build().run(SymmetricOperator.dense(at[0]));
        assertThat(SubspaceMetrics.projectionResidual(ok.basis(), at[1])).isLessThanOrEqualTo(eps);
        PowerMethodResult bad = NoisyPowerMethod.builder().components(K).iterations(60)
                .perturbation(Perturbation.fixed(bottom, 40)).randomSource(RandomSource.seededForReproducibility(22))
                .build().run(SymmetricOperator.dense(at[0]));
        assertThat(SubspaceMetrics.projectionResidual(bad.basis(), at[1])).isGreaterThan(0.5);
    }

    @Test
    void fitOnRowsMatchesExactPcaWithoutFormingTheGram() {
        SyntheticDataset data = GaussianData.of(30, new double[] {20, 10}, 1).sample(2000, 5);
        InMemoryRows rows = InMemoryRows.copyOf(data.rows());
        PrivateSubspace npm = NoisyPowerMethod.builder().components(2).blockSize(4).iterations(100)
                .randomSource(RandomSource.seededForReproducibility(6)).build().fit(rows);
        PrivateSubspace exact = ExactPca.builder().components(2).build().fit(rows);
        assertThat(SubspaceMetrics.sinTheta(npm.components(), exact.components())).isLessThan(1e-6);
        assertThat(npm.guarantee()).isEmpty();
        assertThat(npm.diagnostics().get("passes")).isEqualTo(100L);
    }

    @Test
    void blockSizeBelowComponentsIsRejected() {
        assertThatThrownBy(() -> NoisyPowerMethod.builder().components(3).blockSize(2).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blockSize p must be >= components k = 3");
    }

    @Test
    void blockSizeAboveDimensionIsRejected() {
        Matrix a = Matrix.identity(4);
        assertThatThrownBy(() -> NoisyPowerMethod.builder().components(2).blockSize(5).build()
                .run(SymmetricOperator.dense(a)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got p = 5");
    }

    @Test
    void asymmetricDenseMatrixIsRejected() {
        Matrix a = Matrix.fromRows(new double[][] {{1, 2}, {0, 1}});
        assertThatThrownBy(() -> SymmetricOperator.dense(a)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not symmetric");
    }
}
