package io.dpspectra.privacy;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a whole release satisfies when it is made of several private parts: its parts (each a mechanism's
 * own {@link PrivacyGuarantee}, in the order they were spent, the estimator last), the rule by which they
 * compose, and the guarantee that results ({@link #overall()}). A release of one mechanism is its own
 * guarantee under {@link Rule#SINGLE}.
 *
 * <p>Privacy: under {@link Rule#BASIC} the (ε, δ) of the parts add up (Dwork &amp; Roth 2014, Theorem 3.16),
 * for parts certified under one neighbouring relation and one privacy unit.
 *
 * @param overall the guarantee of the whole release: for a composition, the summed (ε, δ), the shared
 *                relation and unit, and the rule as its sensitivity and reference
 * @param parts   the mechanisms' own guarantees, in the order they were spent (the estimator last)
 * @param rule    how the parts compose
 */
public record ComposedGuarantee(PrivacyGuarantee overall, List<PrivacyGuarantee> parts, Rule rule) {
    /** How the parts compose. */
    public enum Rule {
        /** One mechanism: the release's guarantee is its own. */
        SINGLE,
        /** Basic composition: the ε and δ of the parts add up. */
        BASIC
    }

    /**
     * Checks that the parts are given and that a single guarantee has one part, its own.
     *
     * @param overall the whole release's guarantee
     * @param parts   the parts, at least one (copied)
     * @param rule    the rule
     */
    public ComposedGuarantee {
        Objects.requireNonNull(overall, "overall");
        Objects.requireNonNull(rule, "rule");
        parts = List.copyOf(parts);
        if (parts.isEmpty() || rule == Rule.SINGLE && (parts.size() != 1 || !parts.get(0).equals(overall))) {
            throw new IllegalArgumentException("a single guarantee has exactly one part, itself; got " + parts.size());
        }
    }

    /**
     * The guarantee of a release made by one mechanism.
     *
     * @param guarantee the mechanism's guarantee
     * @return that guarantee, as a composition of one part
     */
    public static ComposedGuarantee single(PrivacyGuarantee guarantee) {
        return new ComposedGuarantee(guarantee, List.of(guarantee), Rule.SINGLE);
    }

    /**
     * The basic composition of {@code parts} (the estimator last), each spent from {@code budget}: their ε and
     * δ add up, and a sum above the budget is refused ({@link BudgetExceededException}); the overall profile is
     * the composition of the parts' profiles (what a PLD accountant composes). One part alone is {@link #single}.
     *
     * @param parts  the parts in the order they were spent, the estimator last; one neighbouring relation
     * @param budget the total they were planned within
     * @return the composed guarantee
     * @throws IllegalStateException if the parts were certified under different relations (a bug of the caller)
     */
    public static ComposedGuarantee basic(List<PrivacyGuarantee> parts, PrivacyParams budget) {
        if (parts.size() == 1) {
            return single(parts.get(0));
        }
        PrivacyGuarantee main = parts.get(parts.size() - 1);
        PrivacyAccountant accountant = PrivacyAccountant.total(budget);
        List<String> mechanisms = new ArrayList<>();
        for (PrivacyGuarantee g : parts) {
            if (g.neighbouring() != main.neighbouring()) {
                throw new IllegalStateException("the preprocessing was certified under " + g.neighbouring()
                        + " but the estimator under " + main.neighbouring() + "; this is a bug");
            }
            accountant.spend(g.mechanism(), g.params());
            mechanisms.add(g.mechanism());
        }
        PrivacyGuarantee overall = new PrivacyGuarantee("composition of " + parts.size() + " mechanisms: "
                + String.join(" + ", mechanisms), PrivacyParams.of(accountant.spentEpsilon(), accountant.spentDelta()),
                main.neighbouring(), main.privacyUnit() + " (the estimator's unit; the preprocessing parts bound the "
                + "same row)", "each part's own, calibrated to its own share of the budget (see parts)",
                "basic composition: Dwork & Roth 2014, Section 3.5, Theorem 3.16 (epsilons and deltas add up); each "
                        + "part cites its own mechanism",
                PrivacyProfile.compose(parts.stream().map(PrivacyGuarantee::profile).toList()));
        return new ComposedGuarantee(overall, parts, Rule.BASIC);
    }

    /**
     * The whole release's ε.
     *
     * @return ε of {@link #overall()}
     */
    public double epsilon() {
        return overall.epsilon();
    }

    /**
     * The whole release's δ.
     *
     * @return δ of {@link #overall()}
     */
    public double delta() {
        return overall.delta();
    }

    /**
     * The relation every part shares.
     *
     * @return the neighbouring relation of {@link #overall()}
     */
    public Neighbouring neighbouring() {
        return overall.neighbouring();
    }

    /**
     * The guarantee in words, for a person: the whole release's (ε, δ) and relation, and for a composition
     * its rule and one line per part (its (ε, δ) and mechanism, in the order spent), e.g.
     * <pre>
     * (ε=1.0, δ=1.0E-6)-differential privacy, neighbouring: replace one row (n public); basic composition of 3 parts:
     *   (ε=0.1, δ=1.0E-7) private mean (Gaussian mechanism on the sum)
     *   (ε=0.1, δ=1.0E-7) private trace (Gaussian mechanism on the sum of squared row norms)
     *   (ε=0.8, δ=8.0E-7) AnalyzeGauss (DP-Gauss-1)
     * </pre>
     * A single mechanism's guarantee is one line naming it. Each line ends with a line separator.
     *
     * @return the lines
     */
    public String describe() {
        String nl = System.lineSeparator();
        StringBuilder sb = new StringBuilder();
        sb.append(overall.params()).append("-differential privacy, neighbouring: ")
                .append(overall.neighbouring().description());
        if (rule == Rule.SINGLE) {
            return sb.append("; ").append(overall.mechanism()).append(nl).toString();
        }
        sb.append("; ").append(rule.name().toLowerCase(java.util.Locale.ROOT)).append(" composition of ")
                .append(parts.size()).append(" parts:").append(nl);
        for (PrivacyGuarantee part : parts) {
            sb.append("  ").append(part.params()).append(' ').append(part.mechanism()).append(nl);
        }
        return sb.toString();
    }

    /**
     * The estimator's own guarantee: the last part.
     *
     * @return the last part
     */
    public PrivacyGuarantee estimator() {
        return parts.get(parts.size() - 1);
    }
}
