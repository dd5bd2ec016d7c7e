package io.dpspectra.release;

/**
 * How many principal components a release keeps: a fixed k, or the smallest k whose private
 * explained-variance ratio reaches a threshold T, from a private spectrum bought with a share F of the
 * budget (only a private trace for an estimator that releases its eigenvalues itself).
 *
 * @param k         the fixed k ≥ 1, or 0 for an automatic choice
 * @param threshold T in (0, 1] for an automatic choice, else NaN
 * @param share     F in (0, 1) for an automatic choice, else 0
 */
public record Components(int k, double threshold, double share) {
    /** The default share of the budget of the private spectrum behind an automatic k. */
    public static final double DEFAULT_SPECTRUM_SHARE = 0.1;

    /**
     * Checks the fields.
     *
     * @param k         k, or 0
     * @param threshold T, or NaN
     * @param share     F, or 0
     */
    public Components {
        if (k == 0) {
            if (!(threshold > 0 && threshold <= 1) || !(share > 0 && share < 1)) {
                throw new IllegalArgumentException("an automatic k needs a threshold T in (0, 1] and a share F in "
                        + "(0, 1), got T = " + threshold + ", F = " + share + "; e.g. auto(0.9)");
            }
        } else if (k < 1) {
            throw new IllegalArgumentException("components k must be >= 1, got " + k);
        }
    }

    /**
     * A fixed number of components.
     *
     * @param k k ≥ 1 (at most d, checked against the data's public width)
     * @return the choice
     */
    public static Components fixed(int k) {
        return new Components(k, Double.NaN, 0);
    }

    /**
     * The smallest k whose private explained-variance ratio reaches {@code threshold}, spending
     * {@link #DEFAULT_SPECTRUM_SHARE} of the budget on the spectrum.
     *
     * @param threshold T in (0, 1]
     * @return the choice
     */
    public static Components auto(double threshold) {
        return auto(threshold, DEFAULT_SPECTRUM_SHARE);
    }

    /**
     * As {@link #auto(double)}, spending {@code share} of the budget on the spectrum.
     *
     * @param threshold T in (0, 1]
     * @param share     F in (0, 1)
     * @return the choice
     */
    public static Components auto(double threshold, double share) {
        return new Components(0, threshold, share);
    }

    /**
     * Whether k is chosen from a private spectrum.
     *
     * @return true for {@link #auto}
     */
    public boolean isAuto() {
        return k == 0;
    }

    /**
     * The choice in text: k, or auto:T (auto:T:F with a share other than the default).
     *
     * @return the text
     */
    @Override
    public String toString() {
        return !isAuto() ? String.valueOf(k) : "auto:" + threshold + (share == DEFAULT_SPECTRUM_SHARE ? "" : ":" + share);
    }
}
