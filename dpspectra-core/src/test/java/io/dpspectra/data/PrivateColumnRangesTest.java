package io.dpspectra.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.audit.PrivacyAuditor;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import org.junit.jupiter.api.Test;

class PrivateColumnRangesTest {
    /** n rows: column 0 a year in [1990, 2020], column 1 normal(50, 10), column 2 zero in 97% of the rows. */
    private static RowSource table(int n, long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        double[][] x = new double[n][3];
        for (int i = 0; i < n; i++) {
            x[i][0] = 1990 + Math.floor(31 * r.nextDouble());
            x[i][1] = 50 + 10 * r.standardNormal();
            x[i][2] = r.nextDouble() < 0.97 ? 0 : 1000 * r.nextDouble();
        }
        return InMemoryRows.of(x);
    }

    @Test
    void aColumnsSpreadIsFoundWhateverItsOffsetAndAMostlyConstantColumnIsRefused() {
        PrivateColumnRanges.Plan plan = PrivateColumnRanges.plan(100_000, 3, 2, 0.05);
        assertThat(plan.feasible()).isTrue();
        assertThat(plan.quantile()).isEqualTo(0.05);
        PrivateColumnRanges.Draft draft = PrivateColumnRanges.using(RandomSource.seededForReproducibility(3))
                .fit(table(100_000, 1), plan, Neighbouring.REPLACE_ROW);
        // the year: 5% and 95% quantiles 1991 and 2018; a cell is 9% of |x - median|, which is small
        assertThat(draft.lo()[0]).isBetween(1985.0, 1995.0);
        assertThat(draft.hi()[0]).isBetween(2013.0, 2025.0);
        // normal(50, 10): quantiles 33.6 and 66.4, and the normal-equivalent scale about 10
        assertThat(draft.lo()[1]).isBetween(30.0, 37.0);
        assertThat(draft.hi()[1]).isBetween(63.0, 70.0);
        assertThat(draft.scale(1)).isBetween(8.5, 11.5);
        // 97% zeros: both quantiles of x - median are 0, a degenerate range, named with the share
        assertThat(draft.problems()).hasSize(1);
        assertThat(draft.problems().get(0).column()).isEqualTo(2);
        assertThat(draft.problems().get(0).why()).contains("degenerate").contains("0.9");
        assertThat(draft.guarantee().epsilon()).isCloseTo(2, org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void thePlanRaisesTheQuantileOrRefusesBeforeSpendingFromPublicNumbersAlone() {
        PrivateColumnRanges.Plan raised = PrivateColumnRanges.plan(20_000, 6, 1, 0.01);
        assertThat(raised.feasible()).isTrue();
        assertThat(raised.quantile()).isGreaterThan(0.01).isLessThan(PrivateColumnRanges.MAX_QUANTILE);
        assertThat(raised.why()).contains("drafted instead");
        PrivateColumnRanges.Plan refused = PrivateColumnRanges.plan(178, 13, 1, 0.01);
        assertThat(refused.feasible()).isFalse();
        assertThat(refused.why()).contains("needs epsilon >=");
        assertThatThrownBy(() -> PrivateColumnRanges.using(RandomSource.seededForReproducibility(1))
                .fit(table(178, 2), refused, Neighbouring.REPLACE_ROW)).hasMessageContaining("cannot work");
    }

    /**
     * The audit: one column of 40 values, 20 at 1.5 and 20 at 3, so the median's rank 20 sits on the boundary of
     * the octaves (1, 2] and (2, 4]; D' moves one 1.5 to 3, which moves the median's utilities by the sensitivity.
     * The claim is ε = 3 (three quantiles at 1 each). The statistic is the drafted median (the drafted max is nearly the same on both: the spread step measures from
     * the median it was given); a short public ladder (±0.25 … ±8) keeps the 200,000 runs fast. A twin
     * calibrated to a tenth of a row (a median step alone losing about 7.5) is caught.
     */
    @Test
    void holdsItsClaimAndItsTenthSensitivityTwinIsCaught() {
        PrivacyAuditor.Result ok = audit(1, 61);
        assertThat(ok.violation()).as("%s", ok).isFalse();
        assertThat(ok.epsilonLowerBound()).isGreaterThan(0.1);
        PrivacyAuditor.Result broken = audit(0.1, 62);
        assertThat(broken.violation()).as("%s", broken).isTrue();
    }

    private static PrivacyAuditor.Result audit(double sensitivityRows, long seed) {
        double[][] d = new double[40][1];
        double[][] dPrime = new double[40][1];
        for (int i = 0; i < 40; i++) {
            d[i][0] = i < 20 ? 1.5 : 3;
            dPrime[i][0] = i < 19 ? 1.5 : 3;
        }
        // a plan made by hand (the public planner would refuse 40 rows): 3 quantiles at 1 each, 3 in all
        PrivateColumnRanges.Plan plan = new PrivateColumnRanges.Plan(0.25, PrivacyParams.pure(1.0), true, null);
        PrivacyParams claimed = PrivacyParams.pure(3.0);
        AdaptiveQuantile.Ladder ladder = AdaptiveQuantile.Ladder.signed(0.25, 8);
        PrivacyAuditor auditor = PrivacyAuditor.builder().trials(100_000).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build();
        RowSource a = InMemoryRows.of(d);
        RowSource b = InMemoryRows.of(dPrime);
        return auditor.audit(
                r -> PrivateColumnRanges.using(r).ladderForTests(ladder).sensitivityForAuditTests(sensitivityRows).fit(a, plan,
                        Neighbouring.REPLACE_ROW).median()[0],
                r -> PrivateColumnRanges.using(r).ladderForTests(ladder).sensitivityForAuditTests(sensitivityRows).fit(b, plan,
                        Neighbouring.REPLACE_ROW).median()[0], claimed);
    }
}
