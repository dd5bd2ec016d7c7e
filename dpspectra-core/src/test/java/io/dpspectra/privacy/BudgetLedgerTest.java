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
}
