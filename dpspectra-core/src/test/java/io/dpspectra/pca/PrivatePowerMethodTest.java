package io.dpspectra.pca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.linalg.CsrMatrix;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricOperator;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import io.dpspectra.synthetic.GaussianData;
import io.dpspectra.synthetic.KnownSpectrum;
import io.dpspectra.synthetic.SyntheticDataset;
import org.junit.jupiter.api.Test;

class PrivatePowerMethodTest {
    private static final PrivacyParams BUDGET = PrivacyParams.of(1.0, 1e-6);

    @Test
    void sigmaIsFigure3Formula() {
        // σ = ε⁻¹ √(4 p L ln(1/δ)), evaluated independently
        double expected = Math.sqrt(4 * 3 * 7 * Math.log(1e5)) / 0.5;
        assertThat(PrivatePowerMethod.sigma(3, 7, PrivacyParams.of(0.5, 1e-5))).isCloseTo(expected, offset(1e-12));
        assertThat(PrivatePowerMethod.sigma(1, 1, PrivacyParams.of(2, Math.exp(-1)))).isCloseTo(1.0, offset(1e-12));
    }

    @Test
    void laplaceScaleIsLemma45Formula() {
        assertThat(PrivatePowerMethod.laplaceScale(2, 5, 400, 0.5)).isCloseTo(10 * 2 * 5 * 20 / 0.5, offset(1e-9));
    }

    @Test
    void zcdpConversionCoversTheClaimBelowTheLimitAndNotAboveIt() {
        // ε' = ε²/(8 ln(1/δ)) + ε/√2 ≤ ε  iff  ε ≤ 8(1 − 1/√2) ln(1/δ)
        double ln = Math.log(1e6);
        double limit = 8 * (1 - 1 / Math.sqrt(2)) * ln;
        for (double eps : new double[] {0.1, 1, 5, 0.99 * limit}) {
            double achieved = PrivatePowerMethod.gaussianEpsilonAchieved(4, 10, 1000, PrivacyParams.of(eps, 1e-6));
            assertThat(achieved).isLessThanOrEqualTo(eps).isCloseTo(eps * eps / (8 * ln) + eps / Math.sqrt(2),
                    offset(1e-6 * eps)); // η (rounding) adds ~1e-9 relative
        }
        assertThat(PrivatePowerMethod.gaussianEpsilonAchieved(4, 10, 1000, PrivacyParams.of(1.01 * limit, 1e-6)))
                .isGreaterThan(1.01 * limit);
    }

    @Test
    void epsilonBeyondFigureThreesLimitIsRefusedByThePaperCalibrationOnly() {
        PrivatePowerMethod paper = PrivatePowerMethod.builder().components(1)
                .calibration(PrivatePowerMethod.Calibration.PAPER).build();
        SymmetricOperator a = SymmetricOperator.dense(Matrix.identity(4));
        assertThatThrownBy(() -> paper.release(a, PrivacyParams.of(40, 1e-6)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("epsilon = 40.0 is too large");
        // the exact calibration holds for every epsilon
        PrivateSubspace s = PrivatePowerMethod.builder().components(1).randomSource(RandomSource.seededForReproducibility(9))
                .build().release(a, PrivacyParams.of(40, 1e-6));
        assertThat(io.dpspectra.privacy.pld.GaussianPrivacy.delta(s.guarantee().orElseThrow().profile().gaussianMu(), 40))
                .isLessThanOrEqualTo(1e-6);
    }

    @Test
    void exactSigmaMeetsTheBudgetExactlyAndIsBelowFigureThree() {
        for (double eps : new double[] {0.25, 1, 4, 16}) {
            PrivacyParams budget = PrivacyParams.of(eps, 1e-6);
            double exact = PrivatePowerMethod.exactSigma(8, 10, 256, budget);
            // p·L releases of μ = (1 + η)/σ each compose to μ = √(pL)(1 + η)/σ; it meets (ε, δ), tightly
            double eta = Math.sqrt(256) * exact * 0x1.0p-43;
            double mu = Math.sqrt(80) * (1 + eta) / exact;
            assertThat(io.dpspectra.privacy.pld.GaussianPrivacy.delta(mu, eps)).isLessThanOrEqualTo(1e-6)
                    .isGreaterThan(0.999e-6);
            // 0.52 of Fig. 3's at ε = 0.25, 0.79 at ε = 16 (the table of docs/guide/ledger.md)
            assertThat(exact / PrivatePowerMethod.sigma(8, 10, budget)).isLessThan(eps <= 1 ? 0.6 : 0.8);
        }
        // the guarantee states what ran: the composed Gaussian
        PrivateSubspace s = PrivatePowerMethod.builder().components(2).blockSize(3).iterations(6)
                .randomSource(RandomSource.seededForReproducibility(5)).build()
                .release(SymmetricOperator.dense(Matrix.identity(8)), BUDGET);
        assertThat(s.guarantee().orElseThrow().profile().gaussianMu())
                .isCloseTo(Math.sqrt(18) / PrivatePowerMethod.exactSigma(3, 6, 8, BUDGET), offset(1e-9));
        assertThat(s.diagnostics().get("calibration")).isEqualTo("EXACT");
    }

    @Test
    void gaussianVariantNeedsPositiveDelta() {
        PrivatePowerMethod ppm = PrivatePowerMethod.builder().components(1).build();
        assertThatThrownBy(() -> ppm.release(SymmetricOperator.dense(Matrix.identity(4)), PrivacyParams.pure(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs delta > 0");
    }

    @Test
    void entryLevelNoiseScaleIsSigmaTimesPreviousMaxAbsInEveryIteration() {
        Matrix a = KnownSpectrum.symmetric(KnownSpectrum.randomBasis(32, 32,
                RandomSource.seededForReproducibility(1)), KnownSpectrum.spectrum(32, new double[] {50, 40}, 1));
        PowerMethodResult r = PrivatePowerMethod.builder().components(2).blockSize(3).iterations(6)
                .randomSource(RandomSource.seededForReproducibility(2)).build()
                .iterate(SymmetricOperator.dense(a), BUDGET);
        double sigma = PrivatePowerMethod.exactSigma(3, 6, 32, BUDGET);
        assertThat(r.trace()).hasSize(6);
        for (PowerMethodResult.Iteration it : r.trace()) {
            assertThat(it.noiseScale()).isCloseTo(sigma * it.previousMaxAbs(), offset(1e-12 * sigma));
            assertThat(it.previousMaxAbs()).isBetween(1 / Math.sqrt(32), 1.0);
        }
    }

    @Test
    void spectralAndLaplaceNoiseScalesIgnoreTheIterate() {
        SymmetricOperator a = SymmetricOperator.dense(Matrix.identity(16));
        PowerMethodResult g = PrivatePowerMethod.builder().components(1).iterations(3).noise(PpmNoise.SPECTRAL_GAUSSIAN)
                .sensitivityScale(2).randomSource(RandomSource.seededForReproducibility(3)).build().iterate(a, BUDGET);
        g.trace().forEach(it -> assertThat(it.noiseScale()).isCloseTo(2 * PrivatePowerMethod.exactSigma(1, 3, 16, BUDGET),
                offset(1e-12)));
        PowerMethodResult l = PrivatePowerMethod.builder().components(1).iterations(3).noise(PpmNoise.SPECTRAL_LAPLACE)
                .randomSource(RandomSource.seededForReproducibility(3)).build().iterate(a, PrivacyParams.pure(1));
        l.trace().forEach(it -> assertThat(it.noiseScale()).isCloseTo(10 * 3 * 4, offset(1e-9)));
        assertThat(l.guarantee().delta()).isZero();
        assertThat(l.guarantee().neighbouring()).isEqualTo(Neighbouring.SPECTRAL_NORM);
    }

    @Test
    void guaranteeNamesTheMatrixRelationOfTheVariant() {
        SymmetricOperator a = SymmetricOperator.dense(Matrix.identity(8));
        PrivateSubspace entry = PrivatePowerMethod.builder().components(2).randomSource(RandomSource.seededForReproducibility(4))
                .build().release(a, BUDGET);
        PrivacyGuarantee g = entry.guarantee().orElseThrow();
        assertThat(g.neighbouring()).isEqualTo(Neighbouring.MATRIX_ENTRY);
        assertThat(g.params()).isEqualTo(BUDGET);
        assertThat(g.privacyUnit()).contains("one entry");
        PrivateSubspace pair = PrivatePowerMethod.builder().components(2).symmetricPairUnit()
                .randomSource(RandomSource.seededForReproducibility(4)).build().release(a, BUDGET);
        assertThat((Double) pair.diagnostics().get("sensitivityScale")).isCloseTo(Math.sqrt(2), offset(1e-15));
        assertThat(pair.guarantee().orElseThrow().privacyUnit()).contains("symmetric pair");
        assertThatThrownBy(() -> PrivatePowerMethod.builder().components(1).noise(PpmNoise.SPECTRAL_GAUSSIAN)
                .symmetricPairUnit().build()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void largeGapMatrixIsRecoveredAtEpsilonOneAndLostAtTinyEpsilon() {
        // d = 64, k = 2, gap 2000 ≫ σ√d (σ ≈ 33 for p = 4, L = 10): Thm 1.3's error is O(σ√(d log L)/gap) ≈ 0.2
        int d = 64;
        Matrix q = KnownSpectrum.randomBasis(d, d, RandomSource.seededForReproducibility(5));
        Matrix a = KnownSpectrum.symmetric(q, KnownSpectrum.spectrum(d, new double[] {3000, 2500}, 500));
        Matrix u = q.leadingColumns(2);
        PrivatePowerMethod.Builder b = PrivatePowerMethod.builder().components(2).blockSize(4).iterations(10);
        double good = 0;
        double bad = 0;
        for (int t = 0; t < 5; t++) {
            PrivateSubspace s = b.randomSource(RandomSource.seededForReproducibility(10 + t)).build()
                    .release(SymmetricOperator.dense(a), BUDGET);
            good += SubspaceMetrics.sinTheta(s.components(), u) / 5;
            PrivateSubspace s2 = b.randomSource(RandomSource.seededForReproducibility(10 + t)).build()
                    .release(SymmetricOperator.dense(a), PrivacyParams.of(1e-3, 1e-6));
            bad += SubspaceMetrics.sinTheta(s2.components(), u) / 5;
        }
        assertThat(good).isLessThan(0.2);
        assertThat(bad).isGreaterThan(0.8);
    }

    @Test
    void sparseAndDenseInputsGiveTheSameReleaseForTheSameSeed() {
        int d = 40;
        CsrMatrix.Builder cb = CsrMatrix.builder(d);
        RandomSource r = RandomSource.seededForReproducibility(6);
        for (int e = 0; e < 120; e++) {
            int i = r.nextInt(d);
            int j = r.nextInt(d);
            cb.addSymmetric(i, j, 1.0);
        }
        CsrMatrix sparse = cb.build();
        Matrix dense = sparse.toDense();
        PrivatePowerMethod.Builder b = PrivatePowerMethod.builder().components(3).blockSize(5).iterations(8);
        PowerMethodResult fromSparse = b.randomSource(RandomSource.seededForReproducibility(7)).build()
                .iterate(sparse, PrivacyParams.of(5, 1e-3));
        PowerMethodResult fromDense = b.randomSource(RandomSource.seededForReproducibility(7)).build()
                .iterate(SymmetricOperator.dense(dense), PrivacyParams.of(5, 1e-3));
        assertThat(SubspaceMetrics.sinTheta(fromSparse.components(), fromDense.components())).isLessThan(1e-8);
    }

    @Test
    void fitOnBoundedRowsUsesSpectralNoiseWithBetaSquaredUnderTheRowRelation() {
        SyntheticDataset data = GaussianData.of(20, new double[] {5, 2}, 0.3).sample(20_000, 8);
        PrivateSubspace s = PrivatePowerMethod.builder().components(2).blockSize(4).iterations(8)
                .rowNeighbouring(Neighbouring.REPLACE_ROW).randomSource(RandomSource.seededForReproducibility(9)).build()
                .fit(InMemoryRows.copyOf(data.rows()).clipL2(3.0), BUDGET);
        PrivacyGuarantee g = s.guarantee().orElseThrow();
        assertThat(g.neighbouring()).isEqualTo(Neighbouring.REPLACE_ROW);
        assertThat(s.diagnostics().get("noise")).isEqualTo("SPECTRAL_GAUSSIAN");
        assertThat((Double) s.diagnostics().get("sensitivityScale")).isCloseTo(9.0, offset(1e-12));
        // n = 20000: gap σ_2 − σ_3 ≈ 20000·2 = 40000; noise entries 9σ ≈ 380, ‖G‖ ≈ 380(√20 + 2) ≈ 2500,
        // so Cor. 1.1's ‖G‖/gap ≈ 0.06 (sampling error of XᵀX/n vs Σ is of the same order)
        assertThat(SubspaceMetrics.sinTheta(s.components(), data.truthBasis())).isLessThan(0.3);
    }

    @Test
    void fitOnRowsWithoutABoundIsRefused() {
        InMemoryRows rows = InMemoryRows.of(new double[][] {{1, 0}, {0, 1}});
        assertThatThrownBy(() -> PrivatePowerMethod.builder().components(1).build().fit(rows, BUDGET))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("norm bound");
    }

    @Test
    void coherenceIsDimensionForTheStandardBasisAndOneForHadamard() {
        int d = 16;
        double[] eig = KnownSpectrum.spectrum(d, new double[] {5, 4, 3}, 1);
        Matrix diag = KnownSpectrum.symmetric(Matrix.identity(d), eig);
        assertThat(PrivatePowerMethod.coherence(diag)).isCloseTo(d, offset(1e-9));
        double[] distinct = new double[d];
        for (int i = 0; i < d; i++) {
            distinct[i] = d - i;
        }
        Matrix had = KnownSpectrum.symmetric(KnownSpectrum.hadamard(d), distinct);
        assertThat(Coherence.of(had)).isCloseTo(1.0, offset(1e-6));
        assertThat(Coherence.of(CsrMatrix.fromDense(diag))).isCloseTo(d, offset(1e-9));
    }
}
