package io.dpspectra.privacy;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A total privacy budget (ε, δ) and a ledger of what has been spent from it, composed by basic
 * composition across ledger entries ({@link Accounting#BASIC}, the default), by zero-concentrated DP
 * ({@link Accounting#ZCDP}, see {@link #zcdp}) or by privacy loss distributions ({@link Accounting#PLD}, see
 * {@link #pld}). Every charge is checked against what remains BEFORE it is
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
 * <p>zCDP accounting ({@link #zcdp}): the total (ε, δ) is turned into a total ρ = (√(ε + L) − √L)², L =
 * ln(1/δ) ({@link ComposedGaussian#zcdpRho}), the largest ρ whose conversion ρ + 2√(ρ L) meets (ε, δ)
 * (Bun &amp; Steinke 2016, Prop. 1.3); every entry must state its ρ (a pure ε-DP release is ε²/2-zCDP, Bun
 * &amp; Steinke Prop. 1.4; a Gaussian release of sensitivity Δ and noise σ is Δ²/(2σ²)-zCDP, Prop. 1.6),
 * zCDP composes by adding ρ (Lemma 2.3), and a charge fits while Σρ ≤ the total ρ. Adaptively chosen
 * spends are covered because the check is a privacy filter on Σρ (Feldman &amp; Zrnic, "Individual
 * Privacy Accounting via a Rényi Filter", NeurIPS 2021, Theorem 3.1: zCDP is RDP at every order). An entry
 * with no ρ (e.g. a subsampled or other non-Gaussian δ mechanism) is refused by a zCDP accountant.
 *
 * <p>PLD accounting ({@link #pld}): every entry carries the {@link PrivacyProfile} of what it ran (its (ε, δ)
 * point when nothing tighter is stated), and a charge fits while the composition of every entry's profile is
 * (ε, δ)-DP for the total: in closed form when every entry is Gaussian (μ-GDP composes to √(Σμ²)-GDP, Dong,
 * Roth &amp; Su 2022), else by the privacy loss distributions of {@code io.dpspectra.privacy.pld}, discretised
 * pessimistically (never below the exact δ(ε)). Adaptively chosen spends: for Gaussian entries the check is the
 * GDP privacy filter of Smith &amp; Thakurta ("Fully Adaptive Composition for Gaussian Differential Privacy",
 * 2022), valid whatever the analyst chooses. For entries of mixed kinds it is exact for sequences fixed in
 * advance, but composing whole privacy curves is not a valid filter when each budget is chosen after seeing
 * earlier outputs ("Privacy Filters are Captured by Residues", arXiv 2602.15815, 2026); such use needs basic
 * accounting.
 *
 * <p>Reference: Dwork &amp; Roth, "The Algorithmic Foundations of Differential Privacy" (2014),
 * Theorems 3.16 and 3.20; Bun &amp; Steinke, "Concentrated Differential Privacy: Simplifications,
 * Extensions, and Lower Bounds", TCC 2016; Dwork, Rothblum &amp; Vadhan, "Boosting and Differential Privacy",
 * FOCS 2010; McSherry, "Privacy Integrated Queries", SIGMOD 2009 (parallel composition).
 *
 * <p>Cost: O(1) per charge; the ledger holds one entry per charge.
 */
public final class PrivacyAccountant {
    /** How entries compose. */
    public enum Accounting {
        /** Basic composition: (Σε, Σδ). */
        BASIC,
        /** Zero-concentrated DP: Σρ against the total's ρ; every entry must state its ρ. */
        ZCDP,
        /** Privacy loss distributions: the composition of every entry's profile against the total (ε, δ). */
        PLD
    }

    /**
     * One ledger line.
     *
     * @param purpose what the release is for
     * @param params  its (ε, δ)
     * @param rho     the entry's zCDP cost, or NaN when it has none (see {@link ComposedGaussian#zcdpRho})
     * @param profile what the entry runs, for PLD accounting ({@link PrivacyProfile#of}(params) when nothing
     *                tighter was stated)
     */
    public record Entry(String purpose, PrivacyParams params, double rho, PrivacyProfile profile) {
        /**
         * Validates the entry.
         *
         * @param purpose what the release is for
         * @param params  its (ε, δ)
         * @param rho     its zCDP cost, or NaN when it has none
         * @param profile what the release runs
         * @throws IllegalArgumentException for a negative or non-finite {@code rho}
         */
        public Entry {
            Objects.requireNonNull(purpose, "purpose");
            Objects.requireNonNull(params, "params");
            Objects.requireNonNull(profile, "profile");
            if (!Double.isNaN(rho) && !(rho >= 0 && Double.isFinite(rho))) {
                throw new IllegalArgumentException("rho (zCDP cost) must be finite and >= 0, or NaN for none; got "
                        + rho);
            }
        }

        /**
         * An entry without a zCDP cost, except that pure ε (δ = 0) is always ε²/2-zCDP.
         *
         * @param purpose what the release is for
         * @param params  its (ε, δ)
         */
        public Entry(String purpose, PrivacyParams params) {
            this(purpose, params, params.delta() == 0 ? pureRho(params.epsilon()) : Double.NaN);
        }

        /**
         * An entry with a stated zCDP cost and no profile tighter than its (ε, δ).
         *
         * @param purpose what the release is for
         * @param params  its (ε, δ)
         * @param rho     its zCDP cost, or NaN when it has none
         */
        public Entry(String purpose, PrivacyParams params, double rho) {
            this(purpose, params, rho, PrivacyProfile.of(params));
        }

        /**
         * An entry whose profile is known: its zCDP cost is the profile's ({@link PrivacyProfile#zcdpRho}).
         *
         * @param purpose what the release is for
         * @param params  its (ε, δ)
         * @param profile what the release runs
         */
        public Entry(String purpose, PrivacyParams params, PrivacyProfile profile) {
            this(purpose, params, profile.zcdpRho(), profile);
        }

        /**
         * Whether the entry states a zCDP cost.
         *
         * @return true unless {@code rho} is NaN
         */
        public boolean hasRho() {
            return !Double.isNaN(rho);
        }
    }

    /**
     * ρ = ε²/2: a pure ε-DP release is ρ-zCDP (Bun &amp; Steinke 2016, Prop. 1.4).
     *
     * @param epsilon ε, &gt; 0
     * @return ρ = ε²/2
     */
    public static double pureRho(double epsilon) {
        return epsilon * epsilon / 2;
    }

    /** Relative slack for floating-point sums of budget fractions (e.g. 10 × 0.1 = 1). */
    private static final double SLACK = 1e-12;

    private final PrivacyParams total;
    private final Accounting accounting;
    private final double totalRho;
    private final List<Entry> ledger = new ArrayList<>();
    private double spentEpsilon;
    private double spentDelta;
    private double spentRho;
    /** The composition of every entry's profile (PLD accounting; null before the first charge). */
    private PrivacyProfile spentProfile;

    /** Discretisation interval of the PLD accounting (as Google's dp_accounting). */
    static final double PLD_INTERVAL = io.dpspectra.privacy.pld.PrivacyLossDistribution.DEFAULT_DISCRETIZATION;

    private PrivacyAccountant(PrivacyParams total, Accounting accounting) {
        this.total = total;
        this.accounting = accounting;
        this.totalRho = accounting == Accounting.ZCDP ? ComposedGaussian.zcdpRho(total) : Double.NaN;
    }

    /**
     * Basic composition against {@code total}.
     *
     * @param total the total budget
     * @return a new accountant with nothing spent
     */
    public static PrivacyAccountant total(PrivacyParams total) {
        return new PrivacyAccountant(Objects.requireNonNull(total, "total"), Accounting.BASIC);
    }

    /**
     * zCDP accounting against {@code total} (δ must be &gt; 0): the total ρ is
     * {@link ComposedGaussian#zcdpRho}(total), and every entry must state its ρ.
     *
     * @param total the total budget, δ &gt; 0
     * @return a new accountant with nothing spent
     */
    public static PrivacyAccountant zcdp(PrivacyParams total) {
        Objects.requireNonNull(total, "total");
        if (total.delta() == 0) {
            throw new IllegalArgumentException("zCDP accounting needs a total delta > 0 (its conversion to (epsilon, "
                    + "delta) spends delta); give a delta such as 1e-6, or use basic accounting for pure epsilon");
        }
        return new PrivacyAccountant(total, Accounting.ZCDP);
    }

    /**
     * PLD accounting against {@code total} (δ must be &gt; 0): a charge fits while every entry's profile composed is
     * (ε, δ)-DP for the total (see the class comment, also on adaptively chosen releases).
     *
     * @param total the total budget
     * @return a new accountant with nothing spent
     * @throws IllegalArgumentException when the total's δ is 0
     */
    public static PrivacyAccountant pld(PrivacyParams total) {
        Objects.requireNonNull(total, "total");
        if (total.delta() == 0) {
            throw new IllegalArgumentException("PLD accounting needs a total delta > 0 (a pure epsilon total is met "
                    + "exactly by basic composition); give a delta such as 1e-6, or use basic accounting");
        }
        return new PrivacyAccountant(total, Accounting.PLD);
    }

    /**
     * An accountant of the given kind.
     *
     * @param accounting basic composition, zCDP or PLD
     * @param total      the total budget
     * @return a new accountant with nothing spent
     */
    public static PrivacyAccountant of(Accounting accounting, PrivacyParams total) {
        return switch (accounting) {
            case ZCDP -> zcdp(total);
            case PLD -> pld(total);
            case BASIC -> total(total);
        };
    }

    /**
     * The total budget this accountant allows.
     *
     * @return the total (ε, δ)
     */
    public PrivacyParams totalBudget() {
        return total;
    }

    /**
     * How the spends compose.
     *
     * @return basic composition or zCDP
     */
    public Accounting accounting() {
        return accounting;
    }

    /**
     * The total ρ of a zCDP accountant (NaN for basic accounting).
     *
     * @return the total ρ, or NaN
     */
    public double totalRho() {
        return totalRho;
    }

    /**
     * The ρ spent so far by entries that state one.
     *
     * @return Σρ of the recorded entries with a ρ, ≥ 0
     */
    public synchronized double spentRho() {
        return spentRho;
    }

    /**
     * Spends {@code params} or throws without recording anything (pure ε counts ε²/2 under zCDP).
     *
     * @param purpose what the release is for, recorded in the ledger
     * @param params  the (ε, δ) to spend
     * @return {@code params}
     * @throws BudgetExceededException when the spend does not fit in what remains
     */
    public synchronized PrivacyParams spend(String purpose, PrivacyParams params) {
        chargePlan(List.of(new Entry(purpose, params)));
        return params;
    }

    /**
     * Spends {@code params} whose zCDP cost is {@code rho} (NaN: none), or throws without recording anything.
     *
     * @param purpose what the release is for, recorded in the ledger
     * @param params  the (ε, δ) to spend
     * @param rho     its zCDP cost, or NaN for none
     * @return {@code params}
     * @throws BudgetExceededException when the spend does not fit in what remains (or, under zCDP, states no ρ)
     */
    public synchronized PrivacyParams spend(String purpose, PrivacyParams params, double rho) {
        chargePlan(List.of(new Entry(purpose, params, rho)));
        return params;
    }

    /**
     * Spends {@code params} of a release that runs {@code profile}, or throws without recording anything.
     *
     * @param purpose what the release is for
     * @param params  the (ε, δ) to spend
     * @param profile what the release runs
     * @return {@code params}
     * @throws BudgetExceededException when the spend does not fit in what remains
     */
    public synchronized PrivacyParams spend(String purpose, PrivacyParams params, PrivacyProfile profile) {
        chargePlan(List.of(new Entry(purpose, params, profile)));
        return params;
    }

    /**
     * Spends {@code params} for an unnamed release, or throws without recording anything.
     *
     * @param params the (ε, δ) to spend
     * @return {@code params}
     * @throws BudgetExceededException when the spend does not fit in what remains
     */
    public PrivacyParams spend(PrivacyParams params) {
        return spend("unnamed release", params);
    }

    /**
     * Charges a whole plan of releases at once, before any data is read: either every entry is
     * recorded or, if their sum exceeds what remains, none is and {@link BudgetExceededException}
     * names the requested, spent and remaining budget and what to do.
     *
     * @param plan the releases to charge, at least one
     * @return the basic composition (sum) of the plan
     */
    public synchronized PrivacyParams chargePlan(List<Entry> plan) {
        Objects.requireNonNull(plan, "plan");
        if (plan.isEmpty()) {
            throw new IllegalArgumentException("plan must contain at least one release, got none");
        }
        double e = 0;
        double d = 0;
        double r = 0;
        for (Entry entry : plan) {
            Objects.requireNonNull(entry, "plan entry");
            e += entry.params().epsilon();
            d += entry.params().delta();
            r += entry.rho();
        }
        String purpose = plan.size() == 1 ? plan.get(0).purpose() : plan.size() + " planned releases";
        PrivacyParams requested = new PrivacyParams(e, Math.min(d, Math.nextDown(1.0)));
        PrivacyProfile composed = null;
        if (accounting == Accounting.PLD) {
            List<PrivacyProfile> parts = new ArrayList<>();
            if (spentProfile != null) {
                parts.add(spentProfile);
            }
            for (Entry entry : plan) {
                parts.add(entry.profile());
            }
            composed = PrivacyProfile.compose(parts);
            if (!pldFits(composed)) {
                throw exceeded(purpose, requested, r);
            }
        } else if (accounting == Accounting.ZCDP) {
            if (Double.isNaN(r)) {
                throw new BudgetExceededException("zCDP accounting cannot charge " + purpose + " " + requested
                        + ": its guarantee has no zCDP cost (only pure-epsilon and Gaussian releases have one); "
                        + "use a ledger with basic accounting for it", requested, remaining().orElse(null),
                        spentEpsilon > 0 ? spentParams() : null);
            }
            if (!(spentRho + r <= totalRho * (1 + SLACK))) {
                throw exceeded(purpose, requested, r);
            }
        } else if (!fits(e, d)) {
            throw exceeded(purpose, requested, r);
        }
        spentEpsilon += e;
        spentDelta += d;
        spentRho += Double.isNaN(r) ? 0 : r;
        if (composed == null) {
            List<PrivacyProfile> parts = new ArrayList<>();
            if (spentProfile != null) {
                parts.add(spentProfile);
            }
            for (Entry entry : plan) {
                parts.add(entry.profile());
            }
            composed = PrivacyProfile.compose(parts);
        }
        spentProfile = composed;
        ledger.addAll(plan);
        return requested;
    }

    /**
     * Records entries that were admitted before (a ledger read back from its file) without checking them again: one
     * composition instead of one check per entry.
     */
    synchronized void restore(List<Entry> entries) {
        if (!ledger.isEmpty()) {
            throw new IllegalStateException("restore needs an empty accountant");
        }
        if (entries.isEmpty()) {
            return;
        }
        List<PrivacyProfile> parts = new ArrayList<>();
        for (Entry entry : entries) {
            spentEpsilon += entry.params().epsilon();
            spentDelta += entry.params().delta();
            spentRho += entry.rho();
            parts.add(entry.profile());
        }
        spentProfile = PrivacyProfile.compose(parts);
        ledger.addAll(entries);
    }

    /** True when the composed profile is (ε, δ)-DP for the total; δ rounded for sums of fractions as elsewhere. */
    private boolean pldFits(PrivacyProfile composed) {
        return io.dpspectra.privacy.pld.ProfileAccounting.deltaForEpsilon(composed, total.epsilon(), PLD_INTERVAL)
                <= total.delta() * (1 + SLACK);
    }

    /**
     * The composition of every charged entry's profile, or null before the first charge.
     *
     * @return the composed profile, or null
     */
    public synchronized PrivacyProfile spentProfile() {
        return spentProfile;
    }

    private PrivacyParams spentParams() {
        return new PrivacyParams(spentEpsilon, Math.min(spentDelta, Math.nextDown(1.0)));
    }

    /**
     * True if {@code params} could be spent now (nothing is recorded).
     *
     * @param params the (ε, δ) that would be spent
     * @return whether {@link #spend(String, PrivacyParams)} would succeed now
     */
    public synchronized boolean canSpend(PrivacyParams params) {
        if (accounting == Accounting.PLD) {
            PrivacyProfile p = PrivacyProfile.of(params);
            return pldFits(spentProfile == null ? p : PrivacyProfile.compose(spentProfile, p));
        }
        if (accounting == Accounting.ZCDP) {
            double r = new Entry("check", params).rho();
            return !Double.isNaN(r) && spentRho + r <= totalRho * (1 + SLACK);
        }
        return fits(params.epsilon(), params.delta());
    }

    /**
     * Charges k adaptive runs of an (ε, δ) mechanism by advanced composition:
     * (ε', kδ + δ') with ε' = √(2k ln(1/δ'))·ε + kε(e^ε − 1), or basic composition (kε, kδ) when
     * that is smaller. One ledger entry is recorded.
     *
     * @param purpose    what the runs are for, recorded in the ledger
     * @param each       the (ε, δ) of one run
     * @param k          the number of runs, ≥ 1
     * @param deltaPrime δ', in (0, 1)
     * @return the (ε, δ) charged
     * @throws BudgetExceededException when the charge does not fit in what remains
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
     *
     * @param purpose what the mechanisms are for, recorded in the ledger
     * @param parts   the (ε, δ) of each mechanism, at least one
     * @return the (max ε, max δ) charged
     * @throws BudgetExceededException when the charge does not fit in what remains
     */
    public synchronized PrivacyParams spendParallel(String purpose, List<PrivacyParams> parts) {
        return spend(purpose + " (" + parts.size() + " parts on disjoint rows)", parallelComposition(parts));
    }

    /**
     * The basic composition's ε of the recorded entries.
     *
     * @return Σε, ≥ 0
     */
    public synchronized double spentEpsilon() {
        return spentEpsilon;
    }

    /**
     * The basic composition's δ of the recorded entries.
     *
     * @return Σδ, ≥ 0
     */
    public synchronized double spentDelta() {
        return spentDelta;
    }

    /**
     * What remains as (ε, δ), or empty when no ε remains (the budget is exhausted). Under zCDP: the (ε, δ)
     * of the remaining ρ by the conversion ρ + 2√(ρ ln(1/δ)) at the total δ (what one more release alone
     * could reach, not a share to add to the spent ε).
     *
     * @return the remaining (ε, δ), or empty
     */
    public synchronized java.util.Optional<PrivacyParams> remaining() {
        if (accounting == Accounting.PLD) {
            double mu = remainingGaussianMu();
            return mu > 0 ? java.util.Optional.of(new PrivacyParams(
                    io.dpspectra.privacy.pld.GaussianPrivacy.epsilon(mu, total.delta()), total.delta()))
                    : java.util.Optional.empty();
        }
        if (accounting == Accounting.ZCDP) {
            double r = totalRho - spentRho;
            return r > totalRho * SLACK
                    ? java.util.Optional.of(new PrivacyParams(ComposedGaussian.zcdpEpsilon(r, total.delta()),
                            total.delta()))
                    : java.util.Optional.empty();
        }
        double e = total.epsilon() - spentEpsilon;
        double d = Math.max(0, total.delta() - spentDelta);
        return e > total.epsilon() * SLACK ? java.util.Optional.of(new PrivacyParams(e, d)) : java.util.Optional.empty();
    }

    /**
     * The spends composed under this accountant's accounting: (Σε, Σδ) for basic; for zCDP the conversion of
     * Σρ at the total δ (Bun &amp; Steinke 2016, Prop. 1.3); for PLD the smallest ε of the composed profile at the
     * total δ.
     *
     * @return the composed (ε, δ) spent so far
     */
    public synchronized PrivacyParams composedSpend() {
        if (accounting == Accounting.PLD && spentProfile != null) {
            double eps = io.dpspectra.privacy.pld.ProfileAccounting.epsilonForDelta(spentProfile, total.delta(),
                    PLD_INTERVAL);
            return eps > 0 && Double.isFinite(eps) ? new PrivacyParams(eps, total.delta()) : spentParams();
        }
        if (accounting == Accounting.ZCDP) {
            return new PrivacyParams(ComposedGaussian.zcdpEpsilon(spentRho, total.delta()),
                    spentRho > 0 ? total.delta() : 0);
        }
        return spentParams();
    }

    /**
     * The recorded entries, oldest first.
     *
     * @return an immutable copy of the ledger
     */
    public synchronized List<Entry> ledger() {
        return List.copyOf(ledger);
    }

    private boolean fits(double e, double d) {
        return spentEpsilon + e <= total.epsilon() * (1 + SLACK)
                && spentDelta + d <= total.delta() * (1 + SLACK);
    }

    /** The μ of the largest Gaussian release that still fits (PLD accounting), 0 when none does. */
    private double remainingGaussianMu() {
        return io.dpspectra.privacy.pld.ProfileAccounting.remainingGaussianMu(spentProfile, total, PLD_INTERVAL);
    }

    private BudgetExceededException exceeded(String purpose, PrivacyParams requested, double rho) {
        PrivacyParams spent = spentEpsilon > 0 ? spentParams() : null;
        if (accounting == Accounting.PLD) {
            String message = "privacy budget exceeded (PLD accounting): " + purpose + " requests " + requested
                    + " but the " + ledger.size() + " releases already charged compose to " + composedText()
                    + " of the total " + total + ", leaving " + remainingText() + "; lower the request or start from "
                    + "a larger total budget";
            return new BudgetExceededException(message, requested, remaining().orElse(null), spent);
        }
        if (accounting == Accounting.ZCDP) {
            double rem = Math.max(0, totalRho - spentRho);
            String message = "privacy budget exceeded (zCDP accounting): " + purpose + " requests " + requested
                    + " = rho " + rho + " but rho " + spentRho + " of the total rho " + totalRho + " (from " + total
                    + ") is already spent, leaving rho " + rem + " (one more release of at most " + remainingText()
                    + ", or pure epsilon up to " + Math.sqrt(2 * rem) + "); lower the request or start from a larger "
                    + "total budget";
            return new BudgetExceededException(message, requested, remaining().orElse(null), spent);
        }
        double remE = Math.max(0, total.epsilon() - spentEpsilon);
        double remD = Math.max(0, total.delta() - spentDelta);
        String message = "privacy budget exceeded: " + purpose + " requests " + requested
                + " but " + format(spentEpsilon, spentDelta) + " of the total " + total
                + " is already spent, leaving " + format(remE, remD)
                + "; lower the request (smaller epsilon/delta or fewer releases) or start from a larger total budget";
        PrivacyParams remaining = remE > 0 ? new PrivacyParams(remE, remD) : null;
        return new BudgetExceededException(message, requested, remaining, spent);
    }

    /** The spends composed, in words (PLD accounting): their ε at the total δ. */
    private String composedText() {
        if (spentProfile == null) {
            return "nothing";
        }
        return format(round(composedSpend().epsilon()), total.delta());
    }

    /**
     * What remains, in words: (ε, δ) for basic; ρ and its (ε, δ) conversion for zCDP; for PLD the largest Gaussian
     * release that still fits, as its μ and its (ε, δ) alone.
     *
     * @return the remaining budget in words
     */
    public synchronized String remainingText() {
        if (accounting == Accounting.PLD) {
            double mu = remainingGaussianMu();
            if (mu <= 0) {
                return "nothing";
            }
            return "one more Gaussian release of mu = " + round(mu) + " (PLD accounting), i.e. "
                    + format(round(io.dpspectra.privacy.pld.GaussianPrivacy.epsilon(mu, total.delta())), total.delta())
                    + " for one more release alone";
        }
        if (accounting == Accounting.ZCDP) {
            double rem = Math.max(0, totalRho - spentRho);
            return "rho=" + round(rem) + " (zCDP), i.e. " + format(round(ComposedGaussian.zcdpEpsilon(rem,
                    total.delta())), total.delta()) + " for one more release alone";
        }
        return format(round(Math.max(0, total.epsilon() - spentEpsilon)), round(Math.max(0, total.delta() - spentDelta)));
    }

    private static double round(double v) {
        return Double.parseDouble(String.format(java.util.Locale.ROOT, "%.12g", v));
    }

    private static String format(double e, double d) {
        return "(ε=" + e + ", δ=" + d + ")";
    }

    /**
     * Basic composition: (Σε_i, Σδ_i) (Dwork &amp; Roth 2014, Theorem 3.16).
     *
     * @param parts the (ε_i, δ_i), at least one
     * @return (Σε_i, Σδ_i)
     * @throws IllegalArgumentException when Σδ_i ≥ 1
     */
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
     *
     * @param each       the (ε, δ) of one run
     * @param k          the number of runs, ≥ 1
     * @param deltaPrime δ', in (0, 1)
     * @return (ε', kδ + δ')
     * @throws IllegalArgumentException when kδ + δ' ≥ 1
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
     *
     * @param parts the (ε_i, δ_i), at least one
     * @return (max ε_i, max δ_i)
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
