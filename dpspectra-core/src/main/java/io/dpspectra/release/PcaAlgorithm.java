package io.dpspectra.release;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;

/**
 * One principal-components estimator of the table of names ({@link Algorithms#pca()}): its name, the facts a
 * release plans with (private or not, needs δ, how its share is spent for zCDP, forms d × d matrices,
 * passes, reads its rows once, releases a spectrum), the options it reads, the checks of those options, and
 * its fit. A descriptor translates typed {@link PcaOptions} into the core builder and calls the
 * algorithm's own {@code fit}: every algorithm, and all its noise, is the core class's.
 *
 * <p>Messages name settings through a {@link Vocabulary}, so that the command line, Java and Spark each
 * report what their user typed.
 */
public abstract class PcaAlgorithm {
    /** The paper (and so the group of options) an algorithm belongs to. */
    public enum Family {
        /** DP-Gauss-1 and the exact reference (Dwork, Talwar, Thakurta &amp; Zhang 2014). */
        FOUNDATION(EnumSet.noneOf(Setting.class)),
        /** The stochastic k-PCA algorithms (Düngler &amp; Sanyal) and this project's adaptive variant. */
        STOCHASTIC(EnumSet.range(Setting.BATCH_SIZE, Setting.ON_SMALL_GAP)),
        /** The noisy, streaming and private power methods (Hardt &amp; Price 2014). */
        POWER_METHOD(EnumSet.range(Setting.ITERATIONS, Setting.PERTURBATION_SIGMA)),
        /** Private PCA from iterative eigenvector sampling (Amin et al. 2019). */
        EIGENVECTOR_SAMPLING(EnumSet.range(Setting.IES_FAILURE_PROBABILITY, Setting.EIGENVALUES)),
        /** Outlier-robust PCA on the Grassmannian and REAPER (Maunu, Yu &amp; Lerman). */
        ROBUST(EnumSet.range(Setting.STEP_SIZE, Setting.PAPER_CONSTANT));

        private final Set<Setting> options;

        Family(Set<Setting> options) {
            this.options = options;
        }

        /**
         * The algorithm options this family declares.
         *
         * @return the options
         */
        public Set<Setting> options() {
            return EnumSet.copyOf(options.isEmpty() ? EnumSet.noneOf(Setting.class) : options);
        }

        /**
         * The family that declares the algorithm option {@code option}, or null for a setting of every release.
         *
         * @param option an algorithm option
         * @return the family, or null
         */
        public static Family declaring(Setting option) {
            for (Family f : values()) {
                if (f.options.contains(option)) {
                    return f;
                }
            }
            return null;
        }
    }

    /**
     * What a fit is handed.
     *
     * @param rows         the bounded rows (clipped or checked against their declared bound); re-iterable
     * @param rowCounter   the number of rows (public under replace-one), asked only by an algorithm that needs n
     *                     before its own pass (a CSV is then counted in an extra pass)
     * @param components   k (d with a {@code chooser})
     * @param params       the budget to spend; null for a non-private algorithm
     * @param neighbouring the relation, or null for the algorithm's own default
     * @param random       the noise source; for a non-private algorithm, the randomness of its random start
     *                     (null: secure)
     * @param warn         receives one-line warnings
     * @param chooser      null for a fixed k; for an algorithm that {@linkplain #releasesSpectrum releases a
     *                     spectrum}, picks k from its d released eigenvalues (descending)
     */
    public record Input(ClippedRows rows, LongSupplier rowCounter, int components, PrivacyParams params,
                        Neighbouring neighbouring, RandomSource random, Consumer<String> warn,
                        ToIntFunction<double[]> chooser) {
        /**
         * Checks that rows, the counter and the warning sink are given.
         *
         * @param rows         the bounded rows
         * @param rowCounter   the number of rows, asked only when needed
         * @param components   k
         * @param params       the budget, or null for a non-private algorithm
         * @param neighbouring the relation, or null for the algorithm's own
         * @param random       the noise source, or a non-private algorithm's randomness (null: secure)
         * @param warn         the warning sink
         * @param chooser      null, or the choice of k from released eigenvalues
         */
        public Input {
            Objects.requireNonNull(rows, "rows");
            Objects.requireNonNull(rowCounter, "rowCounter");
            Objects.requireNonNull(warn, "warn");
        }

        /**
         * The number of rows; may cost a counting pass the first time (see rowCounter).
         *
         * @return n
         */
        public long rowCount() {
            return rowCounter.getAsLong();
        }
    }

    private final String name;
    private final Family family;
    private final boolean isPrivate;
    private final boolean needsDelta;
    private final boolean formsDxD;
    private final Set<Setting> reads;

    /**
     * @param reads the options this algorithm reads: its family's it uses, and any it borrows from another
     *              family
     */
    PcaAlgorithm(String name, Family family, boolean isPrivate, boolean needsDelta, boolean formsDxD,
                 Set<Setting> reads) {
        this.name = name;
        this.family = family;
        this.isPrivate = isPrivate;
        this.needsDelta = needsDelta;
        this.formsDxD = formsDxD;
        this.reads = reads.isEmpty() ? EnumSet.noneOf(Setting.class) : EnumSet.copyOf(reads);
    }

    /**
     * The name, lower case with dashes, e.g. {@code k-dp-ojas}: the same everywhere (CLI, Java, Spark).
     *
     * @return the fact
     */
    public final String name() {
        return name;
    }

    /**
     * One line for a list of algorithms: what it is, its paper, and what it needs (naming settings through {@code
     * v}).
     *
     * @param v the words of the messages
     * @return the line
     */
    public abstract String summary(Vocabulary v);

    /**
     * The paper (group of options) it belongs to.
     *
     * @return the fact
     */
    public final Family family() {
        return family;
    }

    /**
     * False only for the non-private references (exact PCA, Oja, the power methods, ggd, sggd): their output
     * reveals the data.
     *
     * @return the fact
     */
    public final boolean isPrivate() {
        return isPrivate;
    }

    /**
     * True for a Gaussian-type mechanism that needs δ &gt; 0.
     *
     * @return the fact
     */
    public final boolean needsDelta() {
        return needsDelta;
    }

    /**
     * How the estimator's share of the budget is spent with the default options, for its zCDP cost and its privacy
     * profile: {@link NoiseKind#PURE} unless it needs δ; {@link NoiseKind#GAUSSIAN} for Gaussian releases without
     * subsampling calibrated together to its (ε, δ); else {@link NoiseKind#OTHER}.
     *
     * @return the fact
     */
    public NoiseKind noise() {
        return needsDelta ? NoiseKind.OTHER : NoiseKind.PURE;
    }

    /**
     * How the estimator's share is spent with {@code options} (an option such as the paper's literal noise can change
     * it): what a zCDP ledger charges ({@link NoiseKind#rho}) and a PLD ledger composes ({@link NoiseKind#profile}).
     * Default {@link #noise()}.
     *
     * @param options the algorithm options
     * @return the fact
     */
    public NoiseKind noise(PcaOptions options) {
        return noise();
    }

    /**
     * True if it forms d × d matrices (a Gram pass, an eigendecomposition): memory O(d²), checked before reading.
     *
     * @return the fact
     */
    public final boolean formsDxD() {
        return formsDxD;
    }

    /**
     * Passes over the rows with {@code options} (its own; a CSV may need one more to count n).
     *
     * @param options the algorithm options
     * @return the fact
     */
    public int passes(PcaOptions options) {
        return 1;
    }

    /**
     * True if it reads its rows exactly once and never asks for n before that pass (one Gram pass): a stream can
     * then be read without a copy for a second pass.
     *
     * @return the fact
     */
    public boolean readsOnce() {
        return false;
    }

    /**
     * True if, with {@code options}, the fit releases all d private eigenvalues before anything that depends on k
     * and honours {@link Input#chooser()}: an automatic k then costs only a private trace.
     *
     * @param options the algorithm options
     * @return the fact
     */
    public boolean releasesSpectrum(PcaOptions options) {
        return false;
    }

    /**
     * Whether it reads {@code option} (one of its family's, or one it borrows).
     *
     * @param option an algorithm option
     * @return the fact
     */
    public final boolean reads(Setting option) {
        return reads.contains(option);
    }

    /**
     * Checks {@code options} before any data is read: the values of the options this algorithm checks, then that
     * every option given is one it reads (an option it would ignore is refused, not silently dropped).  @throws
     * ReleaseSettingException naming the setting through {@code v}
     *
     * @param options the algorithm options
     * @param v the words of the messages
     */
    public final void check(PcaOptions options, Vocabulary v) {
        validate(options, v);
        for (Setting given : options.given()) {
            if (!reads(given)) {
                Family owner = Family.declaring(given);
                List<String> users = Algorithms.pca().stream()
                        .filter(a -> a.family == owner && a.reads(given)).map(PcaAlgorithm::name).toList();
                throw new ReleaseSettingException(v.name(given) + " does not apply to "
                        + v.typed(Setting.ALGORITHM, name), "drop " + v.name(given)
                        + ", or choose an algorithm it applies to: " + String.join(", ", users));
            }
        }
    }

    /** Checks the values of the options this algorithm checks (those it reads, and any its paper ties to them). */
    void validate(PcaOptions options, Vocabulary v) {
    }

    /**
     * Checks, before any data is read, that this algorithm is certified under {@code neighbouring} (null: its own
     * default) with {@code options}.  @throws ReleaseSettingException naming the relation through {@code v}
     *
     * @param neighbouring the relation, or null for the algorithm's own
     * @param options the algorithm options
     * @param v the words of the messages
     */
    public void checkRelation(Neighbouring neighbouring, PcaOptions options, Vocabulary v) {
    }

    /**
     * Runs the algorithm on {@code in} with {@code options} (checked by {@link #check}); settings are named
     * through {@code v} in warnings and errors.
     *
     * @param in the rows, k, the budget and the randomness
     * @param options the algorithm options
     * @param v the words of the messages
     * @return the subspace
     */
    public abstract PrivateSubspace fit(Input in, PcaOptions options, Vocabulary v);

    /** A refusal of a setting: {@code message} and {@code hint} name it as the user gave it. */
    static ReleaseSettingException refuse(String message, String hint) {
        return new ReleaseSettingException(message, hint);
    }

    /** Refuses add/remove neighbours for an algorithm certified under replace-one only. */
    static void requireReplace(Neighbouring n, Vocabulary v, String why) {
        if (n == Neighbouring.ADD_REMOVE_ROW) {
            throw refuse(why, "drop " + v.name(Setting.NEIGHBOURING) + " or pass " + v.typed(Setting.NEIGHBOURING,
                    "replace"));
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
