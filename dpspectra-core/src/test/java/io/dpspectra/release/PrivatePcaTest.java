package io.dpspectra.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.ComposedGuarantee;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.privacy.ReleaseRefusedException;
import org.junit.jupiter.api.Test;

/**
 * The fluent releases of core: one chain makes what {@code dpspectra fit} (and {@code covariance}) makes, its
 * guarantee composes every private part to exactly the budget given, every setting is checked before a row
 * is opened, and a refusal carries the whole composition.
 */
class PrivatePcaTest {
    private static final int N = 5000;
    private static final int D = 6;
    private static final PrivacyParams BUDGET = PrivacyParams.of(1, 1e-6);

    /** The planted direction u = (1, ..., 1)/sqrt(d). */
    private static double[] planted() {
        double[] u = new double[D];
        java.util.Arrays.fill(u, 1 / Math.sqrt(D));
        return u;
    }

    /** n rows a_i u + 0.1 g_i, a_i and g_i standard normal: one strong direction, a weak isotropic rest. */
    private static double[][] spiked(long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed); // test data, not privacy noise
        double[] u = planted();
        double[][] x = new double[N][D];
        for (double[] row : x) {
            double a = r.standardNormal();
            for (int j = 0; j < D; j++) {
                row[j] = a * u[j] + 0.1 * r.standardNormal();
            }
        }
        return x;
    }

    /** A source that fails the test when the release opens it: for checks that must come first. */
    private static final RowInput NEVER_OPENED = request -> {
        throw new AssertionError("the rows were opened before every setting was checked");
    };

    private static PrivatePca fitLike(double[][] x, long seed) {
        return PrivatePca.of(InMemoryRows.of(x)).bound(RowBound.clip(4)).centre(Centring.PRIVATE)
                .components(Components.auto(0.9)).algorithm("analyze-gauss")
                .randomSource(RandomSource.seededForReproducibility(seed));
    }

    @Test
    void oneChainComposesEveryPrivatePartToExactlyTheBudget() {
        PcaRelease release = fitLike(spiked(1), 42).fit(BUDGET);

        ComposedGuarantee g = release.guarantee();
        assertThat(g.rule()).isEqualTo(ComposedGuarantee.Rule.BASIC);
        assertThat(g.parts()).extracting(PrivacyGuarantee::mechanism).satisfiesExactly(
                m -> assertThat(m).startsWith("private mean"), m -> assertThat(m).startsWith("private trace"),
                m -> assertThat(m).startsWith("AnalyzeGauss"));
        // shares 0.1 (mean) + 0.1 (trace) + 0.8 (estimator) of both epsilon and delta
        assertThat(g.parts().get(0).params().epsilon()).isCloseTo(0.1, within(1e-12));
        assertThat(g.estimator().params().epsilon()).isCloseTo(0.8, within(1e-12));
        assertThat(g.epsilon()).isCloseTo(BUDGET.epsilon(), within(1e-12));
        assertThat(g.delta()).isCloseTo(BUDGET.delta(), within(1e-18));
        // parts compose only under one relation: replace-one, since none was named and parts compose
        assertThat(g.parts()).allMatch(p -> p.neighbouring() == Neighbouring.REPLACE_ROW);
        assertThat(g.estimator()).isEqualTo(release.subspace().guarantee().orElseThrow());
        assertThat(g.describe()).contains("basic composition of 3 parts").contains("AnalyzeGauss");

        // k came from the private spectrum the estimator released over the private trace
        assertThat(release.spectrum()).isPresent();
        assertThat(release.k()).isEqualTo(release.spectrum().orElseThrow().k()).isBetween(1, D);
        assertThat(release.preprocessing().mean()).hasSize(D);
        assertThat(release.preprocessing().centring()).isEqualTo(Centring.PRIVATE);
        assertThat(release.diagnostics().asMap()).containsEntry("rows", (long) N);

        // utility: the noise on XᵀX (sigma about 85 per entry at B = 4) is far below the planted eigenvalue
        // (about n = 5000), so the first released component is the planted direction up to sin θ ≲ 0.1
        double[] v = release.components().column(0);
        double cos = 0;
        for (int j = 0; j < D; j++) {
            cos += v[j] * planted()[j];
        }
        assertThat(Math.abs(cos)).isGreaterThan(0.95);
    }

    @Test
    void theSameSeedGivesTheSameReleaseAndSettersNeverChangeAChain() {
        double[][] x = spiked(2);
        PrivatePca chain = fitLike(x, 7);
        chain.centre(Centring.NONE).components(1); // new chains; the original is unchanged
        Matrix first = chain.fit(BUDGET).components();
        Matrix again = fitLike(x, 7).fit(BUDGET).components();
        assertThat(again.data()).containsExactly(first.data());
        // a second release from the same chain draws fresh noise from its source: it never replays the first's
        assertThat(chain.fit(BUDGET).components().data()).isNotEqualTo(first.data());
        assertThat(fitLike(x, 8).fit(BUDGET).components().data()).isNotEqualTo(first.data());
    }

    @Test
    void aFixedKWithoutPrivatePreprocessingIsTheEstimatorsOwnGuarantee() {
        PcaRelease release = PrivatePca.of(InMemoryRows.of(spiked(3))).bound(RowBound.clip(4)).components(2)
                .randomSource(RandomSource.seededForReproducibility(1)).fit(BUDGET);
        assertThat(release.guarantee().rule()).isEqualTo(ComposedGuarantee.Rule.SINGLE);
        assertThat(release.guarantee().overall()).isEqualTo(release.subspace().guarantee().orElseThrow());
        assertThat(release.guarantee().epsilon()).isEqualTo(BUDGET.epsilon());
        assertThat(release.k()).isEqualTo(2);
        assertThat(release.spectrum()).isEmpty();
    }

    @Test
    void everySettingIsCheckedBeforeAnyRowIsOpened() {
        PrivatePca base = PrivatePca.of(NEVER_OPENED).bound(RowBound.clip(1));
        assertThatThrownBy(() -> base.fit(BUDGET)).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("components");
        assertThatThrownBy(() -> base.components(2).algorithm("no-such-estimator"))
                .isInstanceOf(ReleaseSettingException.class).hasMessageContaining("no-such-estimator");
        assertThatThrownBy(() -> base.components(2).fit(PrivacyParams.pure(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delta");
        assertThatThrownBy(() -> base.components(2).algorithm("exact").centre(Centring.PRIVATE).fitWithoutPrivacy())
                .isInstanceOf(ReleaseSettingException.class).hasMessageContaining("not private");
        assertThatThrownBy(() -> base.components(2).algorithm("exact").fit(BUDGET))
                .isInstanceOf(ReleaseSettingException.class).hasMessageContaining("not differentially private");
        assertThatThrownBy(() -> base.components(2).fitWithoutPrivacy())
                .isInstanceOf(ReleaseSettingException.class).hasMessageContaining("is differentially private");
        assertThatThrownBy(() -> PrivatePca.of(NEVER_OPENED).components(2).fit(BUDGET))
                .isInstanceOf(ReleaseSettingException.class).hasMessageContaining("row norm bound");
        assertThatThrownBy(() -> base.components(2).centre(Centring.PUBLIC).fit(BUDGET))
                .isInstanceOf(ReleaseSettingException.class).hasMessageContaining("schema");
    }

    @Test
    void aRefusalAfterAPrivateMeanCarriesTheWholeComposition() {
        // DP-Gauss-2's private eigengap test cannot pass at this epsilon on rows with no gap between 1 and 2
        double[][] x = new double[200][D];
        RandomSource data = RandomSource.seededForReproducibility(5);
        for (double[] row : x) {
            for (int j = 0; j < D; j++) {
                row[j] = 0.3 * data.standardNormal();
            }
        }
        PrivatePca chain = PrivatePca.of(InMemoryRows.of(x)).bound(RowBound.clip(1)).centre(Centring.PRIVATE)
                .components(1).algorithm("dp-gauss-2").neighbouring(Neighbouring.ADD_REMOVE_ROW)
                .randomSource(RandomSource.seededForReproducibility(3));
        assertThatThrownBy(() -> chain.fit(PrivacyParams.of(0.05, 1e-6)))
                .isInstanceOfSatisfying(RefusedReleaseException.class, e -> {
                    assertThat(e).isInstanceOf(ReleaseRefusedException.class);
                    assertThat(e.guarantee().parts()).hasSize(2);
                    assertThat(e.guarantee().parts().get(0).mechanism()).startsWith("private mean");
                    assertThat(e.guarantee().estimator()).isEqualTo(e.spent());
                    assertThat(e.guarantee().epsilon()).isCloseTo(0.05, within(1e-12));
                    assertThat(e.preprocessing().mean()).hasSize(D);
                });
    }

    @Test
    void theSecondMomentComposesThePrivateMeanAndTheMechanism() {
        CovarianceRelease release = PrivateSecondMoment.of(InMemoryRows.of(spiked(4))).bound(RowBound.clip(4))
                .centre(Centring.PRIVATE).algorithm("laplace").randomSource(RandomSource.seededForReproducibility(9))
                .fit(PrivacyParams.pure(2));
        ComposedGuarantee g = release.guarantee();
        assertThat(g.parts()).hasSize(2);
        assertThat(g.epsilon()).isCloseTo(2, within(1e-12));
        assertThat(g.delta()).isZero();
        assertThat(g.estimator()).isEqualTo(release.covariance().guarantee());
        Matrix m = release.covariance().matrix();
        assertThat(m.rows()).isEqualTo(D);
        assertThat(m.cols()).isEqualTo(D);
        assertThat(release.preprocessing().features()).hasSize(D);
    }
}
