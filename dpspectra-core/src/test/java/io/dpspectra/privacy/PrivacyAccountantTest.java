package io.dpspectra.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PrivacyAccountantTest {
    @Test
    void basicCompositionSumsEpsilonsAndDeltas() {
        PrivacyParams c = PrivacyAccountant.basicComposition(List.of(PrivacyParams.of(0.5, 1e-6),
                PrivacyParams.of(0.25, 2e-6), PrivacyParams.pure(0.125)));
        assertThat(c.epsilon()).isEqualTo(0.875);
        assertThat(c.delta()).isCloseTo(3e-6, within(1e-21));
    }

    @Test
    void advancedCompositionMatchesDworkRothbulmVadhanByHand() {
        // k = 100 runs of (0.1, 1e−6), δ' = 1e−5:
        // ε' = √(200·ln 1e5)·0.1 + 100·0.1·(e^0.1 − 1) = √2302.585093·0.1 + 10·0.1051709181
        //    = 4.798526...·1 + 1.051709181 = 5.850235...
        PrivacyParams c = PrivacyAccountant.advancedComposition(PrivacyParams.of(0.1, 1e-6), 100, 1e-5);
        assertThat(c.epsilon()).isCloseTo(4.79852591 + 1.05170918, within(1e-7));
        assertThat(c.delta()).isCloseTo(1.1e-4, within(1e-18));
    }

    @Test
    void advancedCompositionBeatsBasicForManySmallRunsButNotForFew() {
        PrivacyParams each = PrivacyParams.of(0.01, 0);
        assertThat(PrivacyAccountant.advancedComposition(each, 10_000, 1e-6).epsilon()).isLessThan(10_000 * 0.01 / 10); // ≈ 6.3 vs basic 100
        assertThat(PrivacyAccountant.advancedComposition(each, 2, 1e-6).epsilon()).isGreaterThan(0.02);
    }

    @Test
    void spendAdvancedChargesTheCheaperOfAdvancedAndBasic() {
        PrivacyAccountant a = PrivacyAccountant.total(PrivacyParams.of(10, 1e-3));
        PrivacyParams few = a.spendAdvanced("two runs", PrivacyParams.of(0.1, 1e-6), 2, 1e-5);
        assertThat(few.epsilon()).isCloseTo(0.2, within(1e-15)); // basic: 2·0.1 < advanced ≈ 0.69
        PrivacyParams many = a.spendAdvanced("many runs", PrivacyParams.of(0.01, 0), 10_000, 1e-6);
        assertThat(many).isEqualTo(PrivacyAccountant.advancedComposition(PrivacyParams.of(0.01, 0), 10_000, 1e-6));
        assertThat(a.spentEpsilon()).isCloseTo(0.2 + many.epsilon(), within(1e-12));
        assertThat(a.ledger()).hasSize(2);
    }

    @Test
    void parallelCompositionChargesTheMaximum() {
        List<PrivacyParams> parts = List.of(PrivacyParams.of(0.3, 1e-7), PrivacyParams.of(0.5, 1e-8),
                PrivacyParams.of(0.2, 1e-6));
        assertThat(PrivacyAccountant.parallelComposition(parts)).isEqualTo(PrivacyParams.of(0.5, 1e-6));
        PrivacyAccountant a = PrivacyAccountant.total(PrivacyParams.of(1, 1e-5));
        a.spendParallel("per-shard means", parts);
        assertThat(a.spentEpsilon()).isEqualTo(0.5);
        assertThat(a.spentDelta()).isEqualTo(1e-6);
    }

    @Test
    void overspendIsRefusedNamingRequestedSpentRemainingAndRemedyAndRecordsNothing() {
        PrivacyAccountant a = PrivacyAccountant.total(PrivacyParams.of(1, 1e-6));
        a.spend("first", PrivacyParams.of(0.75, 5e-7));
        assertThatThrownBy(() -> a.spend("second", PrivacyParams.of(0.5, 1e-7)))
                .isInstanceOf(BudgetExceededException.class)
                .hasMessageContaining("second requests (ε=0.5, δ=1.0E-7)")
                .hasMessageContaining("(ε=0.75, δ=5.0E-7) of the total (ε=1.0, δ=1.0E-6) is already spent")
                .hasMessageContaining("leaving (ε=0.25")
                .hasMessageContaining("lower the request")
                .satisfies(e -> {
                    BudgetExceededException b = (BudgetExceededException) e;
                    assertThat(b.requested()).isEqualTo(PrivacyParams.of(0.5, 1e-7));
                    assertThat(b.spent()).isEqualTo(PrivacyParams.of(0.75, 5e-7));
                    assertThat(b.remaining().epsilon()).isCloseTo(0.25, within(1e-15));
                });
        assertThat(a.ledger()).hasSize(1);
        assertThat(a.spentEpsilon()).isEqualTo(0.75);
    }

    @Test
    void deltaOverspendIsRefusedEvenWhenEpsilonFits() {
        PrivacyAccountant a = PrivacyAccountant.total(PrivacyParams.pure(1));
        assertThatThrownBy(() -> a.spend("gaussian", PrivacyParams.of(0.1, 1e-9)))
                .isInstanceOf(BudgetExceededException.class);
        assertThat(a.canSpend(PrivacyParams.pure(1))).isTrue();
    }

    @Test
    void tenSpendsOfOneTenthExhaustABudgetOfOneDespiteRounding() {
        PrivacyAccountant a = PrivacyAccountant.total(PrivacyParams.pure(1));
        for (int i = 0; i < 10; i++) {
            a.spend("slice " + i, PrivacyParams.pure(0.1));
        }
        assertThat(a.remaining()).isEmpty();
        assertThatThrownBy(() -> a.spend(PrivacyParams.pure(1e-3))).isInstanceOf(BudgetExceededException.class);
    }

    @Test
    void plannedChargeIsAllOrNothing() {
        PrivacyAccountant a = PrivacyAccountant.total(PrivacyParams.of(1, 1e-6));
        List<PrivacyAccountant.Entry> tooMuch = List.of(
                new PrivacyAccountant.Entry("eigenvalues", PrivacyParams.of(0.4, 0)),
                new PrivacyAccountant.Entry("eigenvectors", PrivacyParams.of(0.7, 1e-7)));
        assertThatThrownBy(() -> a.chargePlan(tooMuch)).isInstanceOf(BudgetExceededException.class)
                .hasMessageContaining("2 planned releases requests (ε=1.1");
        assertThat(a.ledger()).isEmpty();
        assertThat(a.spentEpsilon()).isZero();
        PrivacyParams charged = a.chargePlan(List.of(
                new PrivacyAccountant.Entry("eigenvalues", PrivacyParams.of(0.4, 0)),
                new PrivacyAccountant.Entry("eigenvectors", PrivacyParams.of(0.6, 1e-7))));
        assertThat(charged.epsilon()).isCloseTo(1.0, within(1e-15));
        assertThat(a.ledger()).extracting(PrivacyAccountant.Entry::purpose)
                .containsExactly("eigenvalues", "eigenvectors");
    }

    @Test
    void concurrentSpendsNeverExceedTheTotal() throws Exception {
        PrivacyAccountant a = PrivacyAccountant.total(PrivacyParams.pure(1));
        AtomicInteger granted = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 100; i++) {
                        try {
                            a.spend(PrivacyParams.pure(1.0 / 128));
                            granted.incrementAndGet();
                        } catch (BudgetExceededException e) {
                            refused.incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        // 1/128 is exact in binary, so exactly 128 of the 400 requests fit
        assertThat(granted.get()).isEqualTo(128);
        assertThat(refused.get()).isEqualTo(272);
        assertThat(a.ledger()).hasSize(128);
        assertThat(a.spentEpsilon()).isEqualTo(1.0);
    }

    @Test
    void advancedCompositionRejectsZeroDeltaPrime() {
        assertThatThrownBy(() -> PrivacyAccountant.advancedComposition(PrivacyParams.pure(0.1), 10, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("deltaPrime")
                .hasMessageContaining("got 0");
    }

    @Test
    void advancedCompositionRejectsZeroRuns() {
        assertThatThrownBy(() -> PrivacyAccountant.advancedComposition(PrivacyParams.pure(0.1), 0, 1e-6))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k (number of composed runs)")
                .hasMessageContaining("got 0");
    }

    @Test
    void emptyParallelCompositionIsRejected() {
        assertThatThrownBy(() -> PrivacyAccountant.parallelComposition(List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one");
    }

    @Test
    void pldAccountingAdmitsPureReleasesBeyondBasicCompositionButNeverPastTheTotal() {
        // ε = 0.02 releases: basic composition stops at 50 (ε = 1); composed as randomized responses (optimal
        // composition of pure DP, Kairouz et al. 2015) about 85 of them are (1, 1e-6)-DP
        PrivacyParams total = PrivacyParams.of(1.0, 1e-6);
        PrivacyAccountant a = PrivacyAccountant.pld(total);
        int n = 0;
        while (n < 200) {
            try {
                a.spend("pure " + n, PrivacyParams.pure(0.02), new PrivacyProfile.Pure(0.02));
                n++;
            } catch (BudgetExceededException e) {
                assertThat(e.getMessage()).contains("PLD accounting").contains(n + " releases already charged");
                break;
            }
        }
        assertThat(n).isGreaterThan(60).isLessThan(200);
        assertThat(a.composedSpend().epsilon()).isLessThanOrEqualTo(1.0);
        assertThat(a.composedSpend().delta()).isEqualTo(1e-6);
        assertThat(io.dpspectra.privacy.pld.ProfileAccounting.deltaForEpsilon(a.spentProfile(), 1.0, 1e-4))
                .isLessThanOrEqualTo(1e-6);
        assertThat(io.dpspectra.privacy.pld.ProfileAccounting.deltaForEpsilon(
                PrivacyProfile.compose(a.spentProfile(), new PrivacyProfile.Pure(0.02)), 1.0, 1e-4)).isGreaterThan(1e-6);
    }

    @Test
    void pldAccountingChargesAPlanAsAWholeAndNeedsAPositiveDelta() {
        PrivacyAccountant a = PrivacyAccountant.pld(PrivacyParams.of(1.0, 1e-6));
        PrivacyProfile g = PrivacyProfile.gaussianCalibratedTo(PrivacyParams.of(0.25, 1e-8));
        List<PrivacyAccountant.Entry> plan = new java.util.ArrayList<>();
        for (int i = 0; i < 21; i++) {
            plan.add(new PrivacyAccountant.Entry("step " + i, PrivacyParams.of(0.25, 1e-8), g));
        }
        assertThatThrownBy(() -> a.chargePlan(plan)).isInstanceOf(BudgetExceededException.class);
        assertThat(a.ledger()).isEmpty();
        a.chargePlan(plan.subList(0, 20));
        assertThat(a.ledger()).hasSize(20);
        assertThat(a.remaining()).isPresent();
        assertThatThrownBy(() -> PrivacyAccountant.pld(PrivacyParams.pure(1))).hasMessageContaining("delta > 0");
    }
}
