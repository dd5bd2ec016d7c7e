package io.dpspectra.privacy;

import java.util.ArrayList;
import java.util.List;

/**
 * A total privacy budget and a ledger of what has been spent from it (basic composition across
 * spends). {@link #spend} refuses an overspend with {@link BudgetExceededException} before the caller
 * touches any data. Static helpers give basic, advanced and parallel composition.
 *
 * <p>TODO(skeleton): advanced and parallel composition are completed in the privacy work package.
 */
public final class PrivacyAccountant {
    /** One ledger line. */
    public record Entry(String purpose, PrivacyParams params) {
    }

    private static final double SLACK = 1e-12;

    private final PrivacyParams total;
    private final List<Entry> ledger = new ArrayList<>();
    private double spentEpsilon;
    private double spentDelta;

    private PrivacyAccountant(PrivacyParams total) {
        this.total = total;
    }

    public static PrivacyAccountant total(PrivacyParams total) {
        return new PrivacyAccountant(total);
    }

    public PrivacyParams totalBudget() {
        return total;
    }

    /** Spends {@code params} (basic composition) or throws without recording anything. */
    public synchronized PrivacyParams spend(String purpose, PrivacyParams params) {
        double e = spentEpsilon + params.epsilon();
        double d = spentDelta + params.delta();
        if (e > total.epsilon() * (1 + SLACK) || d > total.delta() * (1 + SLACK) + 0.0) {
            throw new BudgetExceededException("privacy budget exceeded: " + purpose + " asks for " + params
                    + " but only (ε=" + Math.max(0, total.epsilon() - spentEpsilon) + ", δ="
                    + Math.max(0, total.delta() - spentDelta) + ") of " + total
                    + " remains; lower the request or start from a larger total budget", params, null);
        }
        spentEpsilon = e;
        spentDelta = d;
        ledger.add(new Entry(purpose, params));
        return params;
    }

    public PrivacyParams spend(PrivacyParams params) {
        return spend("unnamed release", params);
    }

    public synchronized double spentEpsilon() {
        return spentEpsilon;
    }

    public synchronized double spentDelta() {
        return spentDelta;
    }

    public synchronized List<Entry> ledger() {
        return List.copyOf(ledger);
    }
}
