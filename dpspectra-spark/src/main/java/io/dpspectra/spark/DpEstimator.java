package io.dpspectra.spark;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.BudgetLedger;
import io.dpspectra.privacy.ComposedGuarantee;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.release.BudgetPlan;
import io.dpspectra.release.Centring;
import io.dpspectra.release.NoiseKind;
import io.dpspectra.release.Preprocessor;
import io.dpspectra.release.PrivacyUnit;
import io.dpspectra.release.ReleaseListener;
import io.dpspectra.release.ReleaseSettingException;
import io.dpspectra.release.RowBound;
import io.dpspectra.release.Setting;
import io.dpspectra.release.UnitStatistics;
import io.dpspectra.release.Vocabulary;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.types.StructType;

/**
 * The parameters every private Spark estimator of dpspectra shares, and the translation of them into
 * core's terms: the budget split ({@link BudgetPlan}), the private preprocessing over the cluster's exact
 * statistics ({@link Preprocessor} over {@link SparkStatistics}), and the composed guarantee. It holds no
 * algorithm logic: {@link DpPca} and {@link DpCovariance} run core's algorithms on the prepared rows.
 *
 * <p>Privacy unit: one row of the input column, or, with {@code privacyUnitCol}, one person: all rows with one value
 * of that column (which is never a feature), of whom at most {@code maxRowsPerUnit} rows M are kept (uniformly at
 * random, or the first M in the input's order with {@code firstRowsPerUnit}), each clipped to B/√M, so that the
 * person's whole contribution to XᵀX is bounded as one row's of norm B is (core's {@link PrivacyUnit}); the rows are
 * grouped on the executors ({@link SparkUnitStatistics}) by core's per-person code, and the guarantee names the
 * column and M. Its L2 bound ({@code clipNorm}) is either given (rows above it
 * are scaled down onto it; choose it from domain knowledge, never from the data) or {@code "private:Q"}, a
 * differentially private Q-quantile of the row norms bought with a share of the budget; {@code center
 * "private"} subtracts a differentially private mean (another share). The parts compose by basic
 * composition, within the budget {@code epsilon}, {@code delta}; the model carries the composed guarantee.
 * Without {@code seed} the noise comes from SecureRandom; a seeded release is reproducible and NOT private
 * against anyone who knows the seed.
 *
 * <p>One fit per estimator: a second fit of the same estimator (or of a copy, as {@code fit(df, paramMaps)}
 * and {@code CrossValidator} make) is refused, since it would spend the budget again on the same rows,
 * unless {@code ledger} names a budget ledger file, which each fit is charged to before it reads any row
 * (and which refuses the fit that would overspend it).
 *
 * @param <M> the model
 * @param <E> the concrete estimator, returned by every setter
 */
public abstract class DpEstimator<M extends Model<M>, E extends DpEstimator<M, E>> extends Estimator<M>
        implements DefaultParamsWritable {
    private static final long serialVersionUID = 1L;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DpEstimator.class);
    private static final String PRIVATE = "private";

    private final String uid;
    private final Param<String> algorithm;
    private final IntParam k;
    private final DoubleParam epsilon;
    private final DoubleParam delta;
    private final Param<String> clipNorm;
    private final Param<String> center;
    private final Param<String> neighbouring;
    private final Param<String> inputCol;
    private final Param<String> outputCol;
    private final LongParam seed;
    private final Param<String> ledger;
    private final Param<String> privacyUnitCol;
    private final IntParam maxRowsPerUnit;
    private final BooleanParam firstRowsPerUnit;
    private final Param<String> unitBound;
    /** Set by the first fit; shared with every copy of this estimator (so a copy cannot spend again). */
    private transient AtomicBoolean spent = new AtomicBoolean();

    /**
     * The shared params.
     *
     * @param uid              the estimator's uid
     * @param algorithms       the names {@code algorithm} accepts
     * @param defaultAlgorithm the default algorithm
     * @param kDoc             what {@code k} means for this estimator
     */
    protected DpEstimator(String uid, List<String> algorithms, String defaultAlgorithm, String kDoc) {
        this.uid = uid;
        algorithm = new Param<>(this, "algorithm", "the mechanism: one of " + String.join(", ", algorithms),
                ParamValidators.inArray(algorithms));
        k = new IntParam(this, "k", kDoc, ParamValidators.gtEq(1));
        epsilon = new DoubleParam(this, "epsilon", "privacy parameter epsilon (> 0, finite) spent by the release in "
                + "all (the private bound and centre take their shares of it)", ParamValidators.gt(0));
        delta = new DoubleParam(this, "delta", "privacy parameter delta in [0, 1); Gaussian mechanisms need delta > 0",
                ParamValidators.inRange(0, 1, true, false));
        clipNorm = new Param<>(this, "clipNorm", "the L2 row norm bound: B (rows above it are scaled onto it; choose "
                + "it from domain knowledge, never from the data), or private:Q[:F] for a differentially private "
                + "Q-quantile of the row norms spending the share F of epsilon (default 0.1)");
        center = new Param<>(this, "center", "none (the uncentred second moment), or private[:F]: subtract a "
                + "differentially private mean spending the share F of the budget (default 0.1)");
        neighbouring = new Param<>(this, "neighbouring", "neighbouring relation of the guarantee: add-remove or "
                + "replace (default: the algorithm's own; replace when a private bound or centre is composed)",
                ParamValidators.inArray(List.of("add-remove", "replace")));
        inputCol = new Param<>(this, "inputCol", "the vector column of rows");
        outputCol = new Param<>(this, "outputCol", "the vector column the model's transform writes");
        seed = new LongParam(this, "seed", "seed the noise for reproducibility: a seeded release is NOT private "
                + "against anyone who knows the seed (default: unset, SecureRandom)");
        ledger = new Param<>(this, "ledger", "a budget ledger file (made with 'dpspectra ledger init') that every fit "
                + "is charged to before it reads a row; without one, an estimator fits once");
        privacyUnitCol = new Param<>(this, "privacyUnitCol", "the column naming the person when one person has many "
                + "rows (any atomic type, read as text; never a feature): the guarantee then protects a person's whole "
                + "group of rows (default: unset, one row is the unit)");
        maxRowsPerUnit = new IntParam(this, "maxRowsPerUnit", "with privacyUnitCol, the most rows M kept per person "
                + "(required; choose it from domain knowledge, never from the data): each kept row is clipped to B/sqrt(M)",
                ParamValidators.gtEq(1));
        firstRowsPerUnit = new BooleanParam(this, "firstRowsPerUnit", "with privacyUnitCol, keep each person's first "
                + "M rows in the input's order instead of M uniformly at random (default false)");
        unitBound = new Param<>(this, "unitBound", "with privacyUnitCol, how a person's kept rows are bounded: rows "
                + "(each clipped to B/sqrt(M), so their sum of outer products has trace <= B^2; every algorithm that "
                + "honours a person) or frobenius (each clipped to B/M^(1/4), then the person's rows scaled together "
                + "so that the Frobenius norm of their sum of outer products is <= B^2; analyze-gauss and the gaussian "
                + "covariance only, more signal when a person's rows point in different directions; default rows)",
                ParamValidators.inArray(List.of("rows", "frobenius")));
        setDefault(firstRowsPerUnit, false);
        setDefault(unitBound, "rows");
        setDefault(algorithm, defaultAlgorithm);
        setDefault(delta, 0.0);
        setDefault(center, "none");
        setDefault(inputCol, "features");
        setDefault(outputCol, "pcaFeatures");
    }

    /**
     * This estimator, typed.
     *
     * @return this
     */
    protected abstract E self();

    @Override
    public String uid() {
        return uid;
    }

    static String newUid(String prefix) {
        return Identifiable.randomUID(prefix);
    }

    /** @return the param */
    public Param<String> algorithm() {
        return algorithm;
    }

    /** @return the param */
    public IntParam k() {
        return k;
    }

    /** @return the param */
    public DoubleParam epsilon() {
        return epsilon;
    }

    /** @return the param */
    public DoubleParam delta() {
        return delta;
    }

    /** @return the param */
    public Param<String> clipNorm() {
        return clipNorm;
    }

    /** @return the param */
    public Param<String> center() {
        return center;
    }

    /** @return the param */
    public Param<String> neighbouring() {
        return neighbouring;
    }

    /** @return the param */
    public Param<String> inputCol() {
        return inputCol;
    }

    /** @return the param */
    public Param<String> outputCol() {
        return outputCol;
    }

    /** @return the param */
    public LongParam seed() {
        return seed;
    }

    /** @return the param */
    public Param<String> ledger() {
        return ledger;
    }

    /**
     * @param value one of the algorithm names (case-insensitive)
     * @return this
     */
    public E setAlgorithm(String value) {
        set(algorithm, value.toLowerCase(Locale.ROOT));
        return self();
    }

    /**
     * @param value k
     * @return this
     */
    public E setK(int value) {
        set(k, value);
        return self();
    }

    /**
     * @param value ε of the whole release
     * @return this
     */
    public E setEpsilon(double value) {
        set(epsilon, value);
        return self();
    }

    /**
     * @param value δ of the whole release
     * @return this
     */
    public E setDelta(double value) {
        set(delta, value);
        return self();
    }

    /**
     * A given row norm bound B.
     *
     * @param value B, from domain knowledge
     * @return this
     */
    public E setClipNorm(double value) {
        return setClipNorm(Double.toString(value));
    }

    /**
     * The row norm bound: a number B, or {@code "private:Q"} / {@code "private:Q:F"} for a private
     * Q-quantile of the row norms spending the share F of ε.
     *
     * @param value B or private:Q[:F]
     * @return this
     * @throws IllegalArgumentException for anything else
     */
    public E setClipNorm(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        rowBound(v);
        set(clipNorm, v);
        return self();
    }

    /**
     * The centring: {@code "none"}, or {@code "private"} / {@code "private:F"} for a private mean spending the
     * share F of the budget.
     *
     * @param value none or private[:F]
     * @return this
     * @throws IllegalArgumentException for anything else
     */
    public E setCenter(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        centring(v);
        set(center, v);
        return self();
    }

    /**
     * @param value add-remove or replace
     * @return this
     */
    public E setNeighbouring(String value) {
        set(neighbouring, value.toLowerCase(Locale.ROOT));
        return self();
    }

    /**
     * @param value the vector column
     * @return this
     */
    public E setInputCol(String value) {
        set(inputCol, value);
        return self();
    }

    /**
     * @param value the output column
     * @return this
     */
    public E setOutputCol(String value) {
        set(outputCol, value);
        return self();
    }

    /**
     * @param value the seed (reproducible, NOT private against anyone who knows it)
     * @return this
     */
    public E setSeed(long value) {
        set(seed, value);
        return self();
    }

    /**
     * Charge every fit to the budget ledger {@code path} (a file on the driver made with {@code dpspectra
     * ledger init}), which allows more than one fit and refuses the one that would overspend it.
     *
     * @param path the ledger file
     * @return this
     */
    public E setLedger(String path) {
        set(ledger, path);
        return self();
    }

    /** @return the param */
    public Param<String> privacyUnitCol() {
        return privacyUnitCol;
    }

    /** @return the param */
    public IntParam maxRowsPerUnit() {
        return maxRowsPerUnit;
    }

    /** @return the param */
    public BooleanParam firstRowsPerUnit() {
        return firstRowsPerUnit;
    }

    /** @return the param */
    public Param<String> unitBound() {
        return unitBound;
    }

    /**
     * With {@link #setPrivacyUnitCol}, how a person's kept rows are bounded: {@code "rows"} (the default; each row
     * clipped to B/√M) or {@code "frobenius"} (each row clipped to B/M^{1/4}, then the person's rows scaled so that
     * ‖Σ_r x_r x_rᵀ‖_F ≤ B²; only analyze-gauss and the gaussian covariance, which are calibrated to that norm alone):
     * see {@link PrivacyUnit.ContributionBound}.
     *
     * @param bound "rows" or "frobenius"
     * @return this
     */
    public E setUnitBound(String bound) {
        set(unitBound, bound);
        return self();
    }

    /** @return "rows" or "frobenius" */
    public String getUnitBound() {
        return getOrDefault(unitBound);
    }

    /**
     * Makes one person the privacy unit: all rows with one value of {@code column} (used for grouping only, never
     * as a feature). Needs {@link #setMaxRowsPerUnit}.
     *
     * @param column the column naming the person
     * @return this
     */
    public E setPrivacyUnitCol(String column) {
        set(privacyUnitCol, column);
        return self();
    }

    /**
     * With {@link #setPrivacyUnitCol}, the most rows kept per person.
     *
     * @param m M ≥ 1, from domain knowledge (the number of rows per person is itself private)
     * @return this
     */
    public E setMaxRowsPerUnit(int m) {
        set(maxRowsPerUnit, m);
        return self();
    }

    /**
     * With {@link #setPrivacyUnitCol}, keep each person's first M rows in the input's order (true) or M uniformly
     * at random (false, the default).
     *
     * @param first whether to keep the first M
     * @return this
     */
    public E setFirstRowsPerUnit(boolean first) {
        set(firstRowsPerUnit, first);
        return self();
    }

    /** @return the person's column (an error if unset) */
    public String getPrivacyUnitCol() {
        return getOrDefault(privacyUnitCol);
    }

    /** @return M (an error if unset) */
    public int getMaxRowsPerUnit() {
        return (Integer) getOrDefault(maxRowsPerUnit);
    }

    /** @return whether the first M rows are kept */
    public boolean getFirstRowsPerUnit() {
        return (Boolean) getOrDefault(firstRowsPerUnit);
    }

    /** The words of the estimators' messages: core's Java words, with the privacy unit named by its setter. */
    static final Vocabulary SPARK = new Vocabulary() {
        @Override
        public String name(Setting setting) {
            return switch (setting) {
                case PRIVACY_UNIT -> "setPrivacyUnitCol";
                case MAX_ROWS_PER_UNIT -> "setMaxRowsPerUnit";
                case UNIT_BOUND -> "setUnitBound";
                case ALGORITHM -> "setAlgorithm";
                default -> Vocabulary.JAVA.name(setting);
            };
        }

        @Override
        public String typed(Setting setting, String value) {
            return setting == Setting.ALGORITHM || setting == Setting.UNIT_BOUND ? name(setting) + "(\"" + value + "\")"
                    : name(setting) + "(" + value + ")";
        }
    };

    /**
     * The privacy unit the params describe: one row, or a person's column with M; an error, before anything is read,
     * for M or first-rows selection without a column, or a column without M.
     */
    PrivacyUnit privacyUnit() {
        if (!isDefined(privacyUnitCol)) {
            if (isDefined(maxRowsPerUnit) || isSet(firstRowsPerUnit) || isSet(unitBound)) {
                throw new ReleaseSettingException((isDefined(maxRowsPerUnit) ? "setMaxRowsPerUnit"
                        : isSet(firstRowsPerUnit) ? "setFirstRowsPerUnit" : "setUnitBound")
                        + " needs setPrivacyUnitCol, the column naming the person", "call setPrivacyUnitCol(column), "
                        + "or drop it for one row as the unit");
            }
            return PrivacyUnit.ROW;
        }
        String column = getOrDefault(privacyUnitCol);
        if (column == null || column.isBlank()) {
            throw new ReleaseSettingException("setPrivacyUnitCol needs a column name, got '" + column + "'",
                    "name the column that identifies the person, e.g. setPrivacyUnitCol(\"customer\")");
        }
        if (!isDefined(maxRowsPerUnit)) {
            throw new ReleaseSettingException("setPrivacyUnitCol(\"" + column + "\") needs setMaxRowsPerUnit(M), the most "
                    + "rows kept per person; there is no default: choose M from domain knowledge, never from the data",
                    "e.g. setMaxRowsPerUnit(20)");
        }
        PrivacyUnit unit = PrivacyUnit.column(column, getMaxRowsPerUnit());
        unit = getFirstRowsPerUnit() ? unit.firstRows() : unit;
        return "frobenius".equals(getUnitBound()) ? unit.frobenius() : unit;
    }

    /**
     * Checks the privacy unit against the algorithm (core's one check: an algorithm that bounds one row at a time
     * refuses a person) and against the input's columns, before anything is read or spent: the column must exist,
     * be atomic, and not be the features' source (the vector column itself, or a column assembled into it, as its
     * ML attributes name them).
     */
    void checkUnit(String algorithmName, java.util.Set<String> supported, java.util.Set<String> frobeniusSupported,
                   Dataset<?> data) {
        PrivacyUnit unit = privacyUnit();
        UnitStatistics.checkSupported(unit, algorithmName, supported, frobeniusSupported, SPARK);
        if (unit.isRow()) {
            return;
        }
        String column = unit.idColumn();
        List<String> columns = List.of(data.schema().fieldNames());
        if (!columns.contains(column)) {
            throw new ReleaseSettingException("the privacy unit column '" + column + "' is not a column of the input",
                    "name one of its columns: " + String.join(", ", columns));
        }
        if (column.equals(getInputCol())) {
            throw new ReleaseSettingException("the privacy unit column '" + column + "' is also the features' column "
                    + "(inputCol): the column naming the person is used for grouping only, never as a feature",
                    "set inputCol to the vector of features, and setPrivacyUnitCol to the id column");
        }
        List<String> features = SparkStatistics.attributeNames(data, getInputCol());
        if (features != null && features.contains(column)) {
            throw new ReleaseSettingException("the privacy unit column '" + column + "' is one of the features of "
                    + "column '" + getInputCol() + "' (its ML attributes name it): the column naming the person is used "
                    + "for grouping only, never as a feature", "assemble the features without '" + column + "'");
        }
        org.apache.spark.sql.types.DataType type = data.schema().apply(column).dataType();
        if (!(type instanceof org.apache.spark.sql.types.AtomicType)) {
            throw new ReleaseSettingException("the privacy unit column '" + column + "' has type " + type.simpleString()
                    + "; a person's id must be text or a number", "give an id column of strings or integers");
        }
    }

    /**
     * The source of a fit: the input column's rows, or, with a person as the unit, the rows grouped by the person's
     * column on the executors (the grouping pass runs now, before any noise; a seeded release draws its selection key
     * from {@code random} here).
     */
    SparkSource open(Dataset<?> data, RandomSource random) {
        PrivacyUnit unit = privacyUnit();
        return unit.isRow() ? SparkStatistics.of(data, getInputCol())
                : SparkUnitStatistics.of(data, getInputCol(), unit, random);
    }

    /** @return the algorithm */
    public String getAlgorithm() {
        return getOrDefault(algorithm);
    }

    /** @return k (an error if unset) */
    public int getK() {
        return (Integer) getOrDefault(k);
    }

    /** @return ε (an error if unset) */
    public double getEpsilon() {
        return (Double) getOrDefault(epsilon);
    }

    /** @return δ */
    public double getDelta() {
        return (Double) getOrDefault(delta);
    }

    /** @return B or private:Q[:F] (an error if unset) */
    public String getClipNorm() {
        return getOrDefault(clipNorm);
    }

    /** @return none or private[:F] */
    public String getCenter() {
        return getOrDefault(center);
    }

    /** @return add-remove or replace (an error if unset: the algorithm's own) */
    public String getNeighbouring() {
        return getOrDefault(neighbouring);
    }

    /** @return the input column */
    public String getInputCol() {
        return getOrDefault(inputCol);
    }

    /** @return the output column */
    public String getOutputCol() {
        return getOrDefault(outputCol);
    }

    /** @return the seed (an error if unset) */
    public long getSeed() {
        return (Long) getOrDefault(seed);
    }

    /** @return the ledger file (an error if unset) */
    public String getLedger() {
        return getOrDefault(ledger);
    }

    /** The budget; an error naming {@code epsilon} if it was never set. */
    PrivacyParams budget() {
        if (!isDefined(epsilon)) {
            throw new IllegalArgumentException(getClass().getSimpleName() + " is differentially private and needs "
                    + "epsilon: call setEpsilon(...) with the budget to spend, e.g. setEpsilon(1.0)");
        }
        return PrivacyParams.of((Double) getOrDefault(epsilon), (Double) getOrDefault(delta));
    }

    /** The row bound; an error naming {@code clipNorm} if it was never set. */
    RowBound rowBound() {
        if (!isDefined(clipNorm)) {
            throw new IllegalArgumentException(getClass().getSimpleName() + " needs a row norm bound: call "
                    + "setClipNorm(B) with B chosen from domain knowledge, never from the data, or "
                    + "setClipNorm(\"private:0.9\") to estimate it privately from a share of the budget");
        }
        return rowBound(getOrDefault(clipNorm));
    }

    private static RowBound rowBound(String v) {
        try {
            if (v.startsWith(PRIVATE + ":")) {
                String[] parts = v.substring(PRIVATE.length() + 1).split(":", -1);
                if (parts.length > 2) {
                    throw new NumberFormatException();
                }
                double q = Double.parseDouble(parts[0]);
                return parts.length == 1 ? RowBound.privateQuantile(q)
                        : RowBound.privateQuantile(q, Double.parseDouble(parts[1]));
            }
            return RowBound.clip(Double.parseDouble(v));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("clipNorm '" + v + "' is neither a bound B nor private:Q[:F]; e.g. "
                    + "setClipNorm(1.0), setClipNorm(\"private:0.9\") or setClipNorm(\"private:0.9:0.1\")", e);
        }
    }

    /** The centring. */
    Centring centring() {
        return centring(getOrDefault(center));
    }

    private static Centring centring(String v) {
        if (v.equals("none")) {
            return Centring.NONE;
        }
        if (v.equals(PRIVATE)) {
            return Centring.PRIVATE;
        }
        if (v.startsWith(PRIVATE + ":")) {
            try {
                return Centring.privateMean(Double.parseDouble(v.substring(PRIVATE.length() + 1)));
            } catch (NumberFormatException e) {
                // below
            }
        }
        throw new IllegalArgumentException("center '" + v + "' is neither none nor private[:F]; e.g. "
                + "setCenter(\"private\") or setCenter(\"private:0.1\")");
    }

    /** k if set, else {@code otherwise}. */
    int componentsOr(int otherwise) {
        return isDefined(k) ? (Integer) getOrDefault(k) : otherwise;
    }

    /** The requested relation, or null for the algorithm's default. */
    Neighbouring neighbouringOrNull() {
        if (!isDefined(neighbouring)) {
            return null;
        }
        return getOrDefault(neighbouring).equals("replace") ? Neighbouring.REPLACE_ROW : Neighbouring.ADD_REMOVE_ROW;
    }

    /** Secure by default; seeded (for tests and reproductions only) when {@code seed} is set. */
    RandomSource randomSource() {
        return isDefined(seed) ? RandomSource.seededForReproducibility((Long) getOrDefault(seed))
                : RandomSource.secure();
    }

    /**
     * The settings of one fit, checked before any row is read: the budget split between the private bound,
     * the private centre and the estimator, the one relation every part is certified under, and the noise.
     */
    record Settings(BudgetPlan plan, Neighbouring neighbouring, RowBound bound, Centring centring,
                    RandomSource random, SparkSource opened) {
    }

    /**
     * The settings for an estimator that uses δ or not, and spends its share as {@code noise}; {@code
     * checkRelation} sees the relation before any row is read. A private bound with an automatic share
     * ({@code private:Q}) under replace-one neighbouring, where n is public, gets the share core plans for n
     * ({@link RowBound.PrivateQuantile#forPublicRows}), as {@code dpspectra fit} does: the rows are counted
     * here, in the first pass of the fit (the rows it persists serve the later passes), before any noise.
     */
    Settings settings(boolean estimatorNeedsDelta, NoiseKind noise, Dataset<?> data,
                      java.util.function.Consumer<Neighbouring> checkRelation) {
        RowBound bound = rowBound();
        Centring centring = centring();
        PrivacyParams total = budget();
        Neighbouring relation = BudgetPlan.split(total, bound, centring, null, estimatorNeedsDelta, noise,
                Vocabulary.JAVA).neighbouring(neighbouringOrNull());
        checkRelation.accept(relation);
        RandomSource random = randomSource();
        SparkSource opened = null;
        // with a person as the unit, core plans the automatic share without counting persons (their grouping draws
        // the release's randomness at the fit), and so does this
        if (bound instanceof RowBound.PrivateQuantile q && q.isAuto() && relation == Neighbouring.REPLACE_ROW
                && privacyUnit().isRow()) {
            opened = open(data, random);
            long n = opened.rows();
            if (n > 0) { // none: refused by the preprocessing, before any noise
                RowBound.PrivateQuantile planned = q.forPublicRows(n, total.epsilon(), OptionalDouble.empty());
                if (!q.plan(n, total.epsilon(), OptionalDouble.empty()).sufficient()) {
                    LOG.warn(String.format(Locale.ROOT, "clipNorm private:%s: %d rows are too few to locate "
                            + "the %s-quantile of the row norms reliably with a share %.2f of epsilon = %s: the bound "
                            + "may land far from it (the median needs the fewest rows; or give a bound from domain "
                            + "knowledge)", q.quantile(), n, q.quantile(), planned.share(), total.epsilon()));
                }
                bound = planned;
            }
        }
        BudgetPlan plan = BudgetPlan.split(total, bound, centring, null, estimatorNeedsDelta, noise, Vocabulary.JAVA);
        return new Settings(plan, relation, bound, centring, random, opened);
    }

    /** What the estimator of a fit reads: the prepared rows, the source's facts, and the notes of the fit. */
    record Fit(Preprocessor.Prepared prepared, SparkSource source, List<String> notes) {
    }

    /**
     * One fit: the one-fit rule or the ledger's charge (before any row is read), the check of the input's
     * lineage, the private preprocessing on the cluster's statistics, then {@code estimator} on the prepared
     * rows; the persisted rows are released at the end. {@code checkWidth} sees d before any noise is drawn;
     * a fit that fails before then (a setting that does not fit d, an input without rows) releases nothing,
     * and leaves the estimator free to fit again; a ledger is checked first and charged only once the width
     * check has passed, before the first noise (as the CLI's is).
     */
    <T> T fit(Dataset<?> data, Settings s, String purpose, java.util.function.IntConsumer checkWidth,
              java.util.function.Function<Fit, T> estimator) {
        List<String> notes = new ArrayList<>(FittedStages.notes(data, getInputCol()));
        for (String n : notes) {
            LOG.warn(n);
        }
        claim(s.plan(), purpose);
        boolean[] checked = {false};
        try (SparkSource source = s.opened() != null ? s.opened() : open(data, s.random())) {
            Preprocessor.Prepared prepared = Preprocessor.prepare(source, null, s.bound(), s.centring(), s.plan(),
                    s.neighbouring(), s.random(), Vocabulary.JAVA, new ReleaseListener() {
                        @Override
                        public void beforeReading(int d) {
                            checkWidth.accept(d);
                            checked[0] = true;
                            charge(s.plan(), purpose); // after the width check: a fit refused for it is not charged
                        }

                        @Override
                        public void note(String message) {
                            LOG.info(message);
                        }
                    });
            return estimator.apply(new Fit(prepared, source, notes));
        } catch (RuntimeException e) {
            if (!checked[0] && !isDefined(ledger)) {
                spent.set(false); // no noise was drawn: nothing was released
            }
            throw e;
        }
    }

    /**
     * Refuses, before anything is spent, a release that forms d x d matrices too large for the cluster
     * ({@link LargeDimension}): d is public, and so is the cluster's configuration.
     */
    static void checkGram(String what, boolean pca, Dataset<?> data, int d) {
        LargeDimension.checkGram(what, pca, d, data.sparkSession().sparkContext().getConf(),
                Runtime.getRuntime().maxMemory(), LargeDimension.Front.ESTIMATOR);
    }

    /**
     * The whole release's guarantee: core's basic composition of the private bound, the private mean and the
     * estimator, within the plan's total, each part stating the fit's unit (with a person, the column and M), as
     * the command line composes it.
     */
    static ComposedGuarantee compose(Fit fit, PrivacyGuarantee estimator, BudgetPlan plan) {
        return UnitStatistics.compose(fit.source().unit(), fit.prepared().spent(), estimator, plan.total(),
                fit.prepared().preprocessing().bound());
    }

    /**
     * The one-fit rule: without a ledger, the first fit of this estimator (or of any copy of it) claims it and
     * every later one is refused; with a ledger, the ledger is checked to hold the fit's whole budget (it is
     * charged by {@link #charge} once the width is known to fit).
     */
    private void claim(BudgetPlan plan, String purpose) {
        if (isDefined(ledger)) {
            ledgerCall(() -> BudgetLedger.check(Path.of(getOrDefault(ledger)), purpose, plan.total(), plan.rho(),
                    io.dpspectra.privacy.PrivacyProfile.of(plan.total())));
            return;
        }
        if (!spent.compareAndSet(false, true)) {
            throw new IllegalStateException(getClass().getSimpleName() + " " + uid + " has already made a release, "
                    + "and each fit spends epsilon = " + plan.total().epsilon() + " again on the rows (fit with "
                    + "several param maps and CrossValidator fit it once per map and fold): call setLedger(path) "
                    + "with a ledger made by 'dpspectra ledger init' to charge every fit to one budget, or make a "
                    + "new estimator for a release on other rows");
        }
    }

    /** Charges the fit's whole budget to the ledger, if one was set (checked again, atomically). */
    private void charge(BudgetPlan plan, String purpose) {
        if (isDefined(ledger)) {
            ledgerCall(() -> BudgetLedger.charge(Path.of(getOrDefault(ledger)), purpose, plan.total(), plan.rho()));
        }
    }

    private void ledgerCall(Runnable call) {
        try {
            call.run();
        } catch (IllegalArgumentException e) {
            Path file = Path.of(getOrDefault(ledger));
            throw new IllegalArgumentException("ledger " + file + ": " + e.getMessage() + "; create one with "
                    + "'dpspectra ledger init --epsilon E --delta D " + file + "'", e);
        }
    }

    /**
     * A copy with {@code extra} params that shares this estimator's one-fit rule.
     *
     * @param copy  the copy, made by {@code defaultCopy}
     * @return the copy
     */
    E sharingSpend(E copy) {
        ((DpEstimator<?, ?>) copy).spent = spent;
        return copy;
    }

    private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
        in.defaultReadObject();
        spent = new AtomicBoolean();
    }

    @Override
    public StructType transformSchema(StructType schema) {
        return DpModel.appendOutput(schema, getOrDefault(inputCol), getOrDefault(outputCol));
    }

    /** Copies this estimator's shared params onto a model. */
    <T extends DpModel<?>> T withParams(T model) {
        model.set(model.inputCol(), getOrDefault(inputCol));
        model.set(model.outputCol(), getOrDefault(outputCol));
        return model;
    }
}
