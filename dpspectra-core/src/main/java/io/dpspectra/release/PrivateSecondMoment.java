package io.dpspectra.release;

import io.dpspectra.Diagnostics;
import io.dpspectra.covariance.CovarianceEstimator;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.SchemaFile;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;
import java.util.Objects;

/**
 * A private release of the second-moment matrix XᵀX of the preprocessed rows (their covariance, a sum over
 * rows, when they are centred), the whole of {@code dpspectra covariance} as one chain:
 * <pre>{@code
 * CovarianceRelease release = PrivateSecondMoment.of(RowInput.csv(Path.of("wine.csv")))
 *         .schema(SchemaFile.read(Path.of("docs/schemas/wine.json")))
 *         .centre(Centring.PRIVATE)
 *         .algorithm("ad")
 *         .fit(PrivacyParams.pure(1));
 * release.covariance().matrix();   // d × d
 * }</pre>
 * Each setter returns a new chain. {@link #fit(PrivacyParams)} checks every setting and splits the budget
 * ({@link #plan}) before it reads any row; then it runs the private preprocessing over the seam of exact
 * statistics and the mechanism on its share.
 *
 * <p>Privacy: one row is the unit, or one person with {@link #privacyUnit} (see {@link PrivacyUnit}); the
 * private bound, the private mean and the mechanism are certified under one relation (replace-one when parts compose and none is named) and compose by basic composition to the
 * budget given ({@link CovarianceRelease#guarantee()}).
 *
 * <p>Defaults: mechanism laplace, the bound the schema implies, the schema's public centres when it declares
 * any (else none), the mechanism's own relation.
 */
public final class PrivateSecondMoment {
    private final Settings settings;
    private final CovarianceAlgorithm algorithm;
    private final boolean skipLastVector;

    private PrivateSecondMoment(Settings settings, CovarianceAlgorithm algorithm, boolean skipLastVector) {
        this.settings = settings;
        this.algorithm = algorithm;
        this.skipLastVector = skipLastVector;
    }

    /**
     * A release of the rows {@code input} opens.
     *
     * @param input where the rows come from
     * @return the chain
     */
    public static PrivateSecondMoment of(RowInput input) {
        return new PrivateSecondMoment(Settings.of(input), Algorithms.covariance("laplace", Vocabulary.JAVA), false);
    }

    /**
     * A release of numeric rows as they are (no schema), named x1..xd.
     *
     * @param rows the rows, one per privacy unit
     * @return the chain
     */
    public static PrivateSecondMoment of(RowSource rows) {
        return of(RowInput.of(rows));
    }

    private PrivateSecondMoment with(Settings s) {
        return new PrivateSecondMoment(s, algorithm, skipLastVector);
    }

    /**
     * The privacy unit: one row (the default), or one person, all rows with one value of a column, of whom at most
     * M rows are kept, each clipped to B/√M so that the person's whole contribution to XᵀX has Frobenius norm ≤ B²,
     * the sensitivity every mechanism here is calibrated to ({@link PrivacyUnit}). With {@link PrivacyUnit#frobenius}
     * the person's rows are bounded together so that only the Frobenius norm is ≤ B²: the Gaussian mechanism accepts
     * it, the others (which need a trace, operator or L1 bound) refuse it by name. The column is read for grouping
     * only, never as a feature.
     *
     * @param unit the unit, e.g. {@code PrivacyUnit.column("customer", 20)}
     * @return a new chain
     */
    public PrivateSecondMoment privacyUnit(PrivacyUnit unit) {
        return with(settings.unit(unit));
    }

    /**
     * See {@link PrivatePca#schema}.
     *
     * @param schema the schema and its file format
     * @return a new chain
     */
    public PrivateSecondMoment schema(SchemaFile schema) {
        return with(settings.schema(schema));
    }

    /**
     * See {@link PrivatePca#centre}.
     *
     * @param centring none, the schema's public centres, or a private mean
     * @return a new chain
     */
    public PrivateSecondMoment centre(Centring centring) {
        return with(settings.centring(centring));
    }

    /**
     * See {@link PrivatePca#bound}.
     *
     * @param bound given, the schema's, or a private quantile
     * @return a new chain
     */
    public PrivateSecondMoment bound(RowBound bound) {
        return with(settings.bound(bound));
    }

    /**
     * The mechanism, by name.
     *
     * @param name it-u, ad, kt, laplace or gaussian
     * @return a new chain
     * @throws ReleaseSettingException for an unknown name
     */
    public PrivateSecondMoment algorithm(String name) {
        return algorithm(Algorithms.covariance(name, settings.vocabulary()));
    }

    /**
     * The mechanism.
     *
     * @param mechanism one of {@link Algorithms#covariance()}
     * @return a new chain
     */
    public PrivateSecondMoment algorithm(CovarianceAlgorithm mechanism) {
        return new PrivateSecondMoment(settings, Objects.requireNonNull(mechanism, "algorithm"), skipLastVector);
    }

    /**
     * it-u and ad: spend nothing on the last eigenvector, which the other d − 1 fix (no privacy cost, a little
     * less noise in the others); off by default, as in Amin et al. 2019.
     *
     * @param skip whether to skip it
     * @return a new chain
     */
    public PrivateSecondMoment skipLastVector(boolean skip) {
        return new PrivateSecondMoment(settings, algorithm, skip);
    }

    /**
     * See {@link PrivatePca#neighbouring}.
     *
     * @param relation add/remove or replace-one rows, or null for the default
     * @return a new chain
     */
    public PrivateSecondMoment neighbouring(Neighbouring relation) {
        return with(settings.neighbouring(relation));
    }

    /**
     * See {@link PrivatePca#randomSource}.
     *
     * @param random the source
     * @return a new chain
     */
    public PrivateSecondMoment randomSource(RandomSource random) {
        return with(settings.random(random));
    }

    /**
     * See {@link PrivatePca#listener}.
     *
     * @param listener the listener
     * @return a new chain
     */
    public PrivateSecondMoment listener(ReleaseListener listener) {
        return with(settings.listener(listener));
    }

    /**
     * See {@link PrivatePca#vocabulary}.
     *
     * @param vocabulary the words
     * @return a new chain
     */
    public PrivateSecondMoment vocabulary(Vocabulary vocabulary) {
        return with(settings.vocabulary(vocabulary));
    }

    /**
     * Checks every setting that needs no budget, before any data.
     *
     * @throws ReleaseSettingException naming the setting through the vocabulary
     */
    public void check() {
        Vocabulary v = settings.vocabulary();
        algorithm.checkRelation(settings.neighbouring(), v);
        algorithm.checkSkipLastVector(skipLastVector, v);
        settings.checkUnitSupported(algorithm.name(), Algorithms.PERSON_LEVEL_COVARIANCE,
                Algorithms.FROBENIUS_COVARIANCE);
        settings.check();
    }

    /**
     * Checks every setting and splits {@code total} before any noise is drawn. Reads no row, except to count
     * them for an automatic private-bound share under replace-one neighbouring, where n is public
     * ({@link RowBound.PrivateQuantile#forPublicRows}; a pass the fit of this plan then saves).
     *
     * @param total the whole release's (ε, δ)
     * @return the plan
     * @throws ReleaseSettingException for a setting that cannot be honoured
     * @throws IllegalArgumentException for δ = 0 with the Gaussian mechanism
     */
    public BudgetPlan plan(PrivacyParams total) {
        check();
        if (algorithm.needsDelta()) {
            DpPreconditions.checkPositiveDelta(total.delta(), "gaussian covariance");
        }
        BudgetPlan plan = BudgetPlan.split(total, settings.effectiveBound(), settings.effectiveCentring(), null,
                algorithm.needsDelta(), algorithm.noise(), settings.vocabulary());
        algorithm.checkRelation(plan.neighbouring(settings.neighbouring()), settings.vocabulary());
        StatisticSource counted = settings.autoBoundShare() ? settings.openForCount() : null;
        if (counted != null) { // the same split, with the share planned for n
            plan = BudgetPlan.split(total, settings.plannedBound(Settings.count(counted), total.epsilon()),
                    settings.effectiveCentring(), null, algorithm.needsDelta(), algorithm.noise(),
                    settings.vocabulary());
            plan.keepOpened(counted);
        }
        return plan;
    }

    /**
     * Makes the release, spending exactly {@code total}.
     *
     * @param total the whole release's (ε, δ)
     * @return the release
     */
    public CovarianceRelease fit(PrivacyParams total) {
        return fit(plan(total));
    }

    /**
     * Makes the release with a plan from {@link #plan} of this chain.
     *
     * @param plan the plan
     * @return the release
     */
    public CovarianceRelease fit(BudgetPlan plan) {
        Objects.requireNonNull(plan, "plan");
        Neighbouring relation = plan.neighbouring(settings.neighbouring());
        RandomSource random = settings.effectiveRandom();
        Preprocessor.Prepared p = settings.prepare(plan, relation, random, true); // every mechanism: one Gram pass
        try {
            CovarianceEstimator estimator = algorithm.estimator(relation, random, skipLastVector);
            long start = System.nanoTime();
            PrivateCovariance result = estimator.release(p.rows(), plan.estimator());
            double seconds = (System.nanoTime() - start) / 1e9;
            return new CovarianceRelease(result, p.preprocessing(), settings.composeForUnit(p.spent(),
                    result.guarantee(), plan.total(), p.preprocessing().bound()), Settings.facts(p,
                    Diagnostics.builder().put("fitSeconds", seconds).build()));
        } finally {
            Settings.close(p.source()); // a grouping's spill files go now, however the fit ended
        }
    }
}
