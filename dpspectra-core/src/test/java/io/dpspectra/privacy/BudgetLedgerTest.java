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
    void aVersionOneLedgerStillLoadsAsBasicAndIsRewrittenAsVersionThreeOnTheNextCharge() throws Exception {
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
        assertThat(Files.readString(f)).startsWith("dpspectra-ledger 3\n").contains("accounting=basic")
                .contains("rho=none").contains("profile=point(epsilon=0.2,delta=1.0E-7)");
        assertThat(BudgetLedger.read(f).spends()).hasSize(3);
    }

    @Test
    void aVersionTwoZcdpLedgerKeepsItsAccountingAndRecordsProfilesFromNowOn() throws Exception {
        Path f = dir.resolve("v2.ledger");
        PrivacyParams each = PrivacyParams.of(0.25, 1e-8);
        double rho = io.dpspectra.noise.GaussianNoise.zcdpRho(each);
        Files.writeString(f, "dpspectra-ledger 2\ntotal epsilon=1.0 delta=1.0E-6 accounting=zcdp\n"
                + "spend epsilon=0.25 delta=1.0E-8 rho=" + rho + " at=2026-11-23T21:00:00Z purpose=fit on a.csv\n");
        BudgetLedger.State s = BudgetLedger.read(f);
        assertThat(s.accounting()).isEqualTo(PrivacyAccountant.Accounting.ZCDP);
        assertThat(s.spends().get(0).profile()).isEqualTo(new PrivacyProfile.Point(0.25, 1e-8));
        // zCDP admits 12 in all (11 more), as before
        assertThat(admitted(f, each, rho)).isEqualTo(11);
        assertThat(Files.readString(f)).startsWith("dpspectra-ledger 3\n").contains("accounting=zcdp");
    }

    /** The yardstick: analyze-gauss releases of (0.25, 1e-8) from a (1, 1e-6) ledger. */
    @Test
    void aPldLedgerAdmitsTwentyGaussianReleasesWhereZcdpAdmitsTwelveAndBasicFour() throws Exception {
        PrivacyParams total = PrivacyParams.of(1.0, 1e-6);
        PrivacyParams each = PrivacyParams.of(0.25, 1e-8);
        double rho = io.dpspectra.noise.GaussianNoise.zcdpRho(each);
        PrivacyProfile profile = PrivacyProfile.gaussianCalibratedTo(each);
        int[] admitted = new int[3];
        PrivacyAccountant.Accounting[] kinds = PrivacyAccountant.Accounting.values();
        for (int i = 0; i < kinds.length; i++) {
            Path f = dir.resolve(kinds[i] + ".ledger");
            BudgetLedger.init(f, total, kinds[i]);
            int n = 0;
            while (n < 100) {
                try {
                    BudgetLedger.charge(f, "analyze-gauss " + n, each, rho, profile);
                    n++;
                } catch (BudgetExceededException e) {
                    break;
                }
            }
            admitted[i] = n;
        }
        assertThat(admitted).containsExactly(4, 12, 20);
        // 20 compose to at most the total by the exact GDP curve; 21 would not
        double mu = profile.gaussianMu();
        assertThat(io.dpspectra.privacy.pld.GaussianPrivacy.delta(mu * Math.sqrt(20), 1.0)).isLessThanOrEqualTo(1e-6);
        assertThat(io.dpspectra.privacy.pld.GaussianPrivacy.delta(mu * Math.sqrt(21), 1.0)).isGreaterThan(1e-6);
        Path pld = dir.resolve("PLD.ledger");
        String before = Files.readString(pld);
        assertThatThrownBy(() -> BudgetLedger.charge(pld, "one more", each, rho, profile))
                .isInstanceOf(BudgetExceededException.class).hasMessageContaining("PLD accounting")
                .hasMessageContaining("one more Gaussian release of mu =");
        assertThat(Files.readString(pld)).isEqualTo(before);
        BudgetLedger.State s = BudgetLedger.read(pld);
        assertThat(s.spends()).allSatisfy(sp -> assertThat(sp.profile()).isEqualTo(profile));
        assertThat(s.accountant().composedSpend().epsilon()).isLessThanOrEqualTo(1.0);
    }

    @Test
    void aPldLedgerComposesMixedSpendsFromTheirStoredParameters() throws Exception {
        Path f = dir.resolve("mixed.ledger");
        PrivacyParams total = PrivacyParams.of(2.0, 1e-6);
        BudgetLedger.init(f, total, PrivacyAccountant.Accounting.PLD);
        PrivacyProfile quantile = new PrivacyProfile.Pure(0.1);
        PrivacyProfile steps = new PrivacyProfile.SubsampledGaussian(0.01, 1.5, 200, Neighbouring.REPLACE_ROW);
        PrivacyProfile gauss = PrivacyProfile.gaussianCalibratedTo(PrivacyParams.of(0.5, 1e-7));
        BudgetLedger.charge(f, "private bound", PrivacyParams.pure(0.1), 0.005, quantile);
        BudgetLedger.charge(f, "dp-sggd", PrivacyParams.of(0.9, 5e-7), steps.zcdpRho(), steps);
        BudgetLedger.charge(f, "analyze-gauss", PrivacyParams.of(0.5, 1e-7), gauss.zcdpRho(), gauss);
        BudgetLedger.State s = BudgetLedger.read(f);
        assertThat(s.spends()).extracting(BudgetLedger.Spend::profile).containsExactly(quantile, steps, gauss);
        // the stored parameters rebuild the same composition; it fits the total
        PrivacyProfile composed = s.spentProfile();
        double eps = io.dpspectra.privacy.pld.ProfileAccounting.epsilonForDelta(composed, total.delta(), 1e-4);
        assertThat(eps).isLessThanOrEqualTo(total.epsilon());
        assertThat(s.accountant().composedSpend().epsilon()).isEqualTo(eps);
        // basic composition of the same three points would have needed 1.5 > ... it fits 2.0 too, but the PLD is tighter
        assertThat(eps).isLessThan(0.1 + 0.9 + 0.5);
        // a spend that would push the composition over the total is refused, and nothing is recorded
        String before = Files.readString(f);
        PrivacyProfile big = PrivacyProfile.gaussianCalibratedTo(PrivacyParams.of(1.9, 1e-7));
        assertThatThrownBy(() -> BudgetLedger.charge(f, "too much", PrivacyParams.of(1.9, 1e-7), big.zcdpRho(), big))
                .isInstanceOf(BudgetExceededException.class);
        assertThat(Files.readString(f)).isEqualTo(before);
    }

    @Test
    void concurrentChargesOfAPldLedgerNeverJointlyExceedTheTotal() throws Exception {
        Path f = dir.resolve("pc.ledger");
        BudgetLedger.init(f, PrivacyParams.of(1.0, 1e-6), PrivacyAccountant.Accounting.PLD);
        PrivacyParams each = PrivacyParams.of(0.25, 1e-8);
        PrivacyProfile profile = PrivacyProfile.gaussianCalibratedTo(each);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            int id = i;
            results.add(pool.submit(() -> {
                try {
                    BudgetLedger.charge(f, "release " + id, each, profile.zcdpRho(), profile);
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
        assertThat(accepted).isEqualTo(20);
        assertThat(BudgetLedger.read(f).spends()).hasSize(20);
    }

    @Test
    void aPldLedgerNeedsAPositiveTotalDelta() {
        Path f = dir.resolve("pure.ledger");
        assertThatThrownBy(() -> BudgetLedger.init(f, PrivacyParams.pure(1), PrivacyAccountant.Accounting.PLD))
                .hasMessageContaining("PLD accounting needs a total delta > 0");
        assertThat(Files.exists(f)).isFalse();
    }

    @Test
    void aDamagedProfileIsReportedWithItsLine() throws Exception {
        Path f = dir.resolve("damaged.ledger");
        Files.writeString(f, "dpspectra-ledger 3\ntotal epsilon=1.0 delta=1.0E-6 accounting=pld\n"
                + "spend epsilon=0.25 delta=1.0E-8 rho=none profile=gaussian(mu=-1) at=x purpose=y\n");
        assertThatThrownBy(() -> BudgetLedger.read(f)).hasMessageContaining("line 3 is damaged")
                .hasMessageContaining("mu");
    }
}
