package io.dpspectra.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.covariance.LaplaceCovariance;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyAccountant;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;
import io.dpspectra.result.PrivateSubspace;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one table of names: its facts, its checks in the caller's words, and that it only translates. */
class AlgorithmsTest {
    private static final PrivacyParams BUDGET = PrivacyParams.of(1, 1e-6);

    private static ClippedRows rows() {
        RandomSource r = RandomSource.seededForReproducibility(11);
        double[][] x = new double[200][4];
        for (double[] row : x) {
            for (int j = 0; j < row.length; j++) {
                row[j] = r.standardNormal() * (j + 1);
            }
        }
        return InMemoryRows.of(x).clipL2(10);
    }

    @Test
    void namesAreUniqueAndThePrivateOnesExcludeTheReferences() {
        List<String> all = Algorithms.pca().stream().map(PcaAlgorithm::name).toList();
        assertThat(new HashSet<>(all)).hasSameSizeAs(all);
        assertThat(Algorithms.privatePcaNames()).contains("analyze-gauss", "k-dp-ojas", "it-u", "dp-smd-reap")
                .doesNotContain("exact", "oja", "streaming-power", "noisy-power", "ggd", "sggd");
        assertThat(Algorithms.covarianceNames()).containsExactly("it-u", "ad", "kt", "laplace", "gaussian");
        assertThat(Algorithms.findPca("Analyze-Gauss")).map(PcaAlgorithm::name).contains("analyze-gauss");
    }

    @Test
    void factsFollowTheOptions() {
        PcaAlgorithm gauss = Algorithms.pca("analyze-gauss", Vocabulary.JAVA);
        assertThat(gauss.needsDelta()).isTrue();
        assertThat(gauss.noise()).isEqualTo(NoiseKind.GAUSSIAN);
        assertThat(gauss.readsOnce()).isTrue();
        assertThat(gauss.releasesSpectrum(PcaOptions.defaults())).isTrue();

        PcaAlgorithm power = Algorithms.pca("private-power", Vocabulary.JAVA);
        assertThat(power.passes(PcaOptions.defaults())).isEqualTo(20);
        assertThat(power.passes(PcaOptions.builder().iterations(7).build())).isEqualTo(7);
        assertThat(power.formsDxD()).isFalse();
        // Gaussian products composed exactly to (epsilon, delta); NoiseKind maps delta = 0 (Laplace) to pure
        assertThat(power.noise()).isEqualTo(NoiseKind.GAUSSIAN);

        PcaAlgorithm itu = Algorithms.pca("it-u", Vocabulary.JAVA);
        assertThat(itu.releasesSpectrum(PcaOptions.defaults())).isFalse();
        assertThat(itu.releasesSpectrum(PcaOptions.builder().eigenvalues(true).build())).isTrue();
        assertThat(Algorithms.pca("ad", Vocabulary.JAVA).releasesSpectrum(PcaOptions.defaults())).isTrue();
        PcaAlgorithm ojas = Algorithms.pca("k-dp-ojas", Vocabulary.JAVA);
        assertThat(ojas.noise(PcaOptions.defaults())).isEqualTo(NoiseKind.GAUSSIAN);
        assertThat(ojas.noise(PcaOptions.builder().paperLiteral(true).build())).isEqualTo(NoiseKind.OTHER);
        PcaAlgorithm ggd = Algorithms.pca("dp-ggd", Vocabulary.JAVA);
        assertThat(ggd.noise(PcaOptions.defaults())).isEqualTo(NoiseKind.GAUSSIAN);
        assertThat(ggd.noise(PcaOptions.builder().paperLiteral(true).build())).isEqualTo(NoiseKind.OTHER);
        assertThat(Algorithms.pca("dp-sggd", Vocabulary.JAVA).noise(PcaOptions.defaults())).isEqualTo(NoiseKind.OTHER);
        assertThat(Algorithms.pca("dp-gd-reap", Vocabulary.JAVA).noise(PcaOptions.defaults()))
                .isEqualTo(NoiseKind.GAUSSIAN);
        assertThat(Algorithms.pca("dp-sgd-reap", Vocabulary.JAVA).noise(PcaOptions.defaults()))
                .isEqualTo(NoiseKind.OTHER);
    }

    @Test
    void anOptionTheAlgorithmDoesNotReadIsRefusedInTheCallersWords() {
        PcaOptions tau = PcaOptions.builder().tau(0.05).build();
        assertThatThrownBy(() -> Algorithms.pca("analyze-gauss", Vocabulary.JAVA).check(tau, Vocabulary.JAVA))
                .isInstanceOf(ReleaseSettingException.class)
                .hasMessage("tau does not apply to algorithm(analyze-gauss)")
                .extracting(e -> ((ReleaseSettingException) e).hint())
                .isEqualTo("drop tau, or choose an algorithm it applies to: k-dp-pca");
        // the robust methods borrow --iterations, but the hint lists the family that declares it
        PcaOptions iterations = PcaOptions.builder().iterations(3).build();
        assertThatThrownBy(() -> Algorithms.pca("exact", Vocabulary.JAVA).check(iterations, Vocabulary.JAVA))
                .extracting(e -> ((ReleaseSettingException) e).hint())
                .isEqualTo("drop iterations, or choose an algorithm it applies to: private-power, streaming-power, "
                        + "noisy-power");
        Algorithms.pca("dp-ggd", Vocabulary.JAVA).check(iterations, Vocabulary.JAVA);
    }

    @Test
    void badValuesAreNamedAsTheCallerGaveThem() {
        PcaAlgorithm kdp = Algorithms.pca("k-dp-pca", Vocabulary.JAVA);
        assertThatThrownBy(() -> kdp.check(PcaOptions.builder().tau(2).build(), Vocabulary.JAVA))
                .hasMessage("tau must be in (0, 1), got 2.0");
        assertThatThrownBy(() -> kdp.check(PcaOptions.builder().batchSize(2).build(), Vocabulary.JAVA))
                .hasMessage("batchSize must be >= 4, got 2");
        assertThatThrownBy(() -> StepSchedule.inverseTime(-1, 1)).hasMessageContaining("must be > 0");
    }

    @Test
    void relationsAnAlgorithmIsNotCertifiedUnderAreRefusedBeforeAnyData() {
        assertThatThrownBy(() -> Algorithms.pca("k-dp-ojas", Vocabulary.JAVA)
                .checkRelation(Neighbouring.ADD_REMOVE_ROW, PcaOptions.defaults(), Vocabulary.JAVA))
                .hasMessageContaining("certified for neighbouring(replace) only");
        assertThatThrownBy(() -> Algorithms.pca("dp-gauss-2", Vocabulary.JAVA)
                .checkRelation(Neighbouring.REPLACE_ROW, PcaOptions.defaults(), Vocabulary.JAVA))
                .hasMessageContaining("add/remove one row only");
        assertThatThrownBy(() -> Algorithms.covariance("ad", Vocabulary.JAVA)
                .checkRelation(Neighbouring.ADD_REMOVE_ROW, Vocabulary.JAVA))
                .hasMessageContaining("replace neighbouring only");
        Algorithms.pca("k-dp-pca", Vocabulary.JAVA).checkRelation(Neighbouring.ADD_REMOVE_ROW,
                PcaOptions.builder().paperLiteral(true).build(), Vocabulary.JAVA);
        assertThatThrownBy(() -> Algorithms.covariance("nope", Vocabulary.JAVA))
                .hasMessage("unknown algorithm 'nope'");
        assertThatThrownBy(() -> Algorithms.covariance("laplace", Vocabulary.JAVA).checkSkipLastVector(true,
                Vocabulary.JAVA)).hasMessage("skipLastVector does not apply to algorithm(laplace)");
    }

    @Test
    void theTableOnlyTranslatesTheSameSeedGivesTheCoreBuildersRelease() {
        ClippedRows rows = rows();
        PcaAlgorithm gauss = Algorithms.pca("analyze-gauss", Vocabulary.JAVA);
        PrivateSubspace viaTable = gauss.fit(new PcaAlgorithm.Input(rows, () -> 200, 2, BUDGET, null,
                RandomSource.seededForReproducibility(5), w -> { }, null), PcaOptions.defaults(), Vocabulary.JAVA);
        PrivateSubspace direct = AnalyzeGauss.builder().components(2)
                .randomSource(RandomSource.seededForReproducibility(5)).build().fit(rows, BUDGET);
        assertThat(viaTable.components().data()).containsExactly(direct.components().data());
        assertThat(viaTable.guarantee()).isEqualTo(direct.guarantee());

        PrivateCovariance cov = Algorithms.covariance("laplace", Vocabulary.JAVA)
                .estimator(null, RandomSource.seededForReproducibility(5), false).release(rows, BUDGET);
        PrivateCovariance cov2 = LaplaceCovariance.builder().randomSource(RandomSource.seededForReproducibility(5))
                .build().release(rows, BUDGET);
        assertThat(cov.matrix().data()).containsExactly(cov2.matrix().data());
    }

    @Test
    void theZcdpCostOfAPartFollowsHowItSpends() {
        PrivacyParams p = PrivacyParams.of(0.5, 1e-6);
        assertThat(NoiseKind.PURE.rho(p)).isEqualTo(PrivacyAccountant.pureRho(0.5));
        assertThat(NoiseKind.GAUSSIAN.rho(PrivacyParams.pure(0.5))).isEqualTo(PrivacyAccountant.pureRho(0.5));
        assertThat(NoiseKind.GAUSSIAN.rho(p)).isPositive().isFinite();
        assertThat(NoiseKind.OTHER.rho(p)).isNaN();
        assertThat(NoiseKind.OTHER.rho(null)).isZero();
    }
}
