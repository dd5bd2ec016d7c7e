package io.dpspectra.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.data.AdaptiveQuantile;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * What a release chain plans from n before it spends: the automatic share of a private bound (planned from n
 * when n is public, under replace-one; the fixed default otherwise), and the usefulness check on public facts
 * (a warning through the listener, or a refusal before any noise).
 */
class ReleasePlanningTest {
    private static final PrivacyParams BUDGET = PrivacyParams.of(1, 1e-6);

    /** n rows of d cells: a spike of scale s on column 1 (s/2 on column 2) plus N(0, 1) cells. */
    private static double[][] rows(int n, int d, double s, long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed); // test data, not privacy noise
        double[][] x = new double[n][d];
        for (double[] row : x) {
            double z1 = r.standardNormal() * s;
            double z2 = r.standardNormal() * s / 2;
            for (int j = 0; j < d; j++) {
                row[j] = r.standardNormal() + (j == 0 ? z1 : j == 1 ? z2 : 0);
            }
        }
        return x;
    }

    /** A listener that keeps what it hears. */
    private static final class Heard implements ReleaseListener {
        final List<String> warnings = new ArrayList<>();

        @Override
        public void warning(String message) {
            warnings.add(message);
        }
    }

    private static PrivatePca chain(double[][] x, RowBound bound, long seed) {
        return PrivatePca.of(InMemoryRows.of(x)).bound(bound).centre(Centring.PRIVATE).components(2)
                .algorithm("analyze-gauss").randomSource(RandomSource.seededForReproducibility(seed));
    }

    @Test
    void anAutomaticShareIsPlannedFromThePublicNAndGivesTheSameReleaseAsThatShareGiven() {
        double[][] x = rows(5000, 5, 10, 1);
        RowBound.PrivateQuantile auto = (RowBound.PrivateQuantile) RowBound.privateQuantile(0.5);
        AdaptiveQuantile.Plan expected = auto.plan(5000, 1, OptionalDouble.empty());
        BudgetPlan plan = chain(x, auto, 7).plan(BUDGET);
        // the median of 5000 rows needs little: the smallest automatic share
        assertThat(plan.bound().orElseThrow().epsilon()).isCloseTo(expected.share(), within(1e-12))
                .isCloseTo(AdaptiveQuantile.MIN_AUTO_SHARE, within(1e-12));
        PcaRelease planned = chain(x, auto, 7).fit(BUDGET);
        PcaRelease given = chain(x, RowBound.privateQuantile(0.5, expected.share()), 7).fit(BUDGET);
        assertThat(planned.components().data()).containsExactly(given.components().data());
        assertThat(planned.guarantee().parts().get(0).params().epsilon()).isCloseTo(expected.share(), within(1e-12));
    }

    @Test
    void underAddRemoveNIsNotPublicAndTheDefaultShareIsSpent() {
        double[][] x = rows(5000, 5, 10, 1);
        BudgetPlan plan = chain(x, RowBound.privateQuantile(0.5), 7).neighbouring(Neighbouring.ADD_REMOVE_ROW)
                .withoutUsefulnessCheck().plan(BUDGET);
        assertThat(plan.bound().orElseThrow().epsilon()).isCloseTo(RowBound.DEFAULT_PRIVATE_SHARE, within(1e-12));
    }

    @Test
    void rowsReadOnceAreNotCountedAndTheDefaultShareIsSpent() {
        InMemoryRows rows = InMemoryRows.of(rows(5000, 5, 10, 1));
        RowInput once = new RowInput() {
            @Override
            public StatisticSource open(RowInput.Request request) {
                return RowStatistics.of(rows, RowInput.genericNames(5));
            }

            @Override
            public boolean countable() {
                return false;
            }
        };
        BudgetPlan plan = PrivatePca.of(once).bound(RowBound.privateQuantile(0.5)).components(2).plan(BUDGET);
        assertThat(plan.bound().orElseThrow().epsilon()).isCloseTo(RowBound.DEFAULT_PRIVATE_SHARE, within(1e-12));
        assertThatThrownBy(() -> PrivatePca.of(once).bound(RowBound.privateQuantile(0.5)).components(2)
                .usefulness(Usefulness.REFUSE).plan(BUDGET)).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("Usefulness.refusing").hasMessageContaining("read once");
    }

    @Test
    void fewRowsGetALargerShareAndAQuantileTheyCannotLocateIsWarnedAbout() {
        double[][] few = rows(62, 5, 10, 2);
        Heard median = new Heard();
        BudgetPlan m = chain(few, RowBound.privateQuantile(0.5), 3).listener(median).withoutUsefulnessCheck()
                .plan(BUDGET);
        Heard high = new Heard();
        BudgetPlan h = chain(few, RowBound.privateQuantile(0.9), 3).listener(high).withoutUsefulnessCheck()
                .plan(BUDGET);
        double medianShare = m.bound().orElseThrow().epsilon();
        // more than 5000 rows get, at most what leaves half for the rest
        assertThat(medianShare).isGreaterThan(AdaptiveQuantile.MIN_AUTO_SHARE)
                .isLessThanOrEqualTo(AdaptiveQuantile.MAX_AUTO_SHARE);
        assertThat(h.bound().orElseThrow().epsilon()).isLessThanOrEqualTo(AdaptiveQuantile.MAX_AUTO_SHARE);
        // 62 rows hold 6 above the 0.9-quantile: too few at epsilon 1, and the user hears it before spending
        assertThat(AdaptiveQuantile.plan(62, 0.9, 1, RowBound.PrivateQuantile.ladder(OptionalDouble.empty()))
                .sufficient()).isFalse();
        assertThat(high.warnings).singleElement().asString().contains("62 rows are too few")
                .contains("0.9-quantile").contains("RowBound.privateQuantile");
        assertThat(median.warnings).allMatch(w -> !w.contains("too few")
                || !AdaptiveQuantile.plan(62, 0.5, 1, RowBound.PrivateQuantile.ladder(OptionalDouble.empty()))
                        .sufficient());
    }

    @Test
    void aReleasePredictedUselessIsWarnedAboutOrRefusedBeforeAnyNoise() {
        double[][] noise = rows(300, 30, 0, 4);
        Heard heard = new Heard();
        PrivacyParams small = PrivacyParams.of(0.2, 1e-6);
        PrivatePca useless = chain(noise, RowBound.privateQuantile(0.5), 5).listener(heard);
        useless.plan(small);
        // (300 rows at epsilon 0.2 are also too few for the bound's largest share: a warning of its own)
        assertThat(heard.warnings).filteredOn(w -> w.contains("useless")).singleElement().asString()
                .contains("predicted to be useless").contains("n = 300, d = 30, k = 2")
                .contains("Usefulness.refusing").contains("ReleaseAdvisor.advise");
        // refused: from plan, before any row is bounded or any noise drawn
        RandomSource never = new RandomSource() {
            @Override
            public long nextLong() {
                throw new AssertionError("noise was drawn");
            }

            @Override
            public RandomSource split() {
                throw new AssertionError("noise was drawn");
            }

            @Override
            public boolean isSeeded() {
                return true;
            }
        };
        assertThatThrownBy(() -> useless.randomSource(never).usefulness(Usefulness.REFUSE).fit(small))
                .isInstanceOf(UselessReleaseException.class).hasMessageContaining("nothing was spent");
        // a strong signal is not warned about
        Heard strong = new Heard();
        chain(rows(5000, 5, 10, 6), RowBound.privateQuantile(0.5), 5).listener(strong).plan(BUDGET);
        assertThat(strong.warnings).isEmpty();
    }
}
