package io.dpspectra.privacy;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A total privacy budget (ε, δ) and a ledger of what has been spent from it, composed by basic
 * composition across ledger entries. Every charge is checked against what remains BEFORE it is
 * recorded: a caller charges the planned spend first and reads data only if the charge succeeded.
 * An overspend throws {@link BudgetExceededException} and records nothing.
 *
 * <p>Static helpers give the composition rules used to plan a charge:
 * {@link #basicComposition} (sum), {@link #advancedComposition} (Dwork–Rothblum–Vadhan) and
 * {@link #parallelComposition} (maximum, for mechanisms on disjoint rows). Instance methods
 * {@link #spendAdvanced} and {@link #spendParallel} charge their results.
 *
 * <p>Thread-safe: all state is guarded by this object's lock, and a charge (check and record) is
 * atomic, so concurrent spends can never jointly exceed the total.
 *
 * <p>Privacy: the ledger's sum is a valid (ε, δ) bound for the sequence of releases by basic
 * composition (Dwork &amp; Roth 2014, Theorem 3.16), for any neighbouring relation shared by the
 * entries.
 *
 * <p>Reference: Dwork &amp; Roth, "The Algorithmic Foundations of Differential Privacy" (2014),
 * Theorems 3.16 and 3.20; Dwork, Rothblum &amp; Vadhan, "Boosting and Differential Privacy",
 * FOCS 2010; McSherry, "Privacy Integrated Queries", SIGMOD 2009 (parallel composition).
 *
 * <p>Cost: O(1) per charge; the ledger holds one entry per charge.
 */
public final class PrivacyAccountant {
    /** One ledger line. */
    public record Entry(String purpose, PrivacyParams params) {
        public Entry {
            Objects.requireNonNull(purpose, "purpose");
            Objects.requireNonNull(params, "params");
        }
    }

    /** Relative slack for floating-point sums of budget fractions (e.g. 10 × 0.1 = 1). */
    private static final double SLACK = 1e-12;

    private final PrivacyParams total;
    private final List<Entry> ledger = new ArrayList<>();
    private double spentEpsilon;
    private double spentDelta;

    private PrivacyAccountant(PrivacyParams total) {
        this.total = total;
    }

    public static PrivacyAccountant total(PrivacyParams total) {
        return new PrivacyAccountant(Objects.requireNonNull(total, "total"));
    }

    public PrivacyParams totalBudget() {
        return total;
    }

    /** Spends {@code params} (basic composition) or throws without recording anything. */
    public synchronized PrivacyParams spend(String purpose, PrivacyParams params) {
        chargePlan(List.of(new Entry(purpose, params)));
        return params;
    }

    public PrivacyParams spend(PrivacyParams params) {
        return spend("unnamed release", params);
    }

    /**
     * Charges a whole plan of releases at once, before any data is read: either every entry is
     * recorded or, if their sum exceeds what remains, none is and {@link BudgetExceededException}
     * names the requested, spent and remaining budget and what to do.
     *
     * @return the basic composition (sum) of the plan
     */
    public synchronized PrivacyParams chargePlan(List<Entry> plan) {
        Objects.requireNonNull(plan, "plan");
        if (plan.isEmpty()) {
            throw new IllegalArgumentException("plan must contain at least one release, got none");
        }
        double e = 0;
        double d = 0;
        for (Entry entry : plan) {
            Objects.requireNonNull(entry, "plan entry");
            e += entry.params().epsilon();
            d += entry.params().delta();
        }
        String purpose = plan.size() == 1 ? plan.get(0).purpose() : plan.size() + " planned releases";
        PrivacyParams requested = new PrivacyParams(e, Math.min(d, Math.nextDown(1.0)));
        if (!fits(e, d)) {
            throw exceeded(purpose, requested);
        }
        spentEpsilon += e;
        spentDelta += d;
        ledger.addAll(plan);
        return requested;
    }

    /** True if {@code params} could be spent now (nothing is recorded). */
    public synchronized boolean canSpend(PrivacyParams params) {
        return fits(params.epsilon(), params.delta());
    }

    /**
     * Charges k adaptive runs of an (ε, δ) mechanism by advanced composition:
     * (ε', kδ + δ') with ε' = √(2k ln(1/δ'))·ε + kε(e^ε − 1), or basic composition (kε, kδ) when
     * that is smaller. One ledger entry is recorded.
     */
    public synchronized PrivacyParams spendAdvanced(String purpose, PrivacyParams each, int k, double deltaPrime) {
        PrivacyParams composed = advancedComposition(each, k, deltaPrime);
        PrivacyParams basic = new PrivacyParams(each.epsilon() * k, Math.min(each.delta() * k,
                Math.nextDown(1.0)));
        PrivacyParams cheaper = basic.epsilon() <= composed.epsilon() && basic.delta() <= composed.delta()
                ? basic : composed;
        return spend(purpose + " (" + k + " runs of " + each + ")", cheaper);
    }

    /**
     * Charges mechanisms run on pairwise disjoint subsets of the rows: by parallel composition their
     * joint cost is the maximum ε and the maximum δ. One ledger entry is recorded.
     */
    public synchronized PrivacyParams spendParallel(String purpose, List<PrivacyParams> parts) {
        return spend(purpose + " (" + parts.size() + " parts on disjoint rows)", parallelComposition(parts));
    }

    public synchronized double spentEpsilon() {
        return spentEpsilon;
    }

    public synchronized double spentDelta() {
        return spentDelta;
    }

    /** What remains as (ε, δ), or empty when no ε remains (the budget is exhausted). */
    public synchronized java.util.Optional<PrivacyParams> remaining() {
        double e = total.epsilon() - spentEpsilon;
        double d = Math.max(0, total.delta() - spentDelta);
        return e > total.epsilon() * SLACK ? java.util.Optional.of(new PrivacyParams(e, d)) : java.util.Optional.empty();
    }

    public synchronized List<Entry> ledger() {
        return List.copyOf(ledger);
    }

    private boolean fits(double e, double d) {
        return spentEpsilon + e <= total.epsilon() * (1 + SLACK)
                && spentDelta + d <= total.delta() * (1 + SLACK);
    }

    private BudgetExceededException exceeded(String purpose, PrivacyParams requested) {
        double remE = Math.max(0, total.epsilon() - spentEpsilon);
        double remD = Math.max(0, total.delta() - spentDelta);
        String message = "privacy budget exceeded: " + purpose + " requests " + requested
                + " but " + format(spentEpsilon, spentDelta) + " of the total " + total
                + " is already spent, leaving " + format(remE, remD)
                + "; lower the request (smaller epsilon/delta or fewer releases) or start from a larger total budget";
        PrivacyParams remaining = remE > 0 ? new PrivacyParams(remE, remD) : null;
        PrivacyParams spent = spentEpsilon > 0 ? new PrivacyParams(spentEpsilon, Math.min(spentDelta,
                Math.nextDown(1.0))) : null;
        return new BudgetExceededException(message, requested, remaining, spent);
    }

    private static String format(double e, double d) {
        return "(ε=" + e + ", δ=" + d + ")";
    }

    /** Basic composition: (Σε_i, Σδ_i) (Dwork &amp; Roth 2014, Theorem 3.16). */
    public static PrivacyParams basicComposition(List<PrivacyParams> parts) {
        checkParts(parts);
        double e = 0;
        double d = 0;
        for (PrivacyParams p : parts) {
            e += p.epsilon();
            d += p.delta();
        }
        if (!(d < 1)) {
            throw new IllegalArgumentException("composed delta must be < 1, got " + d
                    + "; use smaller per-release deltas");
        }
        return new PrivacyParams(e, d);
    }

    /**
     * Advanced composition (Dwork, Rothblum &amp; Vadhan 2010; Dwork &amp; Roth 2014, Theorem 3.20): k
     * adaptive runs of an (ε, δ)-DP mechanism are (ε', kδ + δ')-DP with
     * ε' = √(2k ln(1/δ'))·ε + kε(e^ε − 1), for any δ' ∈ (0, 1).
     */
    public static PrivacyParams advancedComposition(PrivacyParams each, int k, double deltaPrime) {
        Objects.requireNonNull(each, "each");
        DpPreconditions.checkAtLeast("k (number of composed runs)", k, 1);
        DpPreconditions.checkPositiveDelta(deltaPrime, "advanced composition (deltaPrime)");
        double eps = each.epsilon();
        double epsPrime = Math.sqrt(2.0 * k * Math.log(1 / deltaPrime)) * eps + k * eps * Math.expm1(eps);
        double delta = k * each.delta() + deltaPrime;
        if (!(delta < 1)) {
            throw new IllegalArgumentException("composed delta k*delta + deltaPrime must be < 1, got " + delta
                    + "; use a smaller per-run delta or deltaPrime");
        }
        return new PrivacyParams(epsPrime, delta);
    }

    /**
     * Parallel composition (McSherry 2009): mechanisms that each read a pairwise disjoint subset of
     * the rows are jointly (max ε_i, max δ_i)-DP, for neighbours that differ in one row.
     */
    public static PrivacyParams parallelComposition(List<PrivacyParams> parts) {
        checkParts(parts);
        double e = 0;
        double d = 0;
        for (PrivacyParams p : parts) {
            e = Math.max(e, p.epsilon());
            d = Math.max(d, p.delta());
        }
        return new PrivacyParams(e, d);
    }

    private static void checkParts(List<PrivacyParams> parts) {
        Objects.requireNonNull(parts, "parts");
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("parts must contain at least one mechanism, got none");
        }
        for (PrivacyParams p : parts) {
            Objects.requireNonNull(p, "parts element");
        }
    }
}
