package io.dpspectra.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BudgetLedgerTest {
    @TempDir
    Path dir;

    @Test
    void chargesUntilTheTotalAndRefusesTheOverspendWithoutRecordingIt() throws Exception {
        Path f = dir.resolve("budget.ledger");
        BudgetLedger.init(f, PrivacyParams.of(1.0, 1e-6));
        BudgetLedger.charge(f, "first", PrivacyParams.of(0.6, 5e-7));
        String before = Files.readString(f);
        assertThatThrownBy(() -> BudgetLedger.charge(f, "second", PrivacyParams.of(0.5, 0)))
                .isInstanceOf(BudgetExceededException.class)
                .hasMessageContaining("leaving (ε=0.4, δ=5.0E-7)");
        assertThat(Files.readString(f)).isEqualTo(before);
        BudgetLedger.State s = BudgetLedger.charge(f, "third", PrivacyParams.of(0.4, 0));
        assertThat(s.spends()).extracting(BudgetLedger.Spend::purpose).containsExactly("first", "third");
        assertThat(BudgetLedger.read(f).spentEpsilon()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-12));
        assertThatThrownBy(() -> BudgetLedger.init(f, PrivacyParams.pure(5))).hasMessageContaining("already exists");
    }

    @Test
    void concurrentChargesNeverJointlyExceedTheTotal() throws Exception {
        Path f = dir.resolve("c.ledger");
        BudgetLedger.init(f, PrivacyParams.pure(1.0));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            int id = i;
            results.add(pool.submit(() -> {
                try {
                    BudgetLedger.charge(f, "release " + id, PrivacyParams.pure(0.1));
                    return true;
                } catch (BudgetExceededException e) {
                    return false;
                }
            }));
        }
        int accepted = 0;
        for (Future<Boolean> r : results) {
            accepted += r.get() ? 1 : 0;
        }
        pool.shutdown();
        assertThat(accepted).isEqualTo(10);
        assertThat(BudgetLedger.read(f).spends()).hasSize(10);
    }

    @Test
    void aZcdpLedgerAdmitsGaussianReleasesThatBasicCompositionRefusesAndStopsWhenRhoIsSpent() throws Exception {
        PrivacyParams total = PrivacyParams.of(1.0, 1e-6);
        PrivacyParams each = PrivacyParams.of(0.3, 1e-8);
        double rho = io.dpspectra.noise.GaussianNoise.zcdpRho(each);
        Path basic = dir.resolve("basic.ledger");
        Path zcdp = dir.resolve("zcdp.ledger");
        BudgetLedger.init(basic, total);
        BudgetLedger.init(zcdp, total, PrivacyAccountant.Accounting.ZCDP);
        int basicAdmitted = admitted(basic, each, rho);
        int zcdpAdmitted = admitted(zcdp, each, rho);
        // basic: floor(1.0 / 0.3) = 3; zCDP: floor(rho_total / rho) with rho_total = (sqrt(1 + L) - sqrt(L))^2
        assertThat(basicAdmitted).isEqualTo(3);
        double rhoTotal = ComposedGaussian.zcdpRho(total);
        assertThat(zcdpAdmitted).isEqualTo((int) Math.floor(rhoTotal / rho)).isGreaterThan(basicAdmitted);
        BudgetLedger.State s = BudgetLedger.read(zcdp);
        assertThat(s.accounting()).isEqualTo(PrivacyAccountant.Accounting.ZCDP);
        assertThat(s.spentRho()).isLessThanOrEqualTo(rhoTotal);
        // the composed zCDP spend converts back within the total (epsilon, delta)
        assertThat(ComposedGaussian.zcdpEpsilon(s.spentRho(), total.delta())).isLessThanOrEqualTo(total.epsilon());
        // the refusal says what remains, in rho
        assertThatThrownBy(() -> BudgetLedger.charge(zcdp, "one more", each, rho))
                .isInstanceOf(BudgetExceededException.class).hasMessageContaining("leaving rho=");
        // a spend with no zCDP cost is refused by a zCDP ledger, whatever remains
        Path fresh = dir.resolve("fresh.ledger");
        BudgetLedger.init(fresh, total, PrivacyAccountant.Accounting.ZCDP);
        assertThatThrownBy(() -> BudgetLedger.charge(fresh, "subsampled", PrivacyParams.of(0.1, 1e-8), Double.NaN))
                .isInstanceOf(BudgetExceededException.class).hasMessageContaining("no zCDP cost");
        // pure epsilon costs epsilon^2/2
        BudgetLedger.charge(fresh, "pure", PrivacyParams.pure(0.1));
        assertThat(BudgetLedger.read(fresh).spentRho()).isCloseTo(0.005, org.assertj.core.data.Offset.offset(1e-15));
    }

    private static int admitted(Path ledger, PrivacyParams each, double rho) {
        int n = 0;
        while (n < 100) {
            try {
                BudgetLedger.charge(ledger, "gaussian release " + n, each, rho);
                n++;
            } catch (BudgetExceededException e) {
                return n;
            }
        }
        return n;
    }

    @Test
    void aVersionOneLedgerStillLoadsAsBasicAndIsRewrittenAsVersionTwoOnTheNextCharge() throws Exception {
        Path f = dir.resolve("old.ledger");
        Files.writeString(f, "dpspectra-ledger 1\n# comment\ntotal epsilon=1.0 delta=1.0E-6\n"
                + "spend epsilon=0.5 delta=0.0 at=2026-11-23T21:00:00Z purpose=fit --algorithm it-u on a.csv\n"
                + "spend epsilon=0.2 delta=1.0E-7 at=2026-11-23T21:01:00Z purpose=fit --algorithm analyze-gauss on a.csv\n");
        BudgetLedger.State s = BudgetLedger.read(f);
        assertThat(s.accounting()).isEqualTo(PrivacyAccountant.Accounting.BASIC);
        assertThat(s.spends()).extracting(BudgetLedger.Spend::purpose)
                .containsExactly("fit --algorithm it-u on a.csv", "fit --algorithm analyze-gauss on a.csv");
        assertThat(s.spends().get(0).rho()).isEqualTo(0.125);
        assertThat(s.spends().get(1).hasRho()).isFalse();
        assertThatThrownBy(() -> BudgetLedger.charge(f, "too much", PrivacyParams.pure(0.4)))
                .hasMessageContaining("leaving (ε=0.3, δ=9.0E-7)");
        BudgetLedger.charge(f, "third", PrivacyParams.pure(0.3));
        assertThat(Files.readString(f)).startsWith("dpspectra-ledger 2\n").contains("accounting=basic")
                .contains("rho=none");
        assertThat(BudgetLedger.read(f).spends()).hasSize(3);
    }
}
