package io.dpspectra.cli;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.PrivateSubspace;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.io.IOException;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One algorithm that {@code dpspectra fit --algorithm NAME} can run. The CLI holds no algorithm logic: an
 * implementation only translates its options into the core builder and calls {@code fit}.
 *
 * <p>Algorithms are grouped in {@link AlgorithmFamily} mixins (one per paper) so that each family owns its
 * command-line options; {@link FitCommand} lists the families.
 */
interface FitAlgorithm {
    /** The {@code --algorithm} value, lower case with dashes, e.g. {@code k-dp-ojas}. */
    String name();

    /** One line for {@code --help}: what it is, its paper, and what it needs (e.g. δ &gt; 0). */
    String summary();

    /** False only for non-private references (exact PCA, Oja): their output reveals the data. */
    default boolean isPrivate() {
        return true;
    }

    /** True if the algorithm is a Gaussian-type mechanism that needs δ &gt; 0. */
    default boolean needsDelta() {
        return false;
    }

    /**
     * True if every noise the algorithm adds is Gaussian, without subsampling (e.g. one Gaussian release of
     * XᵀX): its zCDP cost is then that of the Gaussian mechanism meeting its (ε, δ), which a zCDP ledger
     * charges. Default false (no zCDP cost unless pure ε).
     */
    default boolean gaussianOnly() {
        return false;
    }

    /**
     * True if the fit releases all d private eigenvalues (XᵀX units) before anything that depends on k, and
     * honours {@link FitContext#chooser()}: then {@code --components auto} takes k from them over a private
     * trace (post-processing), spending only on the trace. Default false: a separate private spectrum is bought.
     */
    default boolean releasesSpectrum() {
        return false;
    }

    /**
     * True if the algorithm forms d x d matrices (a Gram pass, an eigendecomposition of XᵀX): its memory is
     * checked against the heap before any row is read. Streaming algorithms (O(dk)) return false.
     */
    default boolean formsDxD() {
        return true;
    }

    /**
     * How many passes over the rows the algorithm makes (its own; a CSV may need one more to count n). Above
     * one, {@code fit} on a CSV suggests converting it to .dpsr once, and says how many passes to expect.
     */
    default int passes() {
        return 1;
    }

    /**
     * True if the algorithm reads its rows exactly once and never asks for n before that pass (one Gram
     * pass, which counts n as it goes): standard input is then streamed, without the temporary copy that
     * a second pass would read. Default false: the copy is kept, which is always safe.
     */
    default boolean readsOnce() {
        return false;
    }

    /**
     * Whether this algorithm uses its family's option {@code name} (its longest name, e.g. "--tau"). Options
     * of other families never apply; {@link FitCommand} refuses an option typed for an algorithm that does
     * not use it (exit 2). Default: every option of the family.
     */
    default boolean usesOption(String name) {
        return true;
    }

    /**
     * True for an option declared by ANOTHER family that this algorithm reads too (the robust-PCA family shares
     * --iterations, --batch-size and --paper-literal with the power-method and stochastic families). Default: none.
     */
    default boolean borrowsOption(String name) {
        return false;
    }

    /**
     * Validates the family's own options before any data is read (throw {@link CliException#usage} on a bad
     * value). Called once the algorithm is chosen.
     */
    default void validateOptions() {
    }

    /** Runs the algorithm. */
    PrivateSubspace fit(FitContext context) throws IOException;

    /**
     * What {@code fit} hands to an algorithm.
     *
     * @param rows the bounded rows (clipped or rejected by the user's bound); re-iterable
     * @param rowCounter the number of rows (public under REPLACE_ROW), through {@link #rowCount()}: free for a
     *                   .dpsr file, an extra counting pass for a CSV, so ask only when the algorithm needs n
     *                   before its own pass
     * @param components k
     * @param params the budget to spend; null for a non-private algorithm
     * @param neighbouring the requested relation, or null for the algorithm's own default
     * @param random the noise source; null for a non-private algorithm
     * @param warn prints a one-line warning on stderr
     * @param chooser null for a fixed k; for {@code --components auto} with an algorithm that
     *                {@link #releasesSpectrum()}, picks k from its released eigenvalues (all d, descending),
     *                and {@code components} is d
     */
    record FitContext(ClippedRows rows, LongSupplier rowCounter, int components, PrivacyParams params,
            Neighbouring neighbouring, RandomSource random, Consumer<String> warn,
            java.util.function.ToIntFunction<double[]> chooser) {
        /** The number of rows; costs a counting pass over a CSV the first time (see rowCounter). */
        long rowCount() {
            return rowCounter.getAsLong();
        }
    }
}
