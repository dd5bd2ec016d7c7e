package io.dpspectra.release;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.SchemaFile;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.ComposedGuarantee;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What every release chain shares ({@link PrivatePca}, {@link PrivateSecondMoment}): where the rows come from,
 * their schema, the centring and the bound, the relation, the randomness, who listens, and the words of the
 * messages; with the steps they share (the checks of the preprocessing settings, the preprocessing itself,
 * and the composition of what was spent).
 */
record Settings(RowInput input, PrivacyUnit unit, SchemaFile schema, Centring centring, RowBound bound, Neighbouring neighbouring,
                RandomSource random, ReleaseListener listener, Vocabulary vocabulary) {
    Settings {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(vocabulary, "vocabulary");
    }

    static Settings of(RowInput input) {
        return new Settings(input, PrivacyUnit.ROW, null, null, null, null, null, ReleaseListener.NONE, Vocabulary.JAVA);
    }

    Settings schema(SchemaFile s) {
        return new Settings(input, unit, s, centring, bound, neighbouring, random, listener, vocabulary);
    }

    Settings centring(Centring c) {
        return new Settings(input, unit, schema, Objects.requireNonNull(c, "centring"), bound, neighbouring, random, listener,
                vocabulary);
    }

    Settings bound(RowBound b) {
        return new Settings(input, unit, schema, centring, Objects.requireNonNull(b, "bound"), neighbouring, random, listener,
                vocabulary);
    }

    Settings neighbouring(Neighbouring n) {
        return new Settings(input, unit, schema, centring, bound, n, random, listener, vocabulary);
    }

    Settings random(RandomSource r) {
        return new Settings(input, unit, schema, centring, bound, neighbouring, Objects.requireNonNull(r, "random"), listener,
                vocabulary);
    }

    Settings listener(ReleaseListener l) {
        return new Settings(input, unit, schema, centring, bound, neighbouring, random, Objects.requireNonNull(l, "listener"),
                vocabulary);
    }

    Settings vocabulary(Vocabulary v) {
        return new Settings(input, unit, schema, centring, bound, neighbouring, random, listener,
                Objects.requireNonNull(v, "vocabulary"));
    }

    Settings unit(PrivacyUnit u) {
        return new Settings(input, Objects.requireNonNull(u, "unit"), schema, centring, bound, neighbouring, random,
                listener, vocabulary);
    }

    /** The centring: as set, else the schema's public centres when it declares any, else none. */
    Centring effectiveCentring() {
        if (centring != null) {
            return centring;
        }
        return schema != null && schema.schema().hasCenters() ? Centring.PUBLIC : Centring.NONE;
    }

    /** The bound: as set, else the schema's by construction. */
    RowBound effectiveBound() {
        return bound != null ? bound : RowBound.fromSchema();
    }

    /** Whether the preprocessing spends budget (a private bound or mean). */
    boolean preprocessingSpends() {
        return effectiveBound() instanceof RowBound.PrivateQuantile || effectiveCentring().isPrivate();
    }

    /** Checks the preprocessing settings alone, before any budget or data. */
    void check() {
        Centring c = effectiveCentring();
        if (schema != null) {
            // a unit's column is the schema's id column, and a schema with an id column needs that unit
            UnitCsv.checkSchema(schema.schema(), unit, "the " + vocabulary.name(Setting.SCHEMA), vocabulary);
        }
        if (!unit.isRow()) {
            if (effectiveBound() instanceof RowBound.Given g && g.policy() == io.dpspectra.data.DataBounds.Policy.REJECT) {
                throw new ReleaseSettingException(vocabulary.name(Setting.NORM_BOUND) + " refuses rows above the "
                        + "bound, but with " + vocabulary.name(Setting.PRIVACY_UNIT) + " each person's rows are clipped "
                        + "to B/sqrt(M)", "clip instead: " + vocabulary.typed(Setting.CLIP_NORM, String.valueOf(g.bound())));
            }
        }
        if (c.kind() == Centring.Kind.PUBLIC && schema == null) {
            throw new ReleaseSettingException(vocabulary.typed(Setting.CENTRE, "public") + " needs a "
                    + vocabulary.name(Setting.SCHEMA) + " with public centres", "give a schema, or centre by a private "
                    + "mean, or do not centre");
        }
        if (effectiveBound() instanceof RowBound.FromSchema
                && (schema == null || schema.schema().rowNormBound(c.centres()).isEmpty())) {
            throw new ReleaseSettingException(schema == null ? "a row norm bound is required: give one, or a "
                    + vocabulary.name(Setting.SCHEMA) + " with bounds" : "the schema gives no row norm bound: "
                    + schema.schema().boundDerivation(true), "add min and max to every numeric column of the "
                    + "schema, or give a bound from domain knowledge");
        }
    }

    /** The randomness: as set, else SecureRandom. */
    RandomSource effectiveRandom() {
        return random != null ? random : RandomSource.secure();
    }

    /** Opens the input and runs the preprocessing of {@code plan} (null when nothing is private). */
    Preprocessor.Prepared prepare(BudgetPlan plan, Neighbouring relation, RandomSource r, boolean estimatorReadsOnce) {
        StatisticSource source = plan == null ? null : plan.takeOpened();
        if (source == null) {
            source = input.open(new RowInput.Request(schema, effectiveCentring().centres(),
                    estimatorReadsOnce && !preprocessingSpends(), unit, r != null ? r : effectiveRandom()));
        }
        RowBound planned = plan != null ? plan.rowBound() : effectiveBound();
        try {
            Preprocessor.Prepared prepared = Preprocessor.prepare(source, schema, planned, effectiveCentring(), plan,
                    relation, r, vocabulary, listener);
            if (!estimatorReadsOnce && !preprocessingSpends() && prepared.rows().knownSize().isPresent()) {
                // nothing has read the rows yet (a file whose header gives n), and this estimator may draw noise
                // before it has read every row (streaming, minibatches): read them once now, so that a NaN or
                // infinite cell or a row over a refused bound fails before any noise. Every other path reads every
                // row before its first noise anyway: a private bound's or mean's pass, a Gram pass, the count of a
                // text input.
                long n = Preprocessor.validate(prepared.rows());
                return new Preprocessor.Prepared(prepared.rows(), () -> n, prepared.preprocessing(), prepared.spent(),
                        prepared.source());
            }
            return prepared;
        } catch (RuntimeException | Error e) {
            close(source);
            throw e;
        }
    }

    /**
     * Releases what an opened source holds on disk (a grouping's spill files) once its fit has ended, however it
     * ended.
     */
    static void close(StatisticSource source) {
        if (source instanceof UnitStatistics u) {
            u.close();
        }
    }

    /**
     * Opens the input to count its rows before the release spends (kept for the fit, which then reads the same
     * source), or null when the input is a stream read once.
     */
    StatisticSource openForCount() {
        if (!input.countable() || !unit.isRow()) {
            return null; // a unit's grouping draws its random selection with the release's source, at the fit
        }
        return input.open(new RowInput.Request(schema, effectiveCentring().centres(), false));
    }

    /**
     * Whether the bound is a private quantile with an automatic share that n plans: under replace-one (the
     * relation of every part of a release with a private bound, unless add/remove is asked for), n is public.
     */
    boolean autoBoundShare() {
        return effectiveBound() instanceof RowBound.PrivateQuantile pq && pq.isAuto()
                && neighbouring != Neighbouring.ADD_REMOVE_ROW;
    }

    /** n of a source opened to count (an input without rows fails here, before any noise), or −1 for none. */
    static long count(StatisticSource counted) {
        if (counted == null) {
            return -1;
        }
        long n = counted.rowCount();
        if (n == 0) {
            throw new io.dpspectra.data.InvalidDataException(counted.describe() + " has no data rows",
                    "provide at least one row");
        }
        return n;
    }

    /**
     * The bound to plan with: an automatic private-bound share planned for n public rows at the release's ε
     * (with a warning through the listener when even the largest share is too little for so few rows), else
     * the bound as set.
     *
     * @param n       the rows counted while planning, or −1 when they were not
     * @param epsilon the release's total ε
     */
    RowBound plannedBound(long n, double epsilon) {
        RowBound bound = effectiveBound();
        if (!autoBoundShare() || n < 1) {
            return bound;
        }
        RowBound.PrivateQuantile q = (RowBound.PrivateQuantile) bound;
        RowBound.PrivateQuantile planned = q.forPublicRows(n, epsilon, schemaBound());
        if (!q.plan(n, epsilon, schemaBound()).sufficient()) {
            listener.warning(UsefulnessWarning.tooFewRows(planned, n, epsilon, vocabulary));
        }
        return planned;
    }

    /** The bound a schema implies by construction for this centring, or empty. */
    java.util.OptionalDouble schemaBound() {
        return schema == null ? java.util.OptionalDouble.empty()
                : schema.schema().rowNormBound(effectiveCentring().centres());
    }

    /**
     * The composition of {@link #compose}, each part stating this chain's unit: with a person as the unit, every
     * part's unit names the column and M (the estimator's calibrated to the final bound {@code bound}, whose
     * square bounds one person's sum of outer products).
     */
    ComposedGuarantee composeForUnit(List<PrivacyGuarantee> before, PrivacyGuarantee estimator, PrivacyParams total,
                                     double bound) {
        return UnitStatistics.compose(unit, before, estimator, total, bound);
    }

    /**
     * Refuses, before any data, an algorithm that cannot bound one person's whole contribution, or that needs more
     * than the Frobenius bound of a {@link PrivacyUnit.ContributionBound#FROBENIUS} unit.
     *
     * @param name               the algorithm's name
     * @param supported          the names that can bound a person (trace ≤ B²)
     * @param frobeniusSupported the names calibrated to the Frobenius norm of the Gram alone
     */
    void checkUnitSupported(String name, java.util.Set<String> supported, java.util.Set<String> frobeniusSupported) {
        UnitStatistics.checkSupported(unit, name, supported, frobeniusSupported, vocabulary);
    }

    /**
     * The refusal of {@link PrivacyUnit.ContributionBound#FROBENIUS} by a part that needs more than the Frobenius
     * norm of a person's contribution ({@link UnitStatistics#refuseFrobenius}).
     *
     * @param why         the part and what it needs, e.g. "--algorithm it-u is calibrated to ..."
     * @param alternative what would work instead
     * @return the exception
     */
    ReleaseSettingException refuseFrobenius(String why, String alternative) {
        return UnitStatistics.refuseFrobenius(why, alternative, vocabulary);
    }

    /** The composition of the preprocessing's and later spends with the estimator's guarantee (last). */
    static ComposedGuarantee compose(List<PrivacyGuarantee> before, PrivacyGuarantee estimator, PrivacyParams total) {
        List<PrivacyGuarantee> parts = new ArrayList<>(before);
        parts.add(estimator);
        return ComposedGuarantee.basic(parts, total);
    }

    /**
     * The curator's facts after a fit: the rows of the estimator's last pass (else a count, which may re-read a
     * CSV), then the source's own facts, then {@code extra}.
     */
    static Diagnostics facts(Preprocessor.Prepared p, Diagnostics extra) {
        Diagnostics.Builder d = Diagnostics.builder();
        long rows = p.rows().rowsInLastPass() > 0 ? p.rows().rowsInLastPass() : p.rowCount().getAsLong();
        d.put("rows", rows);
        d.putAll(p.source().curatorFacts());
        d.putAll(extra);
        return d.build();
    }
}
