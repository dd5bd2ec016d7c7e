package io.dpspectra.release;

import io.dpspectra.Diagnostics;
import io.dpspectra.covariance.PrivateSpectrum;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.PrivateTrace;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.SchemaFile;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.ComposedGuarantee;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.privacy.ReleaseRefusedException;
import io.dpspectra.result.PrivateSubspace;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * A private principal-components release from rows, the whole of {@code dpspectra fit} as one chain: the
 * public schema, the row-norm bound (given, the schema's, or a private quantile), the centring (none, the
 * schema's public centres, or a private mean), the number of components (fixed, or chosen from a private
 * spectrum), the estimator of the one table of names and its options, and the budget they share:
 * <pre>{@code
 * PcaRelease release = PrivatePca.of(RowInput.csv(Path.of("wine.csv")))
 *         .schema(SchemaFile.read(Path.of("docs/schemas/wine.json")))
 *         .centre(Centring.PRIVATE)                 // a private mean, 10% of the budget
 *         .components(Components.auto(0.9))         // the smallest k explaining 90%, privately
 *         .algorithm("analyze-gauss")
 *         .fit(PrivacyParams.of(1, 1e-6));
 * release.components();   // d × k
 * release.guarantee();    // every private part, composed
 * }</pre>
 * Each setter returns a new chain (the chain is immutable). {@link #fit(PrivacyParams)} checks every setting
 * and splits the budget ({@link #plan}) before it draws any noise (reading the rows only to count them, when an
 * automatic private-bound share or the {@linkplain #usefulness usefulness check} needs n); then it runs the private
 * preprocessing over the seam of exact statistics ({@link StatisticSource}), buys the spectrum of an automatic
 * k, and runs the estimator on the estimator's share. The same settings and seed give the release the command
 * line gives.
 *
 * <p>Privacy: one row is the unit, or one person with {@link #privacyUnit} (every part then bounds a person's
 * whole group of rows, see {@link PrivacyUnit}); every part (bound, mean, spectrum or trace, estimator) is
 * certified under one neighbouring relation (replace-one when parts compose and none is named) and the parts compose by basic
 * composition to the budget given ({@link PcaRelease#guarantee()}). The count of the rows that plans an
 * automatic bound share is used only under replace-one, where neighbours have the same n (a public fact); the
 * usefulness check's verdict depends on n and public settings only (under add/remove, n is the curator's fact). Without {@link #randomSource} the noise is
 * SecureRandom's; a seeded source is for reproducibility only.
 *
 * <p>Defaults: algorithm analyze-gauss, its options' defaults ({@link PcaOptions}), the bound the schema implies,
 * the schema's public centres when it declares any (else none), the algorithm's own relation. The number of
 * components has no default.
 */
public final class PrivatePca {
    private final Settings settings;
    private final PcaAlgorithm algorithm;
    private final PcaOptions options;
    private final Components components;
    /** The check before spending, or null for none. */
    private final Usefulness usefulness;

    private PrivatePca(Settings settings, PcaAlgorithm algorithm, PcaOptions options, Components components,
                       Usefulness usefulness) {
        this.settings = settings;
        this.algorithm = algorithm;
        this.options = options;
        this.components = components;
        this.usefulness = usefulness;
    }

    /**
     * A release of the rows {@code input} opens (a local CSV, rows in memory, a cluster's dataset).
     *
     * @param input where the rows come from
     * @return the chain
     */
    public static PrivatePca of(RowInput input) {
        return new PrivatePca(Settings.of(input), Algorithms.findPca("analyze-gauss").orElseThrow(),
                PcaOptions.defaults(), null,
                Usefulness.WARN);
    }

    /**
     * A release of numeric rows as they are (no schema), named x1..xd.
     *
     * @param rows the rows, one per privacy unit
     * @return the chain
     */
    public static PrivatePca of(RowSource rows) {
        return of(RowInput.of(rows));
    }

    private PrivatePca with(Settings s) {
        return new PrivatePca(s, algorithm, options, components, usefulness);
    }

    /**
     * The privacy unit: one row (the default), or one person, all rows with one value of a column, of whom at most
     * M rows are kept, each clipped to B/√M so that the person's whole contribution to the second moment is bounded
     * as one row's of norm B is ({@link PrivacyUnit}). The column is read for grouping only, never as a feature;
     * the input must be able to group by it ({@link RowInput#csv}, {@link RowInput#byUnit}). Only the estimators of
     * {@link Algorithms#PERSON_LEVEL_PCA} honour a person; the others are refused by name. With
     * {@link PrivacyUnit#frobenius} only the Frobenius norm of the person's contribution is bounded by B² (up to √M
     * times more signal for a person whose rows point in different directions): {@link Algorithms#FROBENIUS_PCA}
     * with a fixed k accept it, the others and an automatic k are refused by name. The usefulness check,
     * which predicts for rows, is skipped.
     *
     * @param unit the unit, e.g. {@code PrivacyUnit.column("customer", 20)}
     * @return a new chain
     */
    public PrivatePca privacyUnit(PrivacyUnit unit) {
        return with(settings.unit(unit));
    }

    /**
     * Reads the rows' text cells through a public schema (clamping, standardising, one-hot encoding), whose
     * numeric bounds imply a row-norm bound by construction.
     *
     * @param schema the schema and its file format
     * @return a new chain
     */
    public PrivatePca schema(SchemaFile schema) {
        return with(settings.schema(schema));
    }

    /**
     * How rows are centred before the estimator.
     *
     * @param centring none, the schema's public centres, or a private mean
     * @return a new chain
     */
    public PrivatePca centre(Centring centring) {
        return with(settings.centring(centring));
    }

    /**
     * The row-norm bound every part is calibrated to.
     *
     * @param bound given, the schema's, or a private quantile
     * @return a new chain
     */
    public PrivatePca bound(RowBound bound) {
        return with(settings.bound(bound));
    }

    /**
     * The number of components.
     *
     * @param choice a fixed k, or an automatic one from a private spectrum
     * @return a new chain
     */
    public PrivatePca components(Components choice) {
        return new PrivatePca(settings, algorithm, options, Objects.requireNonNull(choice, "components"),
                usefulness);
    }

    /**
     * A fixed number of components.
     *
     * @param k k, 1 ≤ k ≤ d
     * @return a new chain
     */
    public PrivatePca components(int k) {
        return components(Components.fixed(k));
    }

    /**
     * The estimator, by its name in the table of names (any case).
     *
     * @param name e.g. "analyze-gauss", "k-dp-ojas"
     * @return a new chain
     * @throws ReleaseSettingException for an unknown name
     */
    public PrivatePca algorithm(String name) {
        return algorithm(Algorithms.pca(name, settings.vocabulary()));
    }

    /**
     * The estimator.
     *
     * @param estimator one of {@link Algorithms#pca()}
     * @return a new chain
     */
    public PrivatePca algorithm(PcaAlgorithm estimator) {
        return new PrivatePca(settings, Objects.requireNonNull(estimator, "algorithm"), options, components,
                usefulness);
    }

    /**
     * The estimator's options (each must be one it reads).
     *
     * @param estimatorOptions the options
     * @return a new chain
     */
    public PrivatePca options(PcaOptions estimatorOptions) {
        return new PrivatePca(settings, algorithm, Objects.requireNonNull(estimatorOptions, "options"), components,
                usefulness);
    }

    /**
     * The neighbouring relation of the guarantee.
     *
     * @param relation add/remove or replace-one rows, or null for the default
     * @return a new chain
     */
    public PrivatePca neighbouring(Neighbouring relation) {
        return with(settings.neighbouring(relation));
    }

    /**
     * The noise source; SecureRandom when not set. Every release drawn from the chain draws on from this one
     * source, so a second release never replays the first's noise; the same seed gives the same release only
     * from a new source (a new chain with {@code RandomSource.seededForReproducibility(seed)}).
     *
     * @param random the source ({@link RandomSource#seededForReproducibility} for reproducible runs only)
     * @return a new chain
     */
    public PrivatePca randomSource(RandomSource random) {
        return with(settings.random(random));
    }

    /**
     * Who hears the release's notes and warnings, and the data's width before any row is read.
     *
     * @param listener the listener
     * @return a new chain
     */
    public PrivatePca listener(ReleaseListener listener) {
        return with(settings.listener(listener));
    }

    /**
     * The check before spending ({@link Usefulness}): the advisor's prediction from public facts, a warning
     * through the {@linkplain #listener listener} or a refusal ({@link UselessReleaseException}) when the
     * release is predicted useless. Default: {@link Usefulness#WARN}. It counts the rows first (one pass, which
     * the release then reuses), for the algorithms the advisor covers.
     *
     * @param check the check
     * @return a new chain
     */
    public PrivatePca usefulness(Usefulness check) {
        return new PrivatePca(settings, algorithm, options, components, Objects.requireNonNull(check, "usefulness"));
    }

    /**
     * No check before spending (no count of the rows for it).
     *
     * @return a new chain
     */
    public PrivatePca withoutUsefulnessCheck() {
        return new PrivatePca(settings, algorithm, options, components, null);
    }

    /**
     * The words in which messages name the settings; the Java API's by default.
     *
     * @param vocabulary the words (the command line passes its own)
     * @return a new chain
     */
    public PrivatePca vocabulary(Vocabulary vocabulary) {
        return with(settings.vocabulary(vocabulary));
    }

    /**
     * Checks every setting that needs no budget, before any data: the preprocessing settings, the number of
     * components, the estimator's options, and that a non-private estimator is not asked for private
     * preprocessing or an automatic k.
     *
     * @throws ReleaseSettingException naming the setting through the vocabulary
     */
    public void check() {
        Vocabulary v = settings.vocabulary();
        settings.check();
        if (components == null) {
            throw new ReleaseSettingException(v.name(Setting.COMPONENTS) + " is required: a number k, or an automatic "
                    + "choice", "e.g. " + v.typed(Setting.COMPONENTS, "2"));
        }
        algorithm.check(options, v);
        settings.checkUnitSupported(algorithm.name(), Algorithms.PERSON_LEVEL_PCA, Algorithms.FROBENIUS_PCA);
        if (components.isAuto() && settings.unit().boundsFrobeniusOnly()) {
            throw settings.refuseFrobenius(v.name(Setting.AUTO_COMPONENTS) + " releases a private trace or spectrum, "
                    + "calibrated to a bound on the trace of one person's contribution", "give k, e.g. "
                    + v.typed(Setting.COMPONENTS, "2"));
        }
        if (!algorithm.isPrivate() && (settings.preprocessingSpends() || components.isAuto())) {
            throw new ReleaseSettingException(v.typed(Setting.ALGORITHM, algorithm.name()) + " is not private, so "
                    + v.name(Setting.PRIVATE_CENTRE) + ", " + v.name(Setting.PRIVATE_BOUND) + " and "
                    + v.name(Setting.AUTO_COMPONENTS) + " do not apply", "give k and a bound");
        }
    }

    /**
     * Checks every setting and splits {@code total} between the private parts, before any noise is drawn: what
     * a ledger is charged with ({@link BudgetPlan#total()}, {@link BudgetPlan#rho()}). Reads no row, except to
     * count them ({@link StatisticSource#rowCount}, a pass the fit of this plan then saves) when n plans
     * something: an automatic private-bound share ({@link RowBound.PrivateQuantile#forPublicRows}, under
     * replace-one neighbouring, where n is public) and the usefulness check ({@link #usefulness}), which warns
     * through the listener or refuses here.
     *
     * @param total the whole release's (ε, δ)
     * @return the plan
     * @throws ReleaseSettingException for a setting that cannot be honoured
     * @throws IllegalArgumentException for δ = 0 with an estimator that needs δ
     * @throws UselessReleaseException when the release is predicted useless and the check refuses (nothing spent)
     */
    public BudgetPlan plan(PrivacyParams total) {
        check();
        Vocabulary v = settings.vocabulary();
        if (!algorithm.isPrivate()) {
            throw new ReleaseSettingException(v.typed(Setting.ALGORITHM, algorithm.name()) + " is not differentially "
                    + "private and spends no budget", "choose one of: " + String.join(", ", Algorithms.privatePcaNames())
                    + ", or call fitWithoutPrivacy() for a non-private reference");
        }
        if (algorithm.needsDelta()) {
            DpPreconditions.checkPositiveDelta(total.delta(), algorithm.name());
        }
        // every setting is checked on a provisional split before the rows are opened to count them
        BudgetPlan provisional = BudgetPlan.split(total, settings.effectiveBound(), settings.effectiveCentring(),
                components, algorithm.needsDelta(), algorithm.noise(options), v);
        algorithm.checkRelation(provisional.neighbouring(settings.neighbouring()), options, v);
        boolean check = usefulness != null && settings.unit().isRow() && UsefulnessWarning.covers(algorithm.name());
        StatisticSource counted = settings.autoBoundShare() || check ? settings.openForCount() : null;
        if (counted == null && check && usefulness.refuse()) {
            throw new ReleaseSettingException(v.name(Setting.REFUSE_USELESS) + " needs the number of rows before "
                    + "anything is spent, but the rows are read once", "give rows that can be read twice");
        }
        long n = Settings.count(counted);
        RowBound bound = settings.plannedBound(n, total.epsilon());
        BudgetPlan plan = BudgetPlan.split(total, bound, settings.effectiveCentring(), components,
                algorithm.needsDelta(), algorithm.noise(options), v);
        Neighbouring relation = plan.neighbouring(settings.neighbouring());
        if (check && n > 0) {
            checkUseful(n, counted.dimension(), plan, relation != null ? relation
                    : UsefulnessWarning.defaultNeighbouring(algorithm.name()), bound);
        }
        if (counted != null) {
            plan.keepOpened(counted);
        }
        return plan;
    }

    /** The usefulness check on public facts: a warning, or a refusal before anything is spent. */
    private void checkUseful(long n, int d, BudgetPlan plan, Neighbouring relation, RowBound bound) {
        Vocabulary v = settings.vocabulary();
        int k = components.isAuto() ? 1 : Math.min(components.k(), d);
        if (k >= d) {
            return; // every direction is kept: nothing to predict
        }
        double rowBound = bound instanceof RowBound.Given g ? g.bound()
                : bound instanceof RowBound.FromSchema ? settings.schemaBound().orElse(Double.NaN) : Double.NaN;
        double fill = bound instanceof RowBound.PrivateQuantile pq ? 1 - pq.quantile() : 1;
        double expected = usefulness.share(d, k);
        String useless = UsefulnessWarning.warning(algorithm.name(), new io.dpspectra.advice.ReleaseFacts(n, d, k,
                plan.estimator(), relation, rowBound, fill), expected, usefulness.stated(), v);
        if (useless == null) {
            return;
        }
        if (usefulness.refuse()) {
            throw new UselessReleaseException(useless + "; refused (" + v.name(Setting.REFUSE_USELESS)
                    + "): nothing was spent", "see " + v.advisor() + " for what would work");
        }
        settings.listener().warning(useless + " (" + v.name(Setting.REFUSE_USELESS) + " makes this a refusal "
                + "before anything is spent)");
    }

    /**
     * Makes the release, spending exactly {@code total}.
     *
     * @param total the whole release's (ε, δ)
     * @return the release
     * @throws RefusedReleaseException when the estimator documents a refusal (the budget counts as spent)
     */
    public PcaRelease fit(PrivacyParams total) {
        return fit(plan(total));
    }

    /**
     * Makes the release with a plan from {@link #plan} of this chain (after, say, charging a ledger with it).
     *
     * @param plan the plan
     * @return the release
     * @throws RefusedReleaseException when the estimator documents a refusal (the budget counts as spent)
     */
    public PcaRelease fit(BudgetPlan plan) {
        Objects.requireNonNull(plan, "plan");
        Neighbouring relation = plan.neighbouring(settings.neighbouring());
        RandomSource random = settings.effectiveRandom();
        Preprocessor.Prepared p = settings.prepare(plan, relation, random,
                algorithm.readsOnce() && !components.isAuto());
        try {
            return fit(plan, p, relation, random);
        } finally {
            Settings.close(p.source()); // a grouping's spill files go now, however the fit ended
        }
    }

    private PcaRelease fit(BudgetPlan plan, Preprocessor.Prepared p, Neighbouring relation, RandomSource random) {
        ClippedRows rows = p.rows();
        int d = rows.dimension();
        List<PrivacyGuarantee> spent = new ArrayList<>(p.spent());
        List<String> warnings = new ArrayList<>();
        PrivateSpectrum[] spectrum = new PrivateSpectrum[1];
        ToIntFunction<double[]> chooser = null;
        int k;
        if (components.isAuto() && algorithm.releasesSpectrum(options)) {
            // only the trace is bought; k comes from the estimator's own released eigenvalues over it
            PrivateTrace.Result trace = PrivateTrace.of(relation, random).release(rows, plan.spectrum().orElseThrow());
            spent.add(trace.guarantee());
            double threshold = components.threshold();
            chooser = ev -> {
                spectrum[0] = PrivateSpectrum.fromReleased(ev, trace, threshold, algorithm.name());
                return spectrum[0].k();
            };
            k = d;
        } else if (components.isAuto()) {
            spectrum[0] = PrivateSpectrum.release(rows, plan.spectrum().orElseThrow(), relation, random,
                    components.threshold());
            spent.add(spectrum[0].guarantee());
            k = spectrum[0].k();
        } else {
            k = components.k();
        }
        DpPreconditions.checkComponents(k, d);
        long start = System.nanoTime();
        PrivateSubspace result;
        try {
            result = algorithm.fit(new PcaAlgorithm.Input(rows, p.rowCount(), k, plan.estimator(), relation, random,
                    warner(warnings), chooser), options, settings.vocabulary());
        } catch (ReleaseRefusedException e) {
            throw new RefusedReleaseException(e, Settings.compose(spent, e.spent(), plan.total()), p.preprocessing(),
                    Settings.facts(p, Diagnostics.empty()));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        ComposedGuarantee guarantee = settings.composeForUnit(spent, result.guarantee().orElseThrow(() ->
                new IllegalStateException(algorithm.name() + " returned no guarantee; this is a bug")), plan.total(),
                p.preprocessing().bound());
        return new PcaRelease(result, p.preprocessing(), spectrum[0], guarantee,
                Settings.facts(p, Diagnostics.builder().put("fitSeconds", seconds).build()), warnings);
    }

    /**
     * Runs a NON-private reference estimator (exact, oja, streaming-power, noisy-power, ggd, sggd) on the same
     * public preprocessing, for comparison. Its result reveals the data: it is not a release. A random start
     * (streaming-power, noisy-power) is drawn from the chain's {@link #randomSource}: SecureRandom's unless a
     * seeded source is given, which makes the reference run repeatable.
     *
     * @return the reference result
     * @throws ReleaseSettingException for a private estimator, or private preprocessing or an automatic k
     */
    public PcaReference fitWithoutPrivacy() {
        check();
        if (algorithm.isPrivate()) {
            Vocabulary v = settings.vocabulary();
            throw new ReleaseSettingException(v.typed(Setting.ALGORITHM, algorithm.name()) + " is differentially "
                    + "private: fit it with a budget", "call fit(budget)");
        }
        Preprocessor.Prepared p = settings.prepare(null, null, null, algorithm.readsOnce());
        try {
            return fitWithoutPrivacy(p);
        } finally {
            Settings.close(p.source());
        }
    }

    private PcaReference fitWithoutPrivacy(Preprocessor.Prepared p) {
        DpPreconditions.checkComponents(components.k(), p.rows().dimension());
        List<String> warnings = new ArrayList<>();
        long start = System.nanoTime();
        // the chain's source drives a reference algorithm's random start (reproducible only when seeded)
        PrivateSubspace result = algorithm.fit(new PcaAlgorithm.Input(p.rows(), p.rowCount(), components.k(), null,
                settings.neighbouring(), settings.effectiveRandom(), warner(warnings), null), options,
                settings.vocabulary());
        double seconds = (System.nanoTime() - start) / 1e9;
        return new PcaReference(result, p.preprocessing(),
                Settings.facts(p, Diagnostics.builder().put("fitSeconds", seconds).build()));
    }

    private Consumer<String> warner(List<String> warnings) {
        return w -> {
            warnings.add(w);
            settings.listener().warning(w);
        };
    }
}
