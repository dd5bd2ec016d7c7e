package io.dpspectra.pca;

import io.dpspectra.data.RowSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;

/**
 * The entry points shared by the private deflation estimators (k-DP-PCA, its adaptive variant, k-DP-Ojas):
 * each fits either rows (A_i = x_i x_iᵀ) or general PSD samples A_i, after the same checks of the budget
 * (δ &gt; 0) and of k against the dimension.
 */
abstract class DeflationEstimator implements SubspaceEstimator {
    /** The number of components k. */
    abstract int components();

    /** The algorithm's name in error messages, e.g. "k-DP-PCA". */
    abstract String algorithmName();

    /** Fits the checked samples; {@code rows} is the row source behind them, or null (for diagnostics). */
    abstract PrivateSubspace fitChecked(AiSource samples, RowSource rows, PrivacyParams budget);

    @Override
    public final PrivateSubspace fit(RowSource rows, PrivacyParams budget) {
        return fit(AiSource.ofRows(rows), rows, budget);
    }

    /**
     * Fits on general PSD samples A_i (e.g. {@link LowRankPlusRankOneSamples}).
     *
     * @param samples the samples, with a declared trace bound
     * @param budget  the (ε, δ) to spend
     * @return the d × k basis with its guarantee and diagnostics
     */
    public final PrivateSubspace fit(AiSource samples, PrivacyParams budget) {
        return fit(samples, null, budget);
    }

    private PrivateSubspace fit(AiSource samples, RowSource rows, PrivacyParams budget) {
        DeflationFits.checkBudget(budget, algorithmName());
        DpPreconditions.checkComponents(components(), samples.dimension());
        return fitChecked(samples, rows, budget);
    }
}
