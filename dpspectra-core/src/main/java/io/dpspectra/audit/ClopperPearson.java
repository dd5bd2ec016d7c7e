package io.dpspectra.audit;

import io.dpspectra.privacy.DpPreconditions;

/**
 * One-sided Clopper–Pearson (exact binomial) confidence bounds on a success probability p from k
 * successes in n independent trials.
 *
 * <p>With confidence c = 1 − α: the upper bound is the (1−α)-quantile of Beta(k+1, n−k) (1 when k = n),
 * the lower bound the α-quantile of Beta(k, n−k+1) (0 when k = 0). Each holds with probability at least
 * c whatever p is. Reference: Clopper &amp; Pearson, Biometrika 1934.
 */
public final class ClopperPearson {
    private ClopperPearson() {
    }

    /**
     * The one-sided upper confidence bound on p at {@code confidence}.
     *
     * @param successes the number of successes, 0 ≤ successes ≤ trials
     * @param trials the number of Bernoulli trials, ≥ 1
     * @param confidence the confidence level, in (0, 1)
     * @return the smallest p̂ such that p ≤ p̂ with probability at least {@code confidence}; 1 when every trial
     *         succeeded
     */
    public static double upperBound(long successes, long trials, double confidence) {
        check(successes, trials, confidence);
        if (successes == trials) {
            return 1;
        }
        return SpecialFunctions.inverseRegularizedBeta(confidence, successes + 1.0, (double) (trials - successes));
    }

    /**
     * The one-sided lower confidence bound on p at {@code confidence}.
     *
     * @param successes the number of successes, 0 ≤ successes ≤ trials
     * @param trials the number of Bernoulli trials, ≥ 1
     * @param confidence the confidence level, in (0, 1)
     * @return the largest p̂ such that p ≥ p̂ with probability at least {@code confidence}; 0 when no trial succeeded
     */
    public static double lowerBound(long successes, long trials, double confidence) {
        check(successes, trials, confidence);
        if (successes == 0) {
            return 0;
        }
        return SpecialFunctions.inverseRegularizedBeta(1 - confidence, successes, trials - successes + 1.0);
    }

    private static void check(long successes, long trials, double confidence) {
        if (trials < 1 || successes < 0 || successes > trials) {
            throw new IllegalArgumentException("need 0 <= successes <= trials and trials >= 1, got successes="
                    + successes + ", trials=" + trials);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be in (0, 1), got " + confidence
                    + "; use e.g. 0.95");
        }
        DpPreconditions.checkAtLeast("trials", (int) Math.min(trials, Integer.MAX_VALUE), 1);
    }
}
