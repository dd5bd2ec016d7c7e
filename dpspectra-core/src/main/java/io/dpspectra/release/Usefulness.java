package io.dpspectra.release;

import io.dpspectra.advice.ReleaseAdvisor;

/**
 * The check a release runs before it spends anything: the {@linkplain ReleaseAdvisor advisor}'s prediction, from
 * public facts only (n, d, k, the estimator's (ε, δ), the bound and the share of it the rows are known to fill),
 * of whether the estimator recovers directions holding the expected share of the variance each. A release
 * predicted useless is warned about through the {@link ReleaseListener}, or refused with a
 * {@link UselessReleaseException} before any noise is drawn (nothing spent).
 *
 * <p>n is counted from the rows before spending ({@link StatisticSource#rowCount}): public under replace-one
 * neighbouring; under add/remove it is the data's fact, and the verdict is for the data's curator (a refusal
 * then depends on n, which add/remove protects: refuse only where n is public, or treat the refusal as the
 * curator's decision, unpublished).
 *
 * @param expectedShare the share of the variance each wanted direction is expected to hold, in (0, 1]; NaN for
 *                      the advisor's default ({@link ReleaseAdvisor#defaultExpectedShare})
 * @param refuse        true to refuse a release predicted useless, false to warn
 */
public record Usefulness(double expectedShare, boolean refuse) {
    /** Warns, at the advisor's default expected share: the default of a release chain. */
    public static final Usefulness WARN = new Usefulness(Double.NaN, false);
    /** Refuses, at the advisor's default expected share. */
    public static final Usefulness REFUSE = new Usefulness(Double.NaN, true);

    /**
     * Checks the share.
     *
     * @param expectedShare the share, in (0, 1], or NaN for the default
     * @param refuse        refuse rather than warn
     * @throws ReleaseSettingException for a share outside (0, 1]
     */
    public Usefulness {
        if (!Double.isNaN(expectedShare) && !(expectedShare > 0 && expectedShare <= 1)) {
            throw new ReleaseSettingException(Vocabulary.JAVA.typed(Setting.EXPECT_VARIANCE_SHARE,
                    String.valueOf(expectedShare)) + ": the share must be in (0, 1]", "e.g. "
                    + Vocabulary.JAVA.typed(Setting.EXPECT_VARIANCE_SHARE, "0.2")
                    + " for directions holding a fifth of the variance each");
        }
    }

    /**
     * Warns when directions holding {@code share} of the variance each are predicted not to be recovered.
     *
     * @param share the expected share, in (0, 1]
     * @return the check
     */
    public static Usefulness expecting(double share) {
        return new Usefulness(share, false);
    }

    /**
     * This check, refusing instead of warning.
     *
     * @return the refusing check
     */
    public Usefulness refusing() {
        return new Usefulness(expectedShare, true);
    }

    /**
     * Whether the expected share was stated (else the advisor's default).
     *
     * @return true when stated
     */
    public boolean stated() {
        return !Double.isNaN(expectedShare);
    }

    /**
     * The expected share in dimension d for k directions: as stated, else the advisor's default.
     *
     * @param d the dimension
     * @param k the number of directions
     * @return the share
     */
    public double share(int d, int k) {
        return stated() ? expectedShare : ReleaseAdvisor.defaultExpectedShare(d, k);
    }
}
